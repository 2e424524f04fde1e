"""A PettingZoo AEC environment: every seat an agent (`player_0`, ...), chance nodes
sampled inside (by `state.sample_chance()`, so a game's seed fixes its dice), each
agent's observation a dict of its tensor and its legal-action mask.

    env = CatanAECEnv("base", players=4)
    env.reset(seed=7)
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, info = env.last()
        action = None if terminated or truncated else env.action_space(agent).sample(obs["action_mask"])
        env.step(action)

Episodes: `reset(seed=s)` plays the game of seed `s` and seeds the environment's own
generator (`np_random`); a `reset()` without a seed plays the next game that generator
draws, so every episode is a new game (board, dice) and a seeded reset followed by
unseeded ones replays the same games. The first reset without a seed takes the
constructor's `seed`, or fresh entropy when it is None. `info["seed"]` is the game's seed.

`observation="tensor"` (the default) is the Observer's tensor (engine/observer.py);
`"features"` is the named feature observation (adapters/features.py). The observation's
`action_mask` may be read-only (`writeable` False) and shared with other observations
(adapters/arrays.py keeps one array per set of legal actions): copy it to change it;
`observation` is a new array each time. Rewards come at
the end: `state.returns()` (+1 the winner, -1 the others, 0 for all in a game cut at its
bound). A game ended by a win or a rule is `terminated`; one cut at the scenario's turn
or action bound is `truncated`.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from gymnasium.utils import seeding
from pettingzoo import AECEnv

from catandsl.adapters import LIMIT_REASONS, load_scenario, make_game, next_seed
from catandsl.adapters.observations import OBSERVATIONS, observer_for

OBS_LOW, OBS_HIGH = -1.0, 1e6  # every observed number: seats and sites are >= -1, counts far below 1e6


class CatanAECEnv(AECEnv):
    """A PettingZoo AEC environment: every seat an agent, in turn order."""

    metadata = {"name": "catandsl_v0", "render_modes": ["ansi"], "is_parallelizable": False}

    def __init__(self, scenario: Any, players: int | None = None, options: dict | None = None,
                 seed: int | None = None, render_mode: str | None = None, observation: str = "tensor"):
        super().__init__()
        if observation not in OBSERVATIONS:
            raise ValueError(f"observation is one of {', '.join(OBSERVATIONS)}, not {observation!r}")
        self.scenario = load_scenario(scenario)
        self.players, self.options, self.seed = players, options, seed
        self.observation_kind = observation
        self.render_mode = render_mode
        self.game = make_game(self.scenario, players, options, seed or 0)
        self.observer = observer_for(self.game, observation)
        n, A = self.game.num_players, self.game.num_distinct_actions()
        self.possible_agents = [f"player_{p}" for p in range(n)]
        self._seat = {a: p for p, a in enumerate(self.possible_agents)}
        box = spaces.Box(OBS_LOW, OBS_HIGH, (self.observer.size,), np.float32)
        self.observation_spaces = {a: spaces.Dict({"observation": box, "action_mask": spaces.Box(0, 1, (A,), np.int8)})
                                   for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(A) for a in self.possible_agents}
        self.np_random: np.random.Generator | None = None
        self._no_mask = np.zeros(A, np.int8)  # the mask of a seat not to act (read-only, shared)
        self._no_mask.flags.writeable = False
        self.state: Any = None

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        if seed is None and self.np_random is None:
            seed = self.seed  # the first episode: the constructor's seed (None: fresh entropy)
        if seed is not None or self.np_random is None:
            self.np_random, _ = seeding.np_random(seed)
        game_seed = int(seed) if seed is not None else next_seed(self.np_random)
        self.game = make_game(self.scenario, self.players, self.options, game_seed)
        self.observer = observer_for(self.game, self.observation_kind, self.observer)
        self.state = self.game.new_initial_state()
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict] = {a: {"seed": game_seed} for a in self.agents}
        self._advance()

    def _advance(self) -> None:
        """Sample chance nodes up to the next decision or the end, and say who is next."""
        s = self.state
        while s.is_chance_node():
            s.apply_action(s.sample_chance())
        if s.is_terminal():
            cut = s.reason in LIMIT_REASONS
            for a, r in zip(self.possible_agents, s.returns()):
                self.rewards[a] = float(r)
                (self.truncations if cut else self.terminations)[a] = True
                self.infos[a] = {"reason": s.reason, "seed": s.seed}
        else:
            self.agent_selection = self.possible_agents[s.current_player()]

    def observe(self, agent: str) -> dict:
        p = self._seat[agent]
        s = self.state
        # (the mask is all 0 but for the player to act: at the end, current_player() is no seat)
        mask = self.observer.mask(s) if s.current_player() == p else self._no_mask
        return {"observation": self.observer.tensor(s, p), "action_mask": mask}

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0.0
        self.state.apply_action(int(action))  # IllegalAction (a ValueError) if the mask says no
        self._advance()
        if self.state.is_terminal():  # (the rewards are 0 until the end: nothing to add before)
            self._accumulate_rewards()
        if self.render_mode == "ansi":
            self.render()

    def render(self) -> str | None:
        return None if self.state is None else str(self.state)

    def close(self) -> None:
        pass


def env(scenario: Any, **kw: Any) -> CatanAECEnv:
    return CatanAECEnv(scenario, **kw)
