"""Several games in one process as one Gymnasium vector environment: `num_envs` copies
of `CatanEnv` (one learning seat each, bots at the others), stepped in turn, their
observations written straight into one preallocated (num_envs, size) float32 batch and
their masks into a (num_envs, actions) one.

    envs = gym.make_vec("catandsl/Base-v0", num_envs=8, vectorization_mode="vector_entry_point")
    obs, infos = envs.reset(seed=7)                 # game seeds 7, 8, ... (then each env's own draws)
    masks = envs.unwrapped.action_masks()           # bool (num_envs, actions)
    obs, rewards, terminated, truncated, infos = envs.step(actions)

Autoreset is Gymnasium's default (`AutoresetMode.NEXT_STEP`): the step after an episode
ends resets that game (its action is ignored) and reports reward 0. `reset(seed=s)`
seeds env k with `s + k`; `reset()` lets each draw its next game (see CatanEnv).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from catandsl.adapters.gymnasium import CatanEnv


class CatanVectorEnv(VectorEnv):
    """`num_envs` CatanEnv games in one process, batched (see the module)."""

    metadata = {"autoreset_mode": AutoresetMode.NEXT_STEP, "render_modes": []}

    def __init__(self, num_envs: int, scenario: Any, players: int | None = None, options: dict | None = None,
                 seed: int | None = None, seat: int = 0, illegal_reward: float = -1.0,
                 max_episode_steps: int | None = None, observation: str = "tensor", **kw: Any):
        if not isinstance(num_envs, int) or num_envs < 1:
            raise ValueError(f"num_envs is a number >= 1, not {num_envs!r}")
        self.envs = [CatanEnv(scenario, players, options, None if seed is None else seed + k, seat,
                              illegal_reward=illegal_reward, max_steps=max_episode_steps, observation=observation, **kw)
                     for k in range(num_envs)]
        self.num_envs = num_envs
        first = self.envs[0]
        self.single_observation_space = first.observation_space
        self.single_action_space = first.action_space
        self.observation_space = batch_space(first.observation_space, num_envs)
        self.action_space = batch_space(first.action_space, num_envs)
        self._obs = np.zeros((num_envs, first.observer.size), np.float32)
        self._masks = np.zeros((num_envs, first.observer.num_actions), np.bool_)
        self._rewards = np.zeros(num_envs, np.float64)
        self._terminated = np.zeros(num_envs, np.bool_)
        self._truncated = np.zeros(num_envs, np.bool_)
        self._done = np.zeros(num_envs, np.bool_)

    def reset(self, *, seed: int | list[int | None] | None = None,
              options: dict | None = None) -> tuple[np.ndarray, dict]:
        seeds = [seed + k for k in range(self.num_envs)] if isinstance(seed, int) else \
            list(seed) if seed is not None else [None] * self.num_envs
        if len(seeds) != self.num_envs:
            raise ValueError(f"{len(seeds)} seeds for {self.num_envs} environments")
        infos: dict[str, Any] = {}
        for k, (env, s) in enumerate(zip(self.envs, seeds)):
            infos = self._add_info(infos, env._start(s), k)
            env._obs(self._obs[k])
        self._done[:] = False
        return self._obs.copy(), infos

    def step(self, actions: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, dict]:
        infos: dict[str, Any] = {}
        for k, env in enumerate(self.envs):
            if self._done[k]:  # the episode ended at the last step: this one starts the next
                info = env._start(None)
                self._rewards[k], self._terminated[k], self._truncated[k] = 0.0, False, False
            else:
                self._rewards[k], self._terminated[k], self._truncated[k], info = env._play(actions[k])
            if info:
                infos = self._add_info(infos, info, k)
            env._obs(self._obs[k])
        np.logical_or(self._terminated, self._truncated, out=self._done)
        return self._obs.copy(), self._rewards.copy(), self._terminated.copy(), self._truncated.copy(), infos

    def action_masks(self) -> np.ndarray:
        """Each game's legal actions for its learning seat, bool (num_envs, actions)."""
        for k, env in enumerate(self.envs):
            env.action_masks(self._masks[k])
        return self._masks.copy()

    def close_extras(self, **kwargs: Any) -> None:
        for env in self.envs:
            env.close()
