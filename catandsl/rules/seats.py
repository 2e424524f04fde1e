"""Neutral seats (`neutral_seats 2`): seats past the players that own pieces but take
no turns, receive nothing, hold no cards or tokens and are never robbed or traded with.
Their pieces stand on the board like a player's: they count for the distance rule, for
`owner(at)` and for routes. A scenario places a seat's pieces before the set-up
(`start settlement of neutral 1 at (0, -2) N`) and the players build for them during
play with `build_free_for(player, seats, pieces)`: the player picks the seat and the
site, a legal one of that seat's own network.

Seat numbers: the players are seats 0..players-1, the neutral seats follow. A value of
the language's type `seat` is any of them; `player` is a seat that plays.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from catandsl.rules import words as w
from catandsl.rules.base import Action, EngineError, IllegalAction, Prompt, action_source, ids_of_kind, rules_call
from catandsl.rules.placement import place, targets
from catandsl.rules.play import Game, State
from catandsl.rules.registry import BOARD, FLOW, STATIC, effect, query


@query("", returns="list<seat>", reads=STATIC)
def neutral_seats(s: State) -> list[int]:
    """Every neutral seat (none unless the ruleset says `neutral_seats N`)."""
    g = s.game
    return list(range(g.num_players, g.num_seats))


@query("at: seat", returns="bool", reads=STATIC)
def neutral_seat(s: State, at: int) -> bool:
    """Whether the seat is a neutral one: `neutral_seat(owner(at))` tells a neutral
    road from a player's."""
    return at >= s.game.num_players


@query("at: seat", returns="int", reads=STATIC)
def neutral_number(s: State, at: int) -> int:
    """The neutral seat's number as the map counts them (`start settlement of neutral
    2`), 1 for the first; 0 for a player's seat: `neutral_number(owner(at)) == 2` tells
    the second neutral seat's road."""
    n = s.game.num_players
    return at - n + 1 if at >= n else 0


@dataclass(frozen=True, order=True)
class BuildFor(Action):
    """Place a free piece of another seat (a neutral one) on a site id."""

    KIND: ClassVar[str] = "build_for"
    HEADING: ClassVar[str] = "Build for"
    WRITES: ClassVar[frozenset[str]] = frozenset((BOARD, FLOW))
    seat: int
    piece: str
    at: int

    def words(self, told: w.Told) -> str:
        return (f"build {w.piece_words(told.game, self.piece)} for {w.seat_words(told.game, self.seat)} "
                f"{w.piece_site_words(told, self.piece, self.at)}")


@action_source
def build_for_actions(game: Game) -> list[Action]:
    if not (rules_call(game, "build_free_for") or rules_call(game, "build_free_for_any")):
        return []
    return [BuildFor(seat, p.name, k) for seat in range(game.num_seats) for p in game.pieces
            if not p.neutral and p.travel is None for k in p.allowed]


@dataclass(frozen=True)
class BuildForIds:
    """The ids of building for another seat, by seat, piece kind and site."""

    ids: dict[tuple[int, int, int], int]  # (seat, piece kind, site) -> action id

    @classmethod
    def build(cls, game: Game) -> BuildForIds:
        acts = game.actions
        return cls({(acts[k].seat, game.piece_index[acts[k].piece], acts[k].at): k
                    for k in ids_of_kind(game, BuildFor)})


@effect("player: player, seats: list<seat>, pieces: list<piece>", writes=(BOARD, FLOW))
def build_free_for(s: State, player: int, seats: list[int], pieces: list[str]) -> None:
    """The player places one free piece for one of these seats, at a legal site of that
    seat's own network: the first of the listed kinds any of the seats can place (a
    settlement, else a road); nothing when none can."""
    _build_for(s, player, seats, pieces, "build_free_for", any_kind=False)


@effect("player: player, seats: list<seat>, pieces: list<piece>", writes=(BOARD, FLOW))
def build_free_for_any(s: State, player: int, seats: list[int], pieces: list[str]) -> None:
    """As `build_free_for`, but the player picks the kind too: any of the listed kinds
    that any of the seats can place (a road or a settlement, the builder's choice)."""
    _build_for(s, player, seats, pieces, "build_free_for_any", any_kind=True)


def _build_for(s: State, player: int, seats: list[int], pieces: list[str], primitive: str, any_kind: bool) -> None:
    g = s.game
    kinds = [g.piece_index[p] for p in pieces]
    bad = [p for p, k in zip(pieces, kinds) if g.pieces[k].neutral or g.pieces[k].travel is not None]
    if bad:
        raise EngineError(f"{primitive}() places pieces that stand on a seat's network, not " + ", ".join(bad))
    chosen = sorted({int(x) for x in seats if x != player})
    if chosen and kinds:
        s.push(BuildingFor(player, chosen, kinds, any_kind))


@dataclass
class BuildingFor(Prompt):
    """`player` places one free piece for one of `seats`: of the first kind in `pieces`
    that any of them may place somewhere, or of any of them (`any_kind`); the prompt
    lapses when none may."""

    KIND: ClassVar[str] = "building_for"
    player: int
    seats: list[int]
    pieces: list[int]
    any_kind: bool = False

    def check(self, game: Game) -> str:
        if not (0 <= self.player < game.num_players and all(0 <= x < game.num_seats for x in self.seats)
                and all(0 <= p < len(game.pieces) and not game.pieces[p].neutral for p in self.pieces)):
            return "not a player, seats and pieces"
        return super().check(game)

    def step(self, s: State) -> bool:
        if self.legal(s):
            return False
        s.pending.pop()
        return True

    def actor(self, s: State) -> int:
        return self.player

    def legal(self, s: State) -> list[int]:
        g = s.game
        ids = g.lookups(BuildForIds).ids
        out: list[int] = []
        for pi in self.pieces:
            for seat in self.seats:
                for a in targets(s, seat, pi, "normal"):
                    out.append(ids[(seat, pi, g.actions[a].at)])
            if out and not self.any_kind:
                break
        return sorted(out)

    def apply(self, s: State, act: Action) -> None:
        assert isinstance(act, BuildFor)
        s.pending.pop()
        place(s, act.seat, s.game.piece_index[act.piece], act.at, by=self.player)

    def refusal(self, s: State, act: Action) -> IllegalAction | None:
        if isinstance(act, BuildFor):
            return IllegalAction("action/invalid_target",
                                 f"build {act.piece} for seat {act.seat} at "
                                 f"{s.game.location_name(s.game.pieces[s.game.piece_index[act.piece]].site, act.at)}: "
                                 "not a legal site of that seat's network now")
        return None
