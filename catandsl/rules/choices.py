"""Decisions inside a rule: `choose_resource`, `choose_from_bank` and `choose_player`. A
rule that reaches a choice waits (engine/flow.py: the statement's frame records what it
waits for) until the player answers with the action named here; the rule then runs on
with the value. A choice with nothing to choose from (nobody to pick, an empty bank)
lapses, and with it the rest of the block it stands in (a later statement may need its
value): a rulebook's "if you cannot, nothing happens"."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from catandsl.rules import words as w
from catandsl.rules.base import Action, action_source, rules_call
from catandsl.rules.play import Game, State
from catandsl.rules.registry import FLOW, HANDS, TOKENS, choice


@dataclass(frozen=True, order=True)
class ChooseResource(Action):
    """Answer a prompt with a resource."""

    KIND: ClassVar[str] = "choose_resource"
    HEADING: ClassVar[str] = "Choose a resource"
    WRITES: ClassVar[frozenset[str]] = frozenset((HANDS,))  # a gold choice takes from the bank
    resource: str

    def words(self, told: w.Told) -> str:
        return f"choose {w.spoken(self.resource)}"


@dataclass(frozen=True, order=True)
class ChooseToken(Action):
    """A token of this kind picked where a rule lets a player give one in place of a
    card (`give_one`, `pass_left_with`)."""

    KIND: ClassVar[str] = "choose_token"
    HEADING: ClassVar[str] = "Give a token"
    WRITES: ClassVar[frozenset[str]] = frozenset((HANDS, TOKENS))
    token: str

    def words(self, told: w.Told) -> str:
        return f"give {w.a(w.spoken(self.token))} token"


@dataclass(frozen=True, order=True)
class ChoosePlayer(Action):
    """Answer a prompt with a seat."""

    KIND: ClassVar[str] = "choose_player"
    HEADING: ClassVar[str] = "Choose a player"
    WRITES: ClassVar[frozenset[str]] = frozenset((FLOW,))
    player: int

    def words(self, told: w.Told) -> str:
        return f"choose {w.seat_words(told.game, self.player)}"


@action_source
def choice_actions(game: Game) -> list[Action]:
    out: list[Action] = [ChooseResource(r) for r in game.resources]
    out += [ChoosePlayer(p) for p in range(game.num_players)]
    if rules_call(game, "give_one") or rules_call(game, "pass_left_with"):  # (other games number none)
        out += [ChooseToken(t) for t in game.token_names]
    return out


@dataclass(frozen=True)
class ChoiceIds:
    """The choice actions' ids, by resource, seat and token."""

    resource: tuple[int, ...]  # by resource index
    player: tuple[int, ...]  # by seat
    token: tuple[int, ...]  # by token index (-1: the game numbers no token choice)

    @classmethod
    def build(cls, game: Game) -> ChoiceIds:
        ids = game.action_id
        return cls(tuple(ids[ChooseResource(r)] for r in game.resources),
                   tuple(ids[ChoosePlayer(p)] for p in range(game.num_players)),
                   tuple(ids.get(ChooseToken(t), -1) for t in game.token_names))


@choice("player: player", returns="resource", answer=ChooseResource)
def choose_resource(s: State, player: int) -> list[str]:
    """The player picks one resource."""
    return list(s.game.resources)


@choice("player: player", returns="resource", answer=ChooseResource)
def choose_from_bank(s: State, player: int) -> list[str]:
    """The player picks one resource the bank still holds (Year of Plenty); with the
    bank empty there is nothing to pick: the choice lapses with the rest of its block."""
    return [r for r, left in zip(s.game.resources, s.bank) if left > 0]


@choice("player: player, among: list<player>", returns="player", answer=ChoosePlayer)
def choose_player(s: State, player: int, among: list[int]) -> list[int]:
    """The player picks one of the listed players (with nobody listed, the choice lapses
    with the rest of its block)."""
    return sorted({int(p) for p in among if 0 <= int(p) < s.game.num_players})
