"""Choices among cards and tokens inside a rule: `choose_card(player, cards)` (one of the
listed kinds of development card: a card from a face-up display, a reward of the
player's choice), `choose_token(player, tokens)` (one of the listed kinds of token) and
`choose_resource_among(player, resources)` (one of the listed resources: "wool or ore").
As every choice, the rule waits for the answer and runs on with the value; with nothing
listed the choice lapses with the rest of its block."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from catandsl.rules import words as w
from catandsl.rules.base import Action, action_source, rules_call
from catandsl.rules.choices import ChooseResource
from catandsl.rules.play import Game, State
from catandsl.rules.registry import FLOW, choice


@dataclass(frozen=True, order=True)
class PickCard(Action):
    """A kind of card picked for `choose_card`."""

    KIND: ClassVar[str] = "pick_card"
    HEADING: ClassVar[str] = "Choose a card"
    WRITES: ClassVar[frozenset[str]] = frozenset((FLOW,))
    card: str

    def words(self, told: w.Told) -> str:
        return f"choose {w.a(w.spoken(self.card))} card"


@dataclass(frozen=True, order=True)
class PickToken(Action):
    """A kind of token picked for `choose_token`."""

    KIND: ClassVar[str] = "pick_token"
    HEADING: ClassVar[str] = "Choose a token"
    WRITES: ClassVar[frozenset[str]] = frozenset((FLOW,))
    token: str

    def words(self, told: w.Told) -> str:
        return f"choose {w.a(w.spoken(self.token))} token"


@action_source
def pick_actions(game: Game) -> list[Action]:
    out: list[Action] = []
    if rules_call(game, "choose_card"):  # (other games number none)
        out += [PickCard(c.name) for c in game.cards]
    if rules_call(game, "choose_token"):
        out += [PickToken(t) for t in game.token_names]
    return out


def _once(items: list[str]) -> list[str]:
    """The items in the order listed, each once (a list may name a kind twice)."""
    return list(dict.fromkeys(items))


@choice("player: player, cards: list<card>", returns="card", answer=PickCard)
def choose_card(s: State, player: int, cards: list[str]) -> list[str]:
    """The player picks one of the listed kinds of card (hand it over with
    `take_card(player, c)`); with none listed the choice lapses with the rest of its
    block."""
    return _once(cards)


@choice("player: player, tokens: list<token>", returns="token", answer=PickToken)
def choose_token(s: State, player: int, tokens: list[str]) -> list[str]:
    """The player picks one of the listed kinds of token (`give_tokens(player, t, 1)`);
    with none listed the choice lapses with the rest of its block."""
    return _once(tokens)


@choice("player: player, resources: list<resource>", returns="resource", answer=ChooseResource)
def choose_resource_among(s: State, player: int, resources: list[str]) -> list[str]:
    """The player picks one of the listed resources ("one of wool, grain or ore"), each
    offered once, whatever the bank holds; with none listed the choice lapses with the
    rest of its block."""
    return _once(resources)
