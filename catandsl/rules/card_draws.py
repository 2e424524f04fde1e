"""Cards moved by rules rather than bought or played: `draw_card(deck)` is a random
value (the rule waits at a chance node whose outcomes are the kinds of card left in the
deck, each as likely as its count), `take_card(player, card)` hands one card of a kind
from its deck to a player, and `set_aside(player, card)` takes one the player holds out
of the game (beside the played cards `unplay` sets aside)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from catandsl.rules import words as w
from catandsl.rules.base import Action, action_source, rules_call
from catandsl.rules.cards import reshuffle
from catandsl.rules.play import Game, State
from catandsl.rules.registry import CARDS, effect, random_value


@dataclass(frozen=True, order=True)
class DrawnCard(Action):
    """Chance outcome: the kind of card a rule draws from a deck."""

    KIND: ClassVar[str] = "drawn_card"
    HEADING: ClassVar[str] = "Draw a card"
    WRITES: ClassVar[frozenset[str]] = frozenset((CARDS,))
    card: str

    def words(self, told: w.Told) -> str:
        """`draw a development card: Knight`; the card named only to everyone's reader (a rule
        hands it to whom it likes)."""
        deck = w.deck_card(w.card_deck(told.game, self.card))
        return f"draw {deck}: {w.title(self.card)}" if told.sees() else f"draw {deck}"


@action_source
def drawn_card_actions(game: Game) -> list[Action]:
    if not rules_call(game, "draw_card"):
        return []
    return [DrawnCard(c.name) for c in game.cards]


@random_value("deck: deck", returns="card", answer=DrawnCard)
def draw_card(s: State, deck: str) -> list[tuple[str, int]]:
    """A kind of card drawn at random from the deck, each kind as likely as the cards of
    it left there; the card stays in the deck (hand it over with `take_card`). An empty
    deck has nothing to draw: the rest of the block lapses."""
    g = s.game
    d = next(k for k, x in enumerate(g.decks) if x.name == deck)
    return [(c.name, s.deck[c.index]) for c in g.cards if c.deck == d and s.deck[c.index] > 0]


@effect("player: player, card: card", writes=CARDS)
def take_card(s: State, player: int, card: str) -> None:
    """One card of this kind leaves its deck for the player's hand (nothing when none is
    left). Given to the player whose turn it is, it counts as bought this turn (a deck
    that says `not the turn bought` keeps it until the next)."""
    c = s.game.card_index[card]
    if s.deck[c] > 0:
        s.deck[c] -= 1
        s.cards[player][c] += 1
        if player == s.turn_player and s.stage == "turn":
            s.new_cards[c] += 1
        reshuffle(s, s.game.cards[c].deck)


@effect("player: player, card: card", writes=CARDS)
def set_aside(s: State, player: int, card: str) -> None:
    """One card of this kind the player holds leaves the game for good (nothing when
    they hold none)."""
    c = s.game.card_index[card]
    if s.cards[player][c] > 0:
        s.cards[player][c] -= 1
        s.discarded[c] += 1
        if player == s.turn_player and s.new_cards[c] > s.cards[player][c]:
            s.new_cards[c] = s.cards[player][c]
        reshuffle(s, s.game.cards[c].deck)
