"""Cards moved from a deck into a separate stack beside it: `stack_cards(deck, count)`
deals `count` cards at random from the deck onto its stack, face down (a chance node per
card; nobody learns which), `stack_size(deck)` counts the stack, `draw_from_stack(deck)`
is a random value (a kind of card from the stack, each as likely as its cards there) and
`take_from_stack(player, card)` hands one card of that kind from the stack to a player.
The state keeps the stacked cards by kind (`stacked`); they are hidden as the deck is."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from catandsl.rules import words as w
from catandsl.rules.base import Action, Prompt, action_source, rules_call
from catandsl.rules.cards import CardIds, reshuffle
from catandsl.rules.play import Game, State
from catandsl.rules.registry import CARDS, FLOW, effect, query, random_value


@dataclass(frozen=True, order=True)
class Stacked(Action):
    """Chance outcome: the card `stack_cards` deals from a deck onto its stack, face down."""

    KIND: ClassVar[str] = "stacked"
    HEADING: ClassVar[str] = "Stack a card"
    WRITES: ClassVar[frozenset[str]] = frozenset((CARDS,))
    card: str

    def words(self, told: w.Told) -> str:
        """`stack a development card`: which, only to everyone's reader (it lies face down)."""
        deck = w.deck_card(w.card_deck(told.game, self.card))
        return f"stack {deck}: {w.title(self.card)}" if told.sees() else f"stack {deck}"


@dataclass(frozen=True, order=True)
class DrawnFromStack(Action):
    """Chance outcome: the kind of card `draw_from_stack` draws from a deck's stack."""

    KIND: ClassVar[str] = "drawn_from_stack"
    HEADING: ClassVar[str] = "Draw from a stack"
    WRITES: ClassVar[frozenset[str]] = frozenset((CARDS,))
    card: str

    def words(self, told: w.Told) -> str:
        deck = w.deck_card(w.card_deck(told.game, self.card))
        return f"draw {deck} from its stack: {w.title(self.card)}" if told.sees() else f"draw {deck} from its stack"


@action_source
def stack_actions(game: Game) -> list[Action]:
    out: list[Action] = []
    if rules_call(game, "stack_cards"):
        out += [Stacked(c.name) for c in game.cards]
    if rules_call(game, "draw_from_stack"):
        out += [DrawnFromStack(c.name) for c in game.cards]
    return out


def _deck(s: State, deck: str) -> int:
    return s.game.deck_index[deck]


@effect("deck: deck, count: int 0..100", writes=(CARDS, FLOW))
def stack_cards(s: State, deck: str, count: int) -> None:
    """`count` cards dealt at random from the deck onto its stack, face down (fewer if the
    deck runs short)."""
    d = _deck(s, deck)
    if count and any(s.deck[c] for c in s.game.lookups(CardIds).deck_cards[d]):
        s.push(Stacking(d, count))


@query("deck: deck", returns="int", reads=CARDS)
def stack_size(s: State, deck: str) -> int:
    """How many cards lie on the deck's stack."""
    return sum(s.stacked[c] for c in s.game.lookups(CardIds).deck_cards[_deck(s, deck)])


@random_value("deck: deck", returns="card", answer=DrawnFromStack)
def draw_from_stack(s: State, deck: str) -> list[tuple[str, int]]:
    """A kind of card drawn at random from the deck's stack, each kind as likely as its
    cards there; the card stays on the stack (hand it over with `take_from_stack`). An
    empty stack has nothing to draw: the rest of the block lapses."""
    g = s.game
    return [(g.cards[c].name, s.stacked[c]) for c in g.lookups(CardIds).deck_cards[_deck(s, deck)] if s.stacked[c]]


@effect("player: player, card: card", writes=CARDS)
def take_from_stack(s: State, player: int, card: str) -> None:
    """One card of this kind leaves its deck's stack for the player's hand (nothing when
    none lies there); given on the player's own turn it counts as bought this turn."""
    c = s.game.card_index[card]
    if s.stacked[c] > 0:
        s.stacked[c] -= 1
        s.cards[player][c] += 1
        if player == s.turn_player and s.stage == "turn":
            s.new_cards[c] += 1


@dataclass(frozen=True)
class StackIds:
    """The action id of each card's `stacked` outcome, by card index."""

    by_card: tuple[int, ...]

    @classmethod
    def build(cls, game: Game) -> StackIds:
        return cls(tuple(game.action_id[Stacked(c.name)] for c in game.cards))


@dataclass
class Stacking(Prompt):
    """Chance: `left` more cards go from deck `deck` onto its stack, each drawn at random."""

    KIND: ClassVar[str] = "stacking"
    chance: ClassVar[bool] = True
    deck: int
    left: int

    def check(self, game: Game) -> str:
        if not (0 <= self.deck < len(game.decks) and self.left >= 0):
            return "not a deck and a count"
        return super().check(game)

    def step(self, s: State) -> bool:
        if self.left and any(s.deck[c] for c in s.game.lookups(CardIds).deck_cards[self.deck]):
            return False
        s.pending.pop()  # all stacked, or the deck is empty
        return True

    def outcomes(self, s: State) -> list[tuple[int, float]]:
        cards = [c for c in s.game.lookups(CardIds).deck_cards[self.deck] if s.deck[c]]
        total = sum(s.deck[c] for c in cards)
        ids = s.game.lookups(StackIds).by_card
        return sorted((ids[c], s.deck[c] / total) for c in cards)

    def apply(self, s: State, act: Action) -> None:
        assert isinstance(act, Stacked)
        c = s.game.card_index[act.card]
        s.deck[c] -= 1
        s.stacked[c] += 1
        s.chance_count += 1
        self.left -= 1
        reshuffle(s, self.deck)
        self.step(s)
