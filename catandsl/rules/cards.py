"""Decks and cards (A.9): buying (`buy`, the card drawn by chance), playing (`play`, at
most the deck's number per turn, not a card bought this turn when the deck says so),
and counting the cards a player has played (`played`, what Largest Army measures)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from catandsl.rules import costs
from catandsl.rules import words as w
from catandsl.rules.base import Action, Activity, IllegalAction, Prompt, action_source, activity, seats_ok
from catandsl.rules.placement import pay
from catandsl.rules.play import NO_ANSWERS, Game, State
from catandsl.rules.registry import CARDS, FLOW, HANDS, effect, query


@dataclass(frozen=True, order=True)
class BuyCard(Action):
    """Buy a card from the top of a deck."""

    KIND: ClassVar[str] = "buy_card"
    HEADING: ClassVar[str] = "Buy"
    WRITES: ClassVar[frozenset[str]] = frozenset((HANDS, FLOW))
    deck: str

    def words(self, told: w.Told) -> str:
        return f"buy {w.deck_card(self.deck)}"


@dataclass(frozen=True, order=True)
class Draw(Action):
    """Chance outcome: the card drawn from a deck."""

    KIND: ClassVar[str] = "draw"
    HEADING: ClassVar[str] = "Draw a card"
    WRITES: ClassVar[frozenset[str]] = frozenset((CARDS,))
    deck: str
    card: str

    def words(self, told: w.Told) -> str:
        """`draw a development card: Knight`: which card, only to the player drawing it."""
        drawer = getattr(told.asked, "player", told.actor)
        seen = f": {w.title(self.card)}" if told.sees(drawer) else ""
        return f"draw {w.deck_card(self.deck)}{seen}"


@dataclass(frozen=True, order=True)
class PlayCard(Action):
    """Play a card from the hand."""

    KIND: ClassVar[str] = "play_card"
    HEADING: ClassVar[str] = "Play a card"
    WRITES: ClassVar[frozenset[str]] = frozenset((CARDS,))
    card: str

    def words(self, told: w.Told) -> str:
        return f"play {w.title(self.card)}"


@action_source
def card_actions(game: Game) -> list[Action]:
    out: list[Action] = [BuyCard(d.name) for d in game.decks]
    for c in game.cards:
        out.append(Draw(game.decks[c.deck].name, c.name))
        if c.playable:
            out.append(PlayCard(c.name))
    return out


@dataclass(frozen=True)
class CardIds:
    """The card actions' ids, by deck and by card."""

    buy: tuple[int, ...]  # by deck
    draw: tuple[int, ...]  # by card
    play: tuple[int, ...]  # by card, -1 for a card that is never played
    deck_cards: tuple[tuple[int, ...], ...]  # by deck, its cards
    # by deck: its cost as (resource, count) pairs, the resources it needs only
    deck_needs: tuple[tuple[tuple[int, int], ...], ...]
    playable: tuple[int, ...]  # the cards some rule plays

    @classmethod
    def build(cls, game: Game) -> CardIds:
        ids = game.action_id
        return cls(tuple(ids[BuyCard(d.name)] for d in game.decks),
                   tuple(ids[Draw(game.decks[c.deck].name, c.name)] for c in game.cards),
                   tuple(ids.get(PlayCard(c.name), -1) for c in game.cards),
                   tuple(tuple(c.index for c in game.cards if c.deck == d) for d in range(len(game.decks))),
                   tuple(tuple((r, n) for r, n in enumerate(cost) if n) for cost in game.deck_cost),
                   tuple(c.index for c in game.cards if c.playable))


def deck_left(s: State, d: int) -> bool:
    """Whether deck d has a card left."""
    return any(map(s.deck.__getitem__, s.game.lookups(CardIds).deck_cards[d]))


def reshuffle(s: State, d: int) -> None:
    """A deck that says `reshuffle` and has run out takes back its discards: the cards
    played from it (so `played` counts the plays since) and the cards set aside. The
    draws are by count, so putting them back is shuffling them."""
    g = s.game
    if not g.decks[d].reshuffle or deck_left(s, d):
        return
    for c in g.lookups(CardIds).deck_cards[d]:
        back = s.discarded[c]
        for row in s.played:
            back += row[c]
            row[c] = 0
        s.discarded[c] = 0
        s.deck[c] += back


@query("player: player, cards: list<card>", returns="int", reads=CARDS)
def played(s: State, player: int, cards: list[str]) -> int:
    """How many cards of these kinds the player has played (Largest Army: knights)."""
    index = s.game.card_index
    return sum(s.played[player][index[c]] for c in cards)


@effect("player: player, card: card", writes=CARDS)
def unplay(s: State, player: int, card: str) -> None:
    """One of the player's played cards of this kind is set aside for good (discarded
    for a reward); awards that count played cards are measured again. Nothing happens
    if the player has played none."""
    c = s.game.card_index[card]
    if s.played[player][c] > 0:
        s.played[player][c] -= 1
        s.discarded[c] += 1
        reshuffle(s, s.game.cards[c].deck)


# ---- buying ------------------------------------------------------------------------------


def _legal_buys(s: State, p: int, names: frozenset[str] | None) -> list[int]:
    g = s.game
    hand = s.hands[p]
    t = g.lookups(CardIds)
    left = s.deck
    out = []
    for d, deck in enumerate(g.decks):
        if names is not None and deck.name not in names:
            continue
        needs = t.deck_needs[d] if not deck.varying_cost else \
            tuple((r, n) for r, n in enumerate(costs.cost_of(s, p, "deck", d).cards) if n)
        for r, n in needs:
            if hand[r] < n:
                break
        else:
            if any(map(left.__getitem__, t.deck_cards[d])):
                out.append(t.buy[d])
    return out


def _apply_buy(s: State, p: int, act: BuyCard) -> None:
    d = s.game.deck_index[act.deck]
    pay(s, p, costs.cost_of(s, p, "deck", d).cards)
    s.push(Drawing(p, d))


def _refused_buy(s: State, p: int, act: Action) -> IllegalAction:
    text = s.game.action_to_string(s.game.action_id[act])
    assert isinstance(act, BuyCard)
    if not deck_left(s, s.game.deck_index[act.deck]):
        return IllegalAction("action/deck_empty", f"{text}: the deck is empty")
    return IllegalAction("action/cannot_afford", f"{text}: cannot afford it")


BUY = activity(Activity(
    "buy", "buy a card from a deck at its cost (drawn by chance)", _legal_buys, {BuyCard: _apply_buy},
    names="deck", subject=lambda game, act: act.deck, refusal=_refused_buy))


@dataclass
class Drawing(Prompt):
    """Chance: the card `player` draws from deck `deck`, in proportion to the cards left."""

    KIND: ClassVar[str] = "draw"
    chance: ClassVar[bool] = True
    player: int
    deck: int

    def check(self, game: Game) -> str:
        if not seats_ok(game, self.player) or not 0 <= self.deck < len(game.decks):
            return "not a player and a deck"
        return super().check(game)

    def step(self, s: State) -> bool:
        if deck_left(s, self.deck):
            return False
        s.pending.pop()  # a rule emptied the deck first: nothing to draw
        return True

    def outcomes(self, s: State) -> list[tuple[int, float]]:
        g = s.game
        cards = [c for c in g.cards if c.deck == self.deck and s.deck[c.index]]
        total = sum(s.deck[c.index] for c in cards)
        ids = g.lookups(CardIds).draw
        return sorted((ids[c.index], s.deck[c.index] / total) for c in cards)

    def apply(self, s: State, act: Action) -> None:
        assert isinstance(act, Draw)
        s.pending.pop()
        c = s.game.card_index[act.card]
        s.deck[c] -= 1
        s.cards[self.player][c] += 1
        s.new_cards[c] += 1
        s.chance_count += 1
        reshuffle(s, self.deck)
        s.emit("card_bought", {"player": self.player, "card": act.card})


# ---- playing --------------------------------------------------------------------------------


def playable(s: State, p: int, names: frozenset[str] | None = None) -> list[int]:
    """The cards player p may play now (card indexes), of the decks in `names` (None: all)."""
    g = s.game
    out: list[int] = []
    held = s.cards[p]
    for k in g.lookups(CardIds).playable:
        if not held[k]:
            continue
        if names is not None and g.decks[g.cards[k].deck].name not in names:
            continue
        if not unplayable(s, p, k):
            out.append(k)
    return out


def unplayable(s: State, p: int, k: int) -> str:
    """Why player p may not play card k now ("" if they may): none held, the deck's
    plays of the turn used, bought this turn, its `playable where` false, or its rule
    could do nothing (`Interpreter.unable`: a `build_free` with nowhere to build)."""
    g = s.game
    c = g.cards[k]
    d = g.decks[c.deck]
    held = s.cards[p][k]
    if not held:
        return f"player {p} holds no {c.name}"
    if s.played_turn[c.deck] >= d.play_per_turn:
        return f"{d.play_per_turn} {d.name} card(s) played this turn already"
    if held - (s.new_cards[k] if d.not_turn_bought else 0) <= 0:
        return "bought this turn"
    if c.condition is not None and not g.interp.program(c.condition, c.source).run({"player": p}, s, NO_ANSWERS):
        return "its `playable where` does not hold"
    return g.interp.unable("card_played", c.name, {"player": p, "card": c.name}, s)


def _legal_plays(s: State, p: int, names: frozenset[str] | None) -> list[int]:
    if not any(s.cards[p]):
        return []  # (most of the time)
    ids = s.game.lookups(CardIds).play
    return [ids[c] for c in playable(s, p, names)]


def _asks_plays(s: State, p: int, names: frozenset[str] | None) -> bool:
    """Whether player p holds a card of a deck in `names` with a play of the turn left:
    what the others see (how many cards a player holds, not which, nor when bought),
    so a player with only unplayable cards is asked as one with a playable card is."""
    held = s.cards[p]
    if not any(held):
        return False
    g = s.game
    t = g.lookups(CardIds)
    for d, deck in enumerate(g.decks):
        if (names is None or deck.name in names) and s.played_turn[d] < deck.play_per_turn \
                and any(map(held.__getitem__, t.deck_cards[d])):
            return True
    return False


def _apply_play(s: State, p: int, act: PlayCard) -> None:
    g = s.game
    c = g.card_index[act.card]
    s.cards[p][c] -= 1
    s.played[p][c] += 1
    s.played_turn[g.cards[c].deck] += 1
    reshuffle(s, g.cards[c].deck)
    s.emit("card_played", {"player": p, "card": act.card})


def _refused_play(s: State, p: int, act: Action) -> IllegalAction | None:
    if not isinstance(act, PlayCard):
        return None
    text = s.game.action_to_string(s.game.action_id[act])
    return IllegalAction("action/not_legal", f"{text}: {unplayable(s, p, s.game.card_index[act.card]) or 'not now'}")


PLAY = activity(Activity(
    "play", "play a card (at most the deck's number per turn)", _legal_plays, {PlayCard: _apply_play},
    names="deck", subject=lambda game, act: game.decks[game.cards[game.card_index[act.card]].deck].name,
    refusal=_refused_play, asks=_asks_plays))
