"""A masked loop in the Gymnasium environment (pip install 'catandsl[rl]'): seat 0
against random bots, choosing only among `env.action_masks()`. This is the loop a
masked policy-gradient learner runs; with sb3-contrib installed (not needed here, and
no training runs in CI):

    from sb3_contrib import MaskablePPO
    model = MaskablePPO("MlpPolicy", CatanEnv("base", players=3), verbose=1)
    model.learn(100_000)            # MaskablePPO reads env.action_masks() itself

    python examples/gymnasium_masked.py [SCENARIO] [EPISODES]
"""

from __future__ import annotations

import sys

import numpy as np

from catandsl.adapters.gymnasium import CatanEnv


def run(scenario: str = "base", episodes: int = 2, seed: int = 0) -> list[tuple[float, bool, bool]]:
    env = CatanEnv(scenario, players=3)
    rng = np.random.default_rng(seed)
    out = []
    for episode in range(episodes):
        obs, info = env.reset(seed=seed + episode)
        terminated = truncated = False
        reward = 0.0
        while not (terminated or truncated):
            action = int(rng.choice(np.flatnonzero(env.action_masks())))  # a policy would score obs here
            obs, reward, terminated, truncated, info = env.step(action)
        out.append((reward, terminated, truncated))
    return out


if __name__ == "__main__":
    for reward, terminated, _ in run(sys.argv[1] if sys.argv[1:] else "base",
                                             int(sys.argv[2]) if sys.argv[2:] else 2):
        print(f"reward {reward:+.0f} ({'won or lost' if terminated else 'cut at the bound'})")
