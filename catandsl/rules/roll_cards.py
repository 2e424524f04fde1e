"""A deck of roll cards revealed in place of the dice (`roll_cards { ... }`): each card
shows a total, and perhaps an event that rules act on (`on card_revealed(EVENT)`).

The deck is shuffled with `unused` cards laid under a New Year card and the rest on
top; each turn the top card is revealed. Which card comes up is a chance node over the
cards still above the New Year card, each kind as likely as its count there: the cards
above it are a random part of those not yet revealed, so the draw is uniform over the
cards not yet revealed this year (`state.roll_deck`), and nobody knows which of them are
the unused ones. When every card above it is gone (`state.roll_year` is 0), the next
reveal is the New Year card: the deck is rebuilt the same way and a new card revealed.

The roll's source is one thing to the turn (engine/flow.py): `DiceSource` (rules/dice.py)
or `CardSource` here, each giving the chance outcomes and what an outcome rolled.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from catandsl.rules import words as w
from catandsl.rules.base import Action, action_source
from catandsl.rules.play import Game, State
from catandsl.rules.registry import FLOW


@dataclass(frozen=True, order=True)
class RevealCard(Action):
    """Chance outcome: the roll card revealed (an index into the deck's kinds of card)."""

    KIND: ClassVar[str] = "reveal_card"
    HEADING: ClassVar[str] = "Reveal a roll card"
    WRITES: ClassVar[frozenset[str]] = frozenset((FLOW,))
    card: int

    def describe(self, game: Game) -> str:
        """`reveal card 6 drought`: the log names the total and the event."""
        t = game.lookups(RollCardLookups)
        return f"reveal card {t.totals[self.card]}" + (f" {t.events[self.card]}" if t.events[self.card] else "")

    def words(self, told: w.Told) -> str:
        """`reveal the roll card 6 (drought)`: the total and the event."""
        t = told.game.lookups(RollCardLookups)
        event = t.events[self.card]
        return f"reveal the roll card {t.totals[self.card]}" + (f" ({w.spoken(event)})" if event else "")


@dataclass(frozen=True)
class RollCardLookups:
    """The roll cards: the total and event of each kind, and how many the deck holds."""

    totals: tuple[int, ...]  # [card kind] the total it shows
    events: tuple[str, ...]  # [card kind] its event, "" for none
    counts: tuple[int, ...]  # [card kind] how many the deck holds
    unused: int  # cards laid under the New Year card

    @classmethod
    def build(cls, game: Game) -> RollCardLookups:
        rc = game.ruleset.roll_cards
        cards = rc.cards if rc is not None else ()
        return cls(tuple(c.total for c in cards), tuple(c.event for c in cards),
                   tuple(c.count for c in cards), rc.unused if rc is not None else 0)

    @property
    def per_year(self) -> int:
        """Cards revealed between two New Year cards."""
        return sum(self.counts) - self.unused


@action_source
def reveal_actions(game: Game) -> list[Action]:
    return [RevealCard(k) for k in range(len(game.lookups(RollCardLookups).counts))]


def start(game: Game) -> tuple[list[int], int]:
    """The deck before the first reveal: (cards per kind, cards to reveal this year)."""
    t = game.lookups(RollCardLookups)
    return list(t.counts), t.per_year


class CardSource:
    """The roll is the total of the card revealed; its event runs first (flow)."""

    answers: tuple[type[Action], ...] = (RevealCard,)

    def __init__(self, game: Game):
        self.ids = [game.action_id[RevealCard(k)] for k in range(len(game.lookups(RollCardLookups).counts))]

    def outcomes(self, s: State) -> list[tuple[int, float]]:
        t = s.game.lookups(RollCardLookups)
        deck = s.roll_deck if s.roll_year > 0 else t.counts  # the New Year card: all back in
        whole = sum(deck)
        return [(self.ids[k], n / whole) for k, n in enumerate(deck) if n]

    def reveal(self, s: State, act: Action) -> tuple[int, str, tuple[int, ...]]:
        assert isinstance(act, RevealCard)
        t = s.game.lookups(RollCardLookups)
        if s.roll_year <= 0:  # New Year: every card back, `unused` of them under the card again
            s.roll_deck, s.roll_year = list(t.counts), t.per_year
        s.roll_deck[act.card] -= 1
        s.roll_year -= 1
        return t.totals[act.card], t.events[act.card], ()  # a card shows a total, no dice
