"""Production (A.6, B.6): the hexes of a number pay the buildings around them, with the
bank-shortage rule; a terrain that `produces choice` (gold) lets each owner pick from
the bank instead (`Choosing`, one resource per action)."""

from __future__ import annotations

from dataclasses import dataclass
from itertools import chain
from typing import TYPE_CHECKING, ClassVar

from catandsl.rules import network
from catandsl.rules.base import CardByCard, Location, hexes_of
from catandsl.rules.choices import ChoiceIds
from catandsl.rules.play import State, YieldLimit
from catandsl.rules.registry import FLOW, HANDS, effect

if TYPE_CHECKING:
    from collections.abc import Iterable, Sequence



@effect("roll: int", writes=(HANDS, FLOW))
def produce(s: State, roll: int) -> None:
    """Every hex with this number that no blocking piece stands on pays the pieces
    around it, with the bank-shortage rule."""
    g = s.game
    b = g.board
    hexes = b.number_hexes[roll] if 0 <= roll < len(b.number_hexes) else ()
    if not hexes:
        return
    n = g.num_players
    owed: dict[int, list[int]] = {}  # resource -> [player]: what each is owed of it
    blocked = [s.neutral_at[u] for pi in g.blocking for u in g.neutral_slots[pi]]
    yields = piece_yields(s)
    # what each hex pays whom: kept on the network while no building changes, unless a
    # rule limits this turn's yields
    kept = network.of(s).pays if yields is g.piece_produces else {}
    chosen = [0] * n  # B.6: resources of the owner's choice (gold)
    choice = g.hex_choice
    for h in rolled_hexes(s, roll, hexes):
        if h in blocked:
            continue
        pays = kept.get(h)
        if pays is None:
            pays = kept[h] = hex_pays(s, h, yields)
        if not pays:
            continue
        if choice[h]:
            for o, k in pays:
                chosen[o] += k
            continue
        r = g.hex_resource[h]
        if r < 0:
            continue
        row = owed.get(r)
        if row is None:
            row = owed[r] = [0] * n
        for o, k in pays:
            row[o] += k
    for r, row in owed.items():  # (each resource on its own: their order does not matter)
        total = sum(row)
        if total <= s.bank[r]:
            for p, k in enumerate(row):
                if k:
                    s.hands[p][r] += k
            s.bank[r] -= total
        else:
            owed_to = [p for p, k in enumerate(row) if k]
            if len(owed_to) == 1:  # A.6: a single player owed takes what is left
                s.hands[owed_to[0]][r] += s.bank[r]
                s.bank[r] = 0
    if any(chosen):
        push_choices(s, chosen)


def hex_pays(s: State, h: int, yields: Sequence[int]) -> tuple[tuple[int, int], ...]:
    """(player, resources) for each player's piece around hex h, in the order of its
    corners (a neutral seat never receives anything)."""
    n = s.game.num_players
    owner, piece = s.corner_owner, s.corner_piece
    return tuple((owner[c], yields[piece[c]]) for c in s.game.board.hex_corners[h] if 0 <= owner[c] < n)


def rolled_hexes(s: State, roll: int, hexes: Sequence[int]) -> Iterable[int]:
    """The hexes among `hexes` (those with the number `roll`) that may pay someone: on a
    board with many more of them than buildings, only those next to a building (the
    answer is the same)."""
    if len(hexes) <= 3:  # (as on most boards: fewer than one building's worth)
        return hexes
    b = s.game.board
    buildings = network.of(s).corners
    if len(hexes) <= 3 * sum(len(c) for c in buildings):
        return hexes
    number, around = b.hex_number, b.corner_hexes
    return sorted({h for c in chain.from_iterable(buildings) for h in around[c] if number[h] == roll})


def piece_yields(s: State) -> Sequence[int]:
    """What each kind of piece yields a hex this turn: its `produces`, or less where a
    rule limited it for the turn (`limit_yield`)."""
    g = s.game
    if not s.yield_limits:
        return g.piece_produces  # (never edited)
    out = list(g.piece_produces)
    for turn, pi, most in s.yield_limits:
        if turn == s.turns:
            out[pi] = min(out[pi], most)
    return out


@effect("piece: piece, count: int 0..100", writes=FLOW)
def limit_yield(s: State, piece: str, count: int) -> None:
    """For the rest of this turn, every piece of this kind yields at most `count`
    resources from a hex (cities yield 1 this turn)."""
    pi = s.game.piece_index[piece]
    # limits of earlier turns are spent: drop them, so the list stays short
    s.yield_limits = [e for e in s.yield_limits if e.turn == s.turns] + [YieldLimit(s.turns, pi, count)]


@effect("player: player, at: site, count: int 0..100", writes=(HANDS, FLOW))
def collect_choice(s: State, player: int, at: Location, count: int) -> None:
    """For each hex around `at` whose terrain `produces choice` (gold), the player takes
    `count` resources of their choice from the bank."""
    total = count * sum(1 for h in hexes_of(s.game, at) if s.game.hex_choice[h])
    if total > 0:
        counts = [0] * s.game.num_players
        counts[player] = total
        push_choices(s, counts)


def push_choices(s: State, counts: list[int]) -> None:
    """Each player picks counts[player] resources from the bank, in seat order from the
    player whose turn it is."""
    n = s.game.num_players
    owed = []
    for k in range(n):
        p = (s.turn_player + k) % n
        if counts[p] > 0:
            owed.append([p, counts[p]])
    if owed:
        s.push(Choosing(owed))


@dataclass
class Choosing(CardByCard):
    """Players take resources of their choice from the bank, one per action, in turn:
    `owed` is [[player, resources still to take], ...]. With the bank empty the choice
    lapses (B.6)."""

    KIND: ClassVar[str] = "gold"

    def done(self, s: State) -> bool:
        return super().done(s) or not any(s.bank)

    def legal(self, s: State) -> list[int]:
        ids = s.game.lookups(ChoiceIds).resource
        return [ids[r] for r, left in enumerate(s.bank) if left > 0]

    def move(self, s: State, player: int, r: int) -> None:
        s.bank[r] -= 1
        s.hands[player][r] += 1
