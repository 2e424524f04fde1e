"""Random players, each from its own seeded RNG.

`UniformPlayer` picks uniformly among all legal actions: the hardest test that every
game ends (it proposes trades, answers them and moves pieces back and forth as often
as the rules let it). Domestic offers are most of the actions a full hand allows, so
it spends many of its decisions proposing; `RandomPlayer` therefore never proposes by
default (it still answers offers, uniformly); with `offers=x` it proposes, when it may,
with probability x.
"""

from __future__ import annotations

import random
from bisect import bisect_left

from catandsl.players.base import NoLegalAction
from catandsl.rules.trade import TradeTables


def below(rng: random.Random, n: int) -> int:
    """`rng.randrange(n)` (n > 0), the same number from the same generator, without its
    argument checks: CPython's own way, from `getrandbits`."""
    k = n.bit_length()
    r = rng.getrandbits(k)
    while r >= n:
        r = rng.getrandbits(k)
    return r


class RandomPlayer:
    def __init__(self, seed: int = 0, offers: float = 0.0):
        self.rng = random.Random(seed)
        self.offers = offers

    def choose(self, state) -> int:
        actions = state.legal_now()  # the state's own list: read, never copied
        if not actions:
            raise NoLegalAction()
        ids = state.game.table(TradeTables).offer_ids
        if ids:
            # the offers are one run of the sorted list: pick among the rest (or among
            # them) by index, without building either list
            lo, hi = bisect_left(actions, ids.start), bisect_left(actions, ids.stop)
            if lo < hi:
                if not self.offers or self.rng.random() >= self.offers:
                    k = below(self.rng, len(actions) - (hi - lo))
                    return actions[k if k < lo else k + hi - lo]
                return actions[lo + below(self.rng, hi - lo)]
        return actions[below(self.rng, len(actions))]


class UniformPlayer:
    def __init__(self, seed: int = 0):
        self.rng = random.Random(seed)

    def choose(self, state) -> int:
        actions = state.legal_now()
        if not actions:
            raise NoLegalAction()
        return actions[below(self.rng, len(actions))]
