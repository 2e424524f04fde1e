"""Uniformly random over the legal actions, from its own seeded RNG.

Domestic offers are most of the actions a full hand allows, so a uniform player would
spend its turns proposing; by default this one never proposes (it still answers offers,
uniformly). With `offers=x` it proposes, when it may, with probability x.
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
