"""Uniformly random over the legal actions, from its own seeded RNG."""

from __future__ import annotations

import random


class RandomPlayer:
    def __init__(self, seed: int = 0):
        self.rng = random.Random(seed)

    def choose(self, state) -> int:
        actions = state.legal_actions()
        return actions[self.rng.randrange(len(actions))]
