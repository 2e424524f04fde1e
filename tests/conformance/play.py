"""Playing and reading positions in the conformance tests: actions applied or refused
(a refused one changes nothing), forced dice and roll cards, what is legal, hands, tokens
and awards."""

from __future__ import annotations

import pytest

from catandsl.engine import IllegalAction
from catandsl.engine import actions as A
from catandsl.rules.roll_cards import RollCardLookups


def act(s, *actions, player: int | None = None) -> None:
    for a in actions:
        s.apply_action(a, player)


def legal(s) -> list:
    return [s.game.actions[a] for a in s.legal_actions()]


def of_kind(s, kind: type) -> list:
    return [a for a in legal(s) if isinstance(a, kind)]


def builds(s, piece: str) -> set[int]:
    """The sites where the player to act may build the piece now."""
    return {a.at for a in of_kind(s, A.Build) if a.piece == piece}


def moves(s, piece: str) -> set[int]:
    return {a.at for a in of_kind(s, A.Move) if a.piece == piece}


def refused(s, action, code: str | None = None) -> str:
    """Apply an action the rules refuse: IllegalAction, with the state unchanged."""
    before = s.serialize()
    with pytest.raises(IllegalAction) as e:
        s.apply_action(action)
    assert s.serialize() == before
    if code is not None:
        assert e.value.code == code
    return e.value.code


def roll_card(g, total: int, event: str = "") -> A.RevealCard:
    """The roll card (Event Cards) of this total and event ("" for none)."""
    t = g.lookups(RollCardLookups)
    kinds = {(n, e): k for k, (n, e) in enumerate(zip(t.totals, t.events))}
    return A.RevealCard(kinds[total, event])


def roll(s, total: int, event: str = "") -> None:
    """The dice show `total`, or with Event Cards the card of that total and event is
    revealed (asked for first where a card could be played instead)."""
    if not s.is_chance_node():
        act(s, A.RollDice())
    act(s, roll_card(s.game, total, event) if s.game.lookups(RollCardLookups).counts else A.Roll(total))


def hand(s, seat: int) -> dict[str, int]:
    return dict(zip(s.game.resources, s.hands[seat]))


def cards(s, seat: int) -> int:
    return sum(s.hands[seat])


def held(s, seat: int, token: str) -> int:
    return s.tokens_held[seat][s.game.token_index[token]]


def holder(s, award: str) -> int:
    """The seat holding an award, -1 when it is set aside."""
    return s.award_holder[[a.name for a in s.game.awards].index(award)]


def sites_of(s, piece: str) -> list[int]:
    """Where the pieces of a neutral kind stand (-1: off the board)."""
    from catandsl.rules import neutral

    return neutral.sites_of(s, s.game.piece_index[piece])
