"""Cards chosen from another player's hand: `take_from_hand(chooser, holder, count)`.
The chooser looks at the holder's resource cards and takes `count` of them, one card per
action, each a resource the holder still has; a holder with fewer gives all they hold.
Only the two of them learn which cards moved."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from catandsl.rules import words as w
from catandsl.rules.base import Action, Prompt, action_source, rules_call, seats_ok
from catandsl.rules.play import Game, State
from catandsl.rules.registry import FLOW, HANDS, effect


@dataclass(frozen=True, order=True)
class TakeFromHand(Action):
    """A resource card the chooser takes from the holder's hand (`take_from_hand`)."""

    KIND: ClassVar[str] = "take_from_hand"
    HEADING: ClassVar[str] = "Take from a hand"
    WRITES: ClassVar[frozenset[str]] = frozenset((HANDS,))
    resource: str

    def words(self, told: w.Told) -> str:
        """`take brick from P2's hand`: which card, only to the chooser and the holder."""
        holder = getattr(told.asked, "holder", -1)
        source = f" from {w.seat_words(told.game, holder)}'s hand" if holder >= 0 else ""
        what = w.spoken(self.resource) if told.sees(told.actor, holder) else "a card"
        return f"take {what}{source}"


@action_source
def take_from_hand_actions(game: Game) -> list[Action]:
    if not rules_call(game, "take_from_hand"):
        return []
    return [TakeFromHand(r) for r in game.resources]


@dataclass(frozen=True)
class TakeIds:
    """The action id of each resource's `take_from_hand`, by resource index."""

    by_resource: tuple[int, ...]

    @classmethod
    def build(cls, game: Game) -> TakeIds:
        return cls(tuple(game.action_id[TakeFromHand(r)] for r in game.resources))


@effect("chooser: player, holder: player, count: int 0..100", writes=(HANDS, FLOW))
def take_from_hand(s: State, chooser: int, holder: int, count: int) -> None:
    """The chooser looks at the holder's hand and takes `count` resource cards of their
    choice from it, one at a time (a holder with fewer gives all they hold; a chooser
    taking from their own hand takes nothing)."""
    if count and chooser != holder and sum(s.hands[holder]):
        s.push(TakingFromHand(chooser, holder, count))


@dataclass
class TakingFromHand(Prompt):
    """`chooser` takes `left` more cards of their choice from `holder`'s hand."""

    KIND: ClassVar[str] = "taking_from_hand"
    chooser: int
    holder: int
    left: int

    def check(self, game: Game) -> str:
        if not (seats_ok(game, self.chooser, self.holder) and self.left >= 0):
            return "not two players and a count"
        return super().check(game)

    def step(self, s: State) -> bool:
        if self.left and sum(s.hands[self.holder]):
            return False
        s.pending.pop()  # all taken, or the hand is empty
        return True

    def actor(self, s: State) -> int:
        return self.chooser

    def legal(self, s: State) -> list[int]:
        ids = s.game.lookups(TakeIds).by_resource
        return [ids[r] for r, n in enumerate(s.hands[self.holder]) if n > 0]

    def apply(self, s: State, act: Action) -> None:
        assert isinstance(act, TakeFromHand)
        r = s.game.res_index[act.resource]
        s.hands[self.holder][r] -= 1
        s.hands[self.chooser][r] += 1
        self.left -= 1
        self.step(s)
