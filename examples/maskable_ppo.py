"""MaskablePPO (sb3-contrib) on the Gymnasium environment, for those who have torch:

    pip install 'catandsl[rl]' sb3-contrib       # brings stable-baselines3 and torch
    python examples/maskable_ppo.py [STEPS] [GAMES]

It trains on the seven-hex island (seat 0 of 2, against the random bot) with the
feature observation, masks from `env.action_masks()` (which MaskablePPO reads itself),
then counts the games it wins against the random bot beside those a uniformly random
player wins in its seat. Not run in CI (no deep-learning framework there):
examples/numpy_policy.py is the example the tests run.
"""

from __future__ import annotations

import sys
from pathlib import Path

from sb3_contrib import MaskablePPO

from catandsl.adapters.gymnasium import CatanEnv

sys.path.insert(0, str(Path(__file__).resolve().parent))
from numpy_policy import TINY, match  # noqa: E402  (the same games, the same count)


def train(steps: int, seed: int = 0) -> MaskablePPO:
    env = CatanEnv(TINY, players=2, seed=seed, observation="features")
    model = MaskablePPO("MlpPolicy", env, n_steps=1024, batch_size=256, gamma=0.995, seed=seed, verbose=0)
    model.learn(steps)
    return model


if __name__ == "__main__":
    steps = int(sys.argv[1]) if sys.argv[1:] else 50_000
    games = int(sys.argv[2]) if sys.argv[2:] else 40
    model = train(steps)
    won = match(lambda obs, mask, rng: int(model.predict(obs, action_masks=mask)[0]), games)
    print(f"MaskablePPO after {steps} steps: {won} of {games} games won against the random bot; "
          f"a uniformly random player in its seat: {match(None, games)}")
