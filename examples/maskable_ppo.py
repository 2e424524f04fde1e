"""MaskablePPO (sb3-contrib) on the Gymnasium environment, for those who have torch:

    pip install 'catandsl[rl]' sb3-contrib       # brings stable-baselines3 and torch
    python examples/maskable_ppo.py [STEPS] [GAMES]

It trains on the seven-hex island (seat 0 of 2, against the random bot) with the
feature observation, masks from `action_masks()` (which MaskablePPO reads itself),
then counts the games it wins against the random bot beside those a uniformly random
player wins in its seat. Not run in CI (no deep-learning framework there):
examples/numpy_policy.py is the example the tests run.

The game's own reward comes only at its end (+1 or -1), hundreds of the learner's
decisions after the start; untouched, MaskablePPO won 1 game of 40 after 50,000 steps
(a random player in its seat: 16). So each step is also credited with the victory
points it gained (`Shaped`, read from the named feature `player[me].points`): after
200,000 steps it won 37 of 40, playing its most likely action. Unlike
examples/numpy_policy.py, nothing is credited for cards gained: with that credit
(0.3 a card) PPO learned to hoard, ending its turns unbuilt and discarding on sevens
(after 200,000 steps it won none of 20). As there, the learner never opens a domestic
offer: composing one is a run of steps that gains nothing.
"""

from __future__ import annotations

import sys
from pathlib import Path

import gymnasium
import numpy as np
from sb3_contrib import MaskablePPO

from catandsl.adapters.gymnasium import CatanEnv

sys.path.insert(0, str(Path(__file__).resolve().parent))
from numpy_policy import TINY, match, offer_opener, without_offers  # noqa: E402  (the same games, the same count)


class Shaped(gymnasium.Wrapper):
    """The environment with a step's victory points added to its reward, and no domestic
    offer opened."""

    def __init__(self, env: CatanEnv):
        super().__init__(env)
        self.points = env.observer.names.index("player[me].points")
        self.opens_offer = offer_opener(env.game)
        self.last = 0.0

    def reset(self, **kwargs):
        obs, info = self.env.reset(**kwargs)
        self.last = float(obs[self.points])
        return obs, info

    def step(self, action):
        obs, reward, terminated, truncated, info = self.env.step(action)
        points = float(obs[self.points])
        gain, self.last = points - self.last, points
        return obs, float(reward) + gain, terminated, truncated, info

    def action_masks(self) -> np.ndarray:
        return without_offers(self.env.action_masks(), self.opens_offer)


def train(steps: int, seed: int = 0) -> tuple[MaskablePPO, int]:
    env = Shaped(CatanEnv(TINY, players=2, seed=seed, observation="features"))
    model = MaskablePPO("MlpPolicy", env, n_steps=1024, batch_size=256, gamma=0.995, seed=seed, verbose=0)
    model.learn(steps)
    return model, env.opens_offer


if __name__ == "__main__":
    steps = int(sys.argv[1]) if sys.argv[1:] else 200_000
    games = int(sys.argv[2]) if sys.argv[2:] else 40
    model, opens_offer = train(steps)

    def choose(obs, mask, rng):
        return int(model.predict(obs, action_masks=without_offers(mask, opens_offer), deterministic=True)[0])

    won = match(choose, games)
    print(f"MaskablePPO after {steps} steps: {won} of {games} games won against the random bot; "
          f"a uniformly random player in its seat: {match(None, games)}")
