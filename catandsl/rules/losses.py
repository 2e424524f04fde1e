"""Cards lost by a rule: `discard_random(player, count)` (cards drawn from the hand by
chance, as a storm or a thief in the night takes them) and `pay_to_bank(player, count)`
(cards of the player's choice, a fine). Both go to the bank; a player holding fewer loses
all they hold."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from catandsl.rules import words as w
from catandsl.rules.base import Action, Prompt, action_source, rules_call, seats_ok
from catandsl.rules.hands import Discarding
from catandsl.rules.play import Game, State
from catandsl.rules.registry import FLOW, HANDS, effect


@dataclass(frozen=True, order=True)
class Lost(Action):
    """Chance outcome: the card `discard_random` draws from the hand for the bank."""

    KIND: ClassVar[str] = "lost"
    HEADING: ClassVar[str] = "Lose a card"
    WRITES: ClassVar[frozenset[str]] = frozenset((HANDS,))
    resource: str

    def words(self, told: w.Told) -> str:
        """`lose a brick`: the card goes to the bank face up, so everybody sees it."""
        return f"lose {w.amount(1, self.resource)}"


@action_source
def loss_actions(game: Game) -> list[Action]:
    if not rules_call(game, "discard_random"):
        return []
    return [Lost(r) for r in game.resources]


@dataclass(frozen=True)
class LostIds:
    """The action id of each resource's `lost` outcome, by resource index."""

    by_resource: tuple[int, ...]

    @classmethod
    def build(cls, game: Game) -> LostIds:
        return cls(tuple(game.action_id[Lost(r)] for r in game.resources))


@effect("player: player, count: int 0..100", writes=(HANDS, FLOW))
def discard_random(s: State, player: int, count: int) -> None:
    """The player loses `count` resource cards drawn at random from their hand (each card
    as likely as any other, a chance node per card) to the bank; a player holding fewer
    loses all they hold."""
    if count and sum(s.hands[player]):
        s.push(Losing(player, count))


@effect("player: player, count: int 0..100", writes=(HANDS, FLOW))
def pay_to_bank(s: State, player: int, count: int) -> None:
    """The player pays `count` resource cards of their choice to the bank, one at a time
    (a fine); a player holding fewer pays all they hold."""
    owed = min(count, sum(s.hands[player]))
    if owed:
        s.push(Discarding([[player, owed]]))


@dataclass
class Losing(Prompt):
    """Chance: `player` loses `left` more cards, each drawn from the hand at random."""

    KIND: ClassVar[str] = "losing"
    chance: ClassVar[bool] = True
    player: int
    left: int

    def check(self, game: Game) -> str:
        return "" if seats_ok(game, self.player) and self.left >= 0 else "not a player and a count"

    def step(self, s: State) -> bool:
        if self.left and sum(s.hands[self.player]):
            return False
        s.pending.pop()  # all lost, or the hand is empty
        return True

    def outcomes(self, s: State) -> list[tuple[int, float]]:
        hand = s.hands[self.player]
        total = sum(hand)
        ids = s.game.lookups(LostIds).by_resource
        return [(ids[r], n / total) for r, n in enumerate(hand) if n]

    def apply(self, s: State, act: Action) -> None:
        assert isinstance(act, Lost)
        r = s.game.res_index[act.resource]
        s.hands[self.player][r] -= 1
        s.bank[r] += 1
        s.chance_count += 1
        self.left -= 1
        self.step(s)
