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

import numpy as np
from sb3_contrib import MaskablePPO

from catandsl.adapters.gymnasium import CatanEnv
from catandsl.players import RandomPlayer

TINY = str(Path(__file__).resolve().parent / "seven_hex_island.catan")


def train(steps: int, seed: int = 0) -> MaskablePPO:
    env = CatanEnv(TINY, players=2, seed=seed, observation="features")
    model = MaskablePPO("MlpPolicy", env, n_steps=1024, batch_size=256, gamma=0.995, seed=seed, verbose=0)
    model.learn(steps)
    return model


def match(model: MaskablePPO | None, games: int, seed: int = 100) -> int:
    """Games won in seat 0 against a RandomPlayer, by `model` (or uniformly at random)."""
    env = CatanEnv(TINY, players=2, observation="features")
    rng = np.random.default_rng(seed)
    wins = 0
    for k in range(games):
        env.opponents = [None, RandomPlayer(seed + k)]
        obs, _ = env.reset(seed=seed + k)
        over, reward = False, 0.0
        while not over:
            mask = env.action_masks()
            if model is None:
                action = int(rng.choice(np.flatnonzero(mask)))
            else:
                action = int(model.predict(obs, action_masks=mask, deterministic=False)[0])
            obs, reward, terminated, truncated, _ = env.step(action)
            over = terminated or truncated
        wins += reward > 0
    return wins


if __name__ == "__main__":
    steps = int(sys.argv[1]) if sys.argv[1:] else 50_000
    games = int(sys.argv[2]) if sys.argv[2:] else 40
    model = train(steps)
    print(f"MaskablePPO after {steps} steps: {match(model, games)} of {games} games won against the random bot; "
          f"a uniformly random player in its seat: {match(None, games)}")
