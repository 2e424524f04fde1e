"""A forced exchange of resource cards: `exchange_cards(player, other, take, give)`
(Catan for Two's trade-token trade): the player draws `take` cards at random from the
other's hand (each draw a chance node, as a robbery's), then gives the other `give`
cards of their choice from the hand they held before the draws, one card per action.
If the other's hand runs out the draws stop; if the player's own cards run out the
giving stops."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from catandsl.rules.base import Action, Prompt, seats_ok
from catandsl.rules.choices import ChoiceIds, ChooseResource
from catandsl.rules.neutral import Robbing
from catandsl.rules.play import Game, State
from catandsl.rules.registry import FLOW, HANDS, effect


@effect("player: player, other: player, take: int 0..20, give: int 0..20", writes=(HANDS, FLOW))
def exchange_cards(s: State, player: int, other: int, take: int, give: int) -> None:
    """The player draws `take` resource cards at random from the other player's hand,
    then gives them `give` cards of their choice from the hand held before the draws."""
    if other == player:
        return
    if give > 0:
        s.push(Giving(player, other, give, list(s.hands[player])))
    for _ in range(take):
        s.push(Robbing(player, other))  # on top: the draws come first


@dataclass
class Giving(Prompt):
    """`player` gives `other` `count` more cards, one a time, of those in `before` (what
    is left to give of the hand held before the draws)."""

    KIND: ClassVar[str] = "give"
    player: int
    other: int
    count: int
    before: list[int]

    def check(self, game: Game) -> str:
        if not seats_ok(game, self.player, self.other) or len(self.before) != len(game.resources) \
                or min(self.before, default=0) < 0:
            return "not two players, a count and a hand"
        return super().check(game)

    def step(self, s: State) -> bool:
        if self.count > 0 and self.legal(s):
            return False
        s.pending.pop()
        return True

    def actor(self, s: State) -> int:
        return self.player

    def legal(self, s: State) -> list[int]:
        ids = s.game.lookups(ChoiceIds).resource
        hand = s.hands[self.player]
        return [ids[r] for r, n in enumerate(self.before) if n > 0 and hand[r] > 0]

    def apply(self, s: State, act: Action) -> None:
        assert isinstance(act, ChooseResource)
        r = s.game.res_index[act.resource]
        s.hands[self.player][r] -= 1
        s.hands[self.other][r] += 1
        self.before[r] -= 1
        self.count -= 1
        self.step(s)
