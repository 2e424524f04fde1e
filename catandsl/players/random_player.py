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

from catandsl.rules.trade import TradeTables


class RandomPlayer:
    def __init__(self, seed: int = 0, offers: float = 0.0):
        self.rng = random.Random(seed)
        self.offers = offers

    def choose(self, state) -> int:
        actions = state.legal_actions()
        ids = state.game.table(TradeTables).offer_ids
        if ids:
            lo, hi = bisect_left(actions, ids.start), bisect_left(actions, ids.stop)
            if lo < hi:
                rest = actions[:lo] + actions[hi:]
                if not self.offers or self.rng.random() >= self.offers:
                    actions = rest
                else:
                    actions = actions[lo:hi]
        return actions[self.rng.randrange(len(actions))]


class UniformPlayer:
    def __init__(self, seed: int = 0):
        self.rng = random.Random(seed)

    def choose(self, state) -> int:
        actions = state.legal_actions()
        return actions[self.rng.randrange(len(actions))]
