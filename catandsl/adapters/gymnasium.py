"""A Gymnasium environment: one seat (`seat`, default 0) learns, the other seats are
bots (`RandomPlayer`s by default, seeded from the reset seed; `opponents` is a list of
players, or a bot's name such as "greedy" or "mcts:200" for that bot at every seat,
seeded likewise), chance nodes are sampled inside. The observation is the Observer's
tensor for that seat; `action_masks()` gives its legal actions (the method masked PPO,
e.g. sb3-contrib's MaskablePPO, reads).

`terminated` when the game ends by a win (or a rule's end); `truncated` when it is cut
at the scenario's turn or action bound, or after `max_steps` calls to `step`. The reward
is `state.returns()[seat]` at the end, 0 before. An action the mask forbids leaves the
game unchanged and gives `illegal_reward` (info["illegal"] holds the engine's code).
"""

from __future__ import annotations

from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from catandsl.adapters import LIMIT_REASONS, load_scenario, make_game
from catandsl.adapters.pettingzoo import OBS_HIGH, OBS_LOW
from catandsl.engine import IllegalAction
from catandsl.engine.observer import Observer
from catandsl.players import RandomPlayer, is_bot, make_bot


class CatanEnv(gym.Env):
    metadata = {"render_modes": ["ansi"]}

    def __init__(self, scenario: Any, players: int | None = None, options: dict | None = None, seed: int = 0,
                 seat: int = 0, opponents: list | str | None = None, illegal_reward: float = -1.0,
                 max_steps: int | None = None, render_mode: str | None = None):
        self.scenario = load_scenario(scenario)
        self.players, self.options = players, options
        self.game = make_game(self.scenario, players, options, seed)
        self.seat = self.game.check_seat(seat, "seat")
        if isinstance(opponents, str) and not is_bot(opponents):
            raise ValueError(f"no bot {opponents!r}")
        self.opponents = opponents
        self.illegal_reward = illegal_reward
        self.max_steps = max_steps or self.game.max_game_length()
        self.render_mode = render_mode
        self.observer = Observer(self.game)
        self.observation_space = spaces.Box(OBS_LOW, OBS_HIGH, (self.observer.size,), np.float32)
        self.action_space = spaces.Discrete(self.game.num_distinct_actions())
        self.state: Any = None

    def _bots(self, seed: int) -> list:
        if isinstance(self.opponents, str):
            return [make_bot(self.opponents, seed * 31 + p) for p in range(self.game.num_players)]
        if self.opponents is not None:
            return list(self.opponents)
        return [RandomPlayer(seed * 31 + p) for p in range(self.game.num_players)]

    def reset(self, *, seed: int | None = None, options: dict | None = None) -> tuple[np.ndarray, dict]:
        super().reset(seed=seed)
        if seed is not None and seed != self.game.seed:
            self.game = make_game(self.scenario, self.players, self.options, seed)
            self.observer = Observer(self.game)
        self.bots = self._bots(self.game.seed)
        self.state = self.game.new_initial_state()
        self.steps = 0
        self._advance()
        return self._obs(), {}

    def _advance(self) -> None:
        """Chance and the bots play until the learner decides or the game ends."""
        s = self.state
        while not s.is_terminal():
            if s.is_chance_node():
                s.apply_action(s.sample_chance())
            elif s.current_player() != self.seat:
                s.apply_action(self.bots[s.current_player()].choose(s))
            else:
                break

    def _obs(self) -> np.ndarray:
        return np.asarray(self.observer.tensor(self.state, self.seat), np.float32)

    def action_masks(self) -> np.ndarray:
        return np.asarray(self.observer.legal_mask(self.state), bool)

    def step(self, action: Any) -> tuple[np.ndarray, float, bool, bool, dict]:
        self.steps += 1
        info: dict[str, Any] = {}
        reward = 0.0
        try:
            self.state.apply_action(int(action), self.seat)
            self._advance()
        except IllegalAction as e:
            reward, info["illegal"] = self.illegal_reward, e.code
        s = self.state
        terminated = s.is_terminal() and s.reason not in LIMIT_REASONS
        truncated = (s.is_terminal() and not terminated) or (not s.is_terminal() and self.steps >= self.max_steps)
        if s.is_terminal():
            reward = float(s.returns()[self.seat])
            info["reason"] = s.reason
        return self._obs(), reward, terminated, truncated, info

    def render(self) -> str | None:
        return None if self.state is None else str(self.state)
