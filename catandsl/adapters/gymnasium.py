"""A Gymnasium environment: one seat (`seat`, default 0) learns, the other seats are
bots (`RandomPlayer`s by default, seeded from the game's seed; `opponents` is a list of
players, or a bot's name such as "greedy" or "mcts:200" for that bot at every seat,
seeded likewise), chance nodes are sampled inside. The observation is the seat's tensor
(`observation="tensor"`, the Observer's) or its named features (`observation="features"`,
adapters/features.py); `action_masks()` gives its legal actions (the method masked PPO,
e.g. sb3-contrib's MaskablePPO, reads).

Registered ids (importing this module registers them):

    import gymnasium as gym, catandsl.adapters.gymnasium
    env = gym.make("catandsl/Base-v0", players=3)          # one id per shipped scenario
    env = gym.make("catandsl/Scenario-v0", scenario="my.catan", options={"layout": "random"})
    envs = gym.make_vec("catandsl/Base-v0", num_envs=8, vectorization_mode="vector_entry_point")

(`gym.make("catandsl.adapters.gymnasium:catandsl/Base-v0")` imports it by itself.) Each
spec has `max_episode_steps` (`EPISODE_STEPS`, 20,000 of the learner's steps: random
play ends a game within a few thousand) and names `catandsl.adapters.vector.CatanVectorEnv` as its vector
entry point.

Episodes: `reset(seed=s)` plays the game of seed `s` and seeds `np_random`; `reset()`
plays the next game `np_random` draws (board, dice and bots all new), so a seeded reset
followed by unseeded ones replays the same games. The first reset without a seed takes
the constructor's `seed`, or fresh entropy when it is None. `info["seed"]` (from
`reset`) is the game's seed: `catandsl.new_game(..., seed=info["seed"])` is that game.

`terminated` when the game ends by a win (or a rule's end); `truncated` when it is cut
at the scenario's turn or action bound, or after `max_steps` calls to `step`. The reward
is `state.returns()[seat]` at the end, 0 before. An action the mask forbids leaves the
game unchanged and gives `illegal_reward` (info["illegal"] holds the engine's code).
"""

from __future__ import annotations

import re
from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from catandsl.adapters import LIMIT_REASONS, load_scenario, make_game, next_seed
from catandsl.adapters.observations import OBSERVATIONS, observer_for
from catandsl.adapters.pettingzoo import OBS_HIGH, OBS_LOW
from catandsl.engine import IllegalAction
from catandsl.players import RandomPlayer, is_bot, make_bot

EPISODE_STEPS = 20_000  # the registered ids' max_episode_steps (the learner's steps)


class CatanEnv(gym.Env):
    """A Gymnasium environment: one seat learns, bots play the others."""

    metadata = {"render_modes": ["ansi"], "render_fps": 1}  # (text frames: the rate is Gymnasium's to ask)

    def __init__(self, scenario: Any, players: int | None = None, options: dict | None = None,
                 seed: int | None = None, seat: int = 0, opponents: list | str | None = None,
                 illegal_reward: float = -1.0, max_steps: int | None = None, render_mode: str | None = None,
                 observation: str = "tensor"):
        if observation not in OBSERVATIONS:
            raise ValueError(f"observation is one of {', '.join(OBSERVATIONS)}, not {observation!r}")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode is one of {self.metadata['render_modes']} or None, not {render_mode!r}")
        self.scenario = load_scenario(scenario)
        self.players, self.options = players, options
        self.first_seed = seed
        self.observation_kind = observation
        self.game = make_game(self.scenario, players, options, seed or 0)
        self.seat = self.game.check_seat(seat, "seat")
        if isinstance(opponents, str) and not is_bot(opponents):
            raise ValueError(f"no bot {opponents!r}")
        self.opponents = opponents
        self.illegal_reward = illegal_reward
        self.max_steps = max_steps or self.game.max_game_length()
        self.render_mode = render_mode
        self.observer = observer_for(self.game, observation)
        self.observation_space = spaces.Box(OBS_LOW, OBS_HIGH, (self.observer.size,), np.float32)
        self.action_space = spaces.Discrete(self.game.num_distinct_actions())
        self.state: Any = None
        self.steps = 0

    def _bots(self, seed: int) -> list:
        if isinstance(self.opponents, str):
            return [make_bot(self.opponents, seed * 31 + p) for p in range(self.game.num_players)]
        if self.opponents is not None:
            return list(self.opponents)
        return [RandomPlayer(seed * 31 + p) for p in range(self.game.num_players)]

    def reset(self, *, seed: int | None = None, options: dict | None = None) -> tuple[np.ndarray, dict]:
        info = self._start(seed)
        return self._obs(), info

    def _start(self, seed: int | None) -> dict:
        """A new episode (see the module on seeds): its info."""
        if seed is None and self._np_random is None:
            seed = self.first_seed  # the first episode: the constructor's seed (None: fresh entropy)
        super().reset(seed=seed)
        game_seed = int(seed) if seed is not None else next_seed(self.np_random)
        self.game = make_game(self.scenario, self.players, self.options, game_seed)
        self.observer = observer_for(self.game, self.observation_kind, self.observer)
        self.bots = self._bots(game_seed)
        self.state = self.game.new_initial_state()
        self.steps = 0
        self._advance()
        return {"seed": game_seed}

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

    def _obs(self, out: np.ndarray | None = None) -> np.ndarray:
        return self.observer.tensor(self.state, self.seat, out)

    def action_masks(self, out: np.ndarray | None = None) -> np.ndarray:
        """The seat's legal actions now, as bools (all False once the game is over): a
        read-only array shared by equal masks (adapters/arrays.py), or written into `out`."""
        if out is not None:
            self.observer.mask(self.state, out.view(np.int8))
            return out
        return self.observer.mask(self.state).view(np.bool_)

    def step(self, action: Any) -> tuple[np.ndarray, float, bool, bool, dict]:
        reward, terminated, truncated, info = self._play(action)
        return self._obs(), reward, terminated, truncated, info

    def _play(self, action: Any) -> tuple[float, bool, bool, dict]:
        """The seat's action, then chance and the bots up to its next decision."""
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
        return reward, terminated, truncated, info

    def render(self) -> str | None:
        return None if self.state is None else str(self.state)


def env_id(name: str) -> str:
    """The registered id of a shipped scenario: `my_island` -> `catandsl/MyIsland-v0`."""
    return "catandsl/" + "".join(w[:1].upper() + w[1:] for w in re.split(r"[_/]+", name) if w) + "-v0"


def register_envs() -> list[str]:
    """Register `catandsl/NAME-v0` for each shipped scenario and `catandsl/Scenario-v0`
    (which takes `scenario=`, a file or a name): the ids (idempotent)."""
    from catandsl import resources

    ids = []
    for name, kwargs in [(env_id(s.name), {"scenario": s.name}) for s in resources.shipped_scenarios()] + \
            [("catandsl/Scenario-v0", {})]:
        if name not in gym.registry:
            gym.register(name, entry_point="catandsl.adapters.gymnasium:CatanEnv", kwargs=kwargs,
                         max_episode_steps=EPISODE_STEPS,
                         vector_entry_point="catandsl.adapters.vector:CatanVectorEnv")
        ids.append(name)
    return ids


register_envs()
