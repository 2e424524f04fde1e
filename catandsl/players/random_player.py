"""Random players, each from its own seeded RNG.

`UniformPlayer` picks uniformly among all legal actions: the hardest test that every
game ends (it opens offers, composes them, answers and counters them and moves pieces
back and forth as often as the rules let it). `RandomPlayer` opens a domestic offer
only with probability `offers` when it may (never by default), so its games are the
turn's other actions; it composes an offer in few steps (below), and answers offers,
accepting, declining or countering, uniformly.

Composing (its own offer, or a counter): while a side is empty it puts a random item
there; once the draft may be proposed it proposes with probability 1/2, else takes a
random step (an item more or less, a partner, withdrawing). So its offers are small,
each is done in a few steps, and a turn holds `offers / (1 - offers)` of them on
average: with `offers` below 1 every turn ends.
"""

from __future__ import annotations

import random
from bisect import bisect_left

from catandsl.players.base import NoLegalAction
from catandsl.rules.trade import GET, GIVE, Composing, Offering, TradeLookups


def below(rng: random.Random, n: int) -> int:
    """`rng.randrange(n)` (n > 0), the same number from the same generator, without its
    argument checks: CPython's own way, from `getrandbits`."""
    k = n.bit_length()
    r = rng.getrandbits(k)
    while r >= n:
        r = rng.getrandbits(k)
    return r


class RandomPlayer:
    """A bot that picks a legal action at random, opening an offer with probability `offers`."""

    def __init__(self, seed: int = 0, offers: float = 0.0):
        self.rng = random.Random(seed)
        self.offers = offers

    def choose(self, state) -> int:
        actions = state.legal_now()  # the state's own list: read, never copied
        if len(actions) < 2:  # one way on (the dice, as a rule): no draw from the generator
            if not actions:
                raise NoLegalAction()
            return actions[0]
        t = state.game.lookups(TradeLookups)
        new = t.new_offer
        if new >= 0:
            if state.pending and _composing(state.pending[-1]):
                return self._compose(actions, t, state.pending[-1])
            # the new offer is one id of the sorted list: pick it with probability
            # `offers`, else among the rest by index, without building their list
            k = bisect_left(actions, new)
            if k < len(actions) and actions[k] == new and len(actions) > 1:
                if not self.offers or self.rng.random() >= self.offers:
                    j = below(self.rng, len(actions) - 1)
                    return actions[j if j < k else j + 1]
                return new
        return actions[below(self.rng, len(actions))]

    def _compose(self, actions: list[int], t: TradeLookups, top) -> int:
        """A step of its own draft (see the module's doc)."""
        n = len(t.items)
        give, get = (top.give, top.get) if isinstance(top, Composing) else (top.draft[:n], top.draft[n:])
        for side, counts in ((GIVE, give), (GET, get)):
            if not any(counts):
                adds = [a for a in actions if a in t.add[side]]
                if adds:
                    return adds[below(self.rng, len(adds))]
                return t.withdraw
        if t.propose in actions and self.rng.random() < 0.5:
            return t.propose
        rest = [a for a in actions if a != t.propose]
        return rest[below(self.rng, len(rest))]


def _composing(top) -> bool:
    """Whether the decision is a step of a draft: an offer, or a counter to one."""
    return isinstance(top, Composing) or (isinstance(top, Offering) and bool(top.draft))


class UniformPlayer:
    """A bot that picks among all legal actions with equal chance."""

    def __init__(self, seed: int = 0):
        self.rng = random.Random(seed)

    def choose(self, state) -> int:
        actions = state.legal_now()
        if len(actions) < 2:
            if not actions:
                raise NoLegalAction()
            return actions[0]
        return actions[below(self.rng, len(actions))]
