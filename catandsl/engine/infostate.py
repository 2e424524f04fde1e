"""Determinizing: a state consistent with what one seat observes, the rest drawn at random.

`State.observation(seat)` hides the opponents' resource hands and cards (each a count),
the deck (a count), which cards the active player bought this turn (a count, unless the
seat is the active player) and the seed (which fixes every future draw). Everything else
is public. `resample(state, seat, rng)` keeps what the seat sees and draws the rest:

- resources: the cards no one can see are what the game holds of each resource less
  the bank and the seat's own hand (the bank and hands conserve every resource, the
  state checks that); they are shuffled and dealt to the opponents, each as many as
  they hold;
- cards: the unseen cards of each kind are its count less those played, set aside for
  good and held by the seat; shuffled and dealt to the opponents (as many as each
  holds) and to the deck (as many as it holds);
- the cards the active player bought this turn: as many of their dealt cards as the
  count says, drawn at random;
- the seed: drawn from `rng`, so the resampled state's future draws are its own.

A domestic trade under way binds the deal: a player who accepted an offer holds what
it asks of them, and one who countered holds what the counter gives (both public), so
those cards are dealt to them first. A draft another seat is composing is its secret:
the resample's draft is an empty one (as just opened), so nothing unseen is kept.

Face-down hexes hold no answer in the state (a reveal is a chance node drawn from
what is left of the stack), so there is nothing to resample there.

Only what the seat observes is read: two states that differ only in what the seat
cannot see give the same resample for the same `rng` (tests/engine/test_infostate.py).
The result is a state for search (Monte Carlo tree search, `players/mcts.py`): its
seed is not the game's, so `Game.deserialize_state` refuses its serialized form.
"""

from __future__ import annotations

import dataclasses
import random
from typing import TypeVar

from catandsl.engine.errors import ArgumentError, StateError
from catandsl.engine.flow import Running
from catandsl.rules.play import State

R = TypeVar("R", bound=Running)

def resample(state: R, player: object, rng: object) -> R:
    """A copy of `state` whose hidden data (see the module's doc) is drawn with `rng`
    consistently with `state.observation(player)`. The seat and the generator are
    declared `object` and checked here (ArgumentError): a compiled build would refuse a
    declared type's mismatch with a TypeError first."""
    g = state.game
    seat = g.check_seat(player, "resample_from_infostate")
    if not isinstance(rng, random.Random):
        raise ArgumentError(f"resample_from_infostate needs a random.Random, not {type(rng).__name__}")
    s = state.clone()
    n = g.num_players
    others = [p for p in range(n) if p != seat]
    if others:
        _hide_drafts(s, seat, rng)
        _deal_resources(s, g, seat, others, rng)
        _deal_cards(s, g, seat, others, rng)
    s.seed = rng.getrandbits(64)
    s.forget_derived()
    return s


def _hide_drafts(s: State, seat: int, rng: random.Random) -> None:
    """Another seat's draft of an offer (hidden from `seat`) becomes an empty draft, and
    the other bidders' sealed bids are drawn afresh from their range."""
    from catandsl.rules.bids import Bidding
    from catandsl.rules.trade import Composing, Offering

    for k, top in enumerate(s.pending):
        if isinstance(top, Bidding):
            s.pending[k] = top.hidden_from(seat, rng)
        elif isinstance(top, Composing) and top.player != seat:
            s.pending[k] = Composing(top.player, [0] * len(top.give), [0] * len(top.get), -1)
        elif isinstance(top, Offering) and top.draft and top.asked[0] != seat:
            s.pending[k] = dataclasses.replace(top, draft=[0] * len(top.draft))


def bound_cards(s: State, R: int) -> dict[int, list[int]]:
    """The resource cards each player is publicly bound to hold: what an offer under way
    asks of those who accepted it, and what their counter-offers give."""
    from catandsl.rules.trade import Offering

    out: dict[int, list[int]] = {}
    for top in s.pending:
        if not isinstance(top, Offering):
            continue
        bound = [(p, top.get) for p in top.accepted] + [(c[0], c[1:]) for c in top.counters]
        for p, gives in bound:
            row = out.setdefault(p, [0] * R)
            for r in range(R):
                row[r] = max(row[r], gives[r])
    return out


def _deal_resources(s: State, g, seat: int, others: list[int], rng: random.Random) -> None:
    mine = s.hands[seat]
    sizes = [sum(s.hands[p]) for p in others]
    if not any(sizes):
        return
    R = len(g.resources)
    unseen: list[int] = []
    for r, total in enumerate(g.bank_start):
        unseen += [r] * (total - s.bank[r] - mine[r])
    _check_count("resource", unseen, sum(sizes))
    committed = bound_cards(s, R)
    bound = [committed.get(p, [0] * R) for p in others]
    for row in bound:  # (the cards a player is bound to hold are theirs before the deal)
        for r, n in enumerate(row):
            for _ in range(n):
                unseen.remove(r)
    rng.shuffle(unseen)
    free = [size - sum(row) for size, row in zip(sizes, bound)]
    for p, row, fixed in zip(others, _deal(unseen, free, R), bound):
        s.hands[p] = [a + b for a, b in zip(row, fixed)]


def _deal_cards(s: State, g, seat: int, others: list[int], rng: random.Random) -> None:
    sizes = [sum(s.cards[p]) for p in others]
    in_deck = sum(s.deck)
    stacked = sum(s.stacked)  # face down beside the deck: as unseen as the deck
    if not any(sizes) and not in_deck and not stacked:
        return
    mine = s.cards[seat]
    unseen: list[int] = []
    for c in g.cards:
        k = c.index
        unseen += [k] * (c.count - sum(row[k] for row in s.played) - s.discarded[k] - mine[k])
    _check_count("card", unseen, sum(sizes) + in_deck + stacked)
    rng.shuffle(unseen)
    C = len(g.cards)
    *rows, s.deck, s.stacked = _deal(unseen, sizes + [in_deck, stacked], C)
    for p, row in zip(others, rows):
        s.cards[p] = row
    bought = sum(s.new_cards)
    if s.turn_player != seat and bought:
        held = [c for c, m in enumerate(s.cards[s.turn_player]) for _ in range(m)]
        (s.new_cards,) = _deal(rng.sample(held, bought), [bought], C)


def _deal(shuffled: list[int], sizes: list[int], width: int) -> list[list[int]]:
    """The shuffled cards (kinds by index) dealt in turn, as many as each size, each hand
    as counts per kind."""
    rows = []
    at = 0
    for k in sizes:
        row = [0] * width
        for x in shuffled[at:at + k]:
            row[x] += 1
        rows.append(row)
        at += k
    return rows


def _check_count(what: str, unseen: list[int], held: int) -> None:
    """The unseen cards are as many as the hidden rows hold (so a state that conserves
    its cards, as every checked state does)."""
    if len(unseen) != held:
        raise StateError(f"resample_from_infostate: {len(unseen)} {what} cards are unseen, but the hidden "
                         f"hands hold {held}: the state does not conserve its {what} cards")
