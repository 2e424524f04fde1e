"""Decisions inside a rule: `choose_resource` and `choose_player`. A rule that reaches a
choice waits (engine/flow.py: the statement's frame records what it waits for) until
the player answers with the action named here; the rule then runs on with the value."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

from catandsl.rules.base import Action, action_source
from catandsl.rules.registry import FLOW, HANDS, choice

if TYPE_CHECKING:
    from catandsl.engine.game import Game
    from catandsl.engine.state import State


@dataclass(frozen=True, order=True)
class ChooseResource(Action):
    KIND: ClassVar[str] = "choose_resource"
    WRITES: ClassVar[frozenset[str]] = frozenset((HANDS,))  # a gold choice takes from the bank
    resource: str


@dataclass(frozen=True, order=True)
class ChoosePlayer(Action):
    KIND: ClassVar[str] = "choose_player"
    WRITES: ClassVar[frozenset[str]] = frozenset((FLOW,))
    player: int


@action_source
def choice_actions(game: Game) -> list[Action]:
    return [ChooseResource(r) for r in game.resources] + [ChoosePlayer(p) for p in range(game.num_players)]


@dataclass(frozen=True)
class ChoiceIds:
    resource: tuple[int, ...]  # by resource index
    player: tuple[int, ...]  # by seat

    @classmethod
    def build(cls, game: Game) -> ChoiceIds:
        ids = game.action_id
        return cls(tuple(ids[ChooseResource(r)] for r in game.resources),
                   tuple(ids[ChoosePlayer(p)] for p in range(game.num_players)))


@choice("player: player", returns="resource", answer=ChooseResource)
def choose_resource(s: State, player: int) -> list[str]:
    """The player picks one resource."""
    return list(s.game.resources)


@choice("player: player, among: list<player>", returns="player", answer=ChoosePlayer)
def choose_player(s: State, player: int, among: list[int]) -> list[int]:
    """The player picks one of the listed players (with nobody listed, the rule stops
    with an error naming its line)."""
    return sorted({int(p) for p in among if 0 <= int(p) < s.game.num_players})
