"""Bids: `choose_number(player, low, high)` is an open bid (the player names a number
everyone hears: a raise in an auction), and `sealed_bid(players, counter, low, high)`
a sealed one: each listed player in turn names a number that only they know until the
last has bid, then every bid is written to the bidder's counter at once, for the rule
to compare (`counter(p, bid)`). With `cards_of(player, RESOURCE)` as the top of the
range, a player bids only cards they hold."""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import ClassVar

from catandsl.rules import words as w
from catandsl.rules.base import Action, Prompt, action_source, rules_call, seats_ok
from catandsl.rules.play import Game, State
from catandsl.rules.registry import FLOW, choice, effect

MAX_BID = 100  # the numbers a bid may name: 0..MAX_BID, one action each


@dataclass(frozen=True, order=True)
class PickNumber(Action):
    """A number named for `choose_number` (an open bid)."""

    KIND: ClassVar[str] = "pick_number"
    HEADING: ClassVar[str] = "Name a number"
    WRITES: ClassVar[frozenset[str]] = frozenset((FLOW,))
    number: int

    def words(self, told: w.Told) -> str:
        return f"name {self.number}"


@dataclass(frozen=True, order=True)
class Bid(Action):
    """A sealed bid: the number is the bidder's secret until every listed player has bid."""

    KIND: ClassVar[str] = "bid"
    HEADING: ClassVar[str] = "Bid"
    WRITES: ClassVar[frozenset[str]] = frozenset((FLOW,))
    number: int

    def words(self, told: w.Told) -> str:
        """`bid 3`: the number only to the bidder; to the others, a sealed bid."""
        return f"bid {self.number}" if told.sees(told.actor) else "make a sealed bid"


@action_source
def bid_actions(game: Game) -> list[Action]:
    out: list[Action] = []
    if rules_call(game, "choose_number"):
        out += [PickNumber(n) for n in range(MAX_BID + 1)]
    if rules_call(game, "sealed_bid"):
        out += [Bid(n) for n in range(MAX_BID + 1)]
    return out


@choice("player: player, low: int 0..100, high: int 0..100", returns="int", answer=PickNumber)
def choose_number(s: State, player: int, low: int, high: int) -> list[int]:
    """The player names a number from `low` to `high`, heard by everyone (an open bid);
    with `high` below `low` there is nothing to name and the choice lapses with the rest
    of its block."""
    return list(range(low, high + 1))


@effect("players: list<player>, counter: counter, low: int 0..100, high: int 0..100", writes=FLOW)
def sealed_bid(s: State, players: list[int], counter: str, low: int, high: int) -> None:
    """Each listed player in turn (each once, in the order listed) names a number from
    `low` to `high` that the others do not learn; when the last has bid, every bid is
    written to its bidder's counter at once. With `high` below `low`, or nobody listed,
    nothing happens."""
    bidders = list(dict.fromkeys(players))
    if bidders and low <= high:
        s.push(Bidding(bidders, [], s.game.counter_index[counter], low, high))


@dataclass
class Bidding(Prompt):
    """`players` bid in turn, `bids` (the secret numbers so far) in the same order; when
    all have bid, each bid is written to counter `counter` of its bidder."""

    KIND: ClassVar[str] = "bidding"
    players: list[int]
    bids: list[int]
    counter: int
    low: int
    high: int

    def check(self, game: Game) -> str:
        if not (self.players and seats_ok(game, *self.players) and len(self.bids) < len(self.players)
                and 0 <= self.counter < len(game.counter_names)
                and 0 <= self.low <= self.high <= MAX_BID
                and all(self.low <= b <= self.high for b in self.bids)):
            return "not bidders, their bids so far, a counter and a range"
        return super().check(game)

    def actor(self, s: State) -> int:
        return self.players[len(self.bids)]

    def legal(self, s: State) -> list[int]:
        ids = s.game.action_id
        return [ids[Bid(n)] for n in range(self.low, self.high + 1)]

    def apply(self, s: State, act: Action) -> None:
        assert isinstance(act, Bid)
        self.bids.append(act.number)
        if len(self.bids) == len(self.players):
            s.pending.pop()
            shared = s.game.counter_shared[self.counter]
            for p, n in zip(self.players, self.bids):
                s.counters[0 if shared else p][self.counter] = n

    def seen_by(self, player: int) -> dict:
        out = self.to_json()
        # a bid is its bidder's secret until all are in
        out["bids"] = [b if p == player else None for p, b in zip(self.players, self.bids)]
        return out

    def hidden_from(self, seat: int, rng: random.Random) -> Bidding:
        """A copy in which the other bidders' bids are drawn from the range (what `seat`
        cannot tell them from): for a state resampled from what a seat observes."""
        bids = [b if p == seat else rng.randint(self.low, self.high) for p, b in zip(self.players, self.bids)]
        return Bidding(list(self.players), bids, self.counter, self.low, self.high)
