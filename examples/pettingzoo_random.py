"""A random agent in the PettingZoo environment (pip install 'catandsl[rl]'): every seat
samples a legal action from its action mask, until the game ends.

    python examples/pettingzoo_random.py [SCENARIO] [SEED]
"""

from __future__ import annotations

import sys

import numpy as np

from catandsl.adapters.pettingzoo import CatanAECEnv


def play(scenario: str = "base", seed: int = 1, players: int = 3) -> dict:
    env = CatanAECEnv(scenario, players=players)
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    rewards: dict[str, float] = {}
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, info = env.last()
        if terminated or truncated:
            rewards[agent] = reward
            env.step(None)
            continue
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    return {"rewards": rewards, "reason": env.state.reason, "actions": env.state.actions_applied}


if __name__ == "__main__":
    print(play(sys.argv[1] if sys.argv[1:] else "base", int(sys.argv[2]) if sys.argv[2:] else 1))
