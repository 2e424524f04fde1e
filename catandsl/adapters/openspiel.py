"""A scenario as an OpenSpiel game (`pyspiel`, the PyPI package `open-spiel`), so
OpenSpiel's algorithms (MCTS, CFR-style tools, its random-simulation test) run on it.

    from catandsl.adapters import openspiel
    openspiel.register()                       # once: the game "catandsl"
    game = pyspiel.load_game("catandsl", {"scenario": "base", "players": 3, "seed": 7})

Parameters: `scenario` (a shipped name or a .catan path), `players` (0: the most the
scenario allows), `seed`, `options` (`name=item,name=item`), `max_game_length` (0:
the scenario's bound; less ends a game sooner, reason `action_limit`, returns all 0:
uniformly random play, as in OpenSpiel's tests and rollouts, which haggles at length). Chance is explicit: dice,
steals and draws are chance nodes with the engine's outcomes; actions are the game's
fixed action table; returns are the engine's (+1 the winner, -1 the others). The
observation (string and tensor) is the engine's Observer for the player.

Episodes: the first `new_initial_state()` is the game of `seed`; each later one is the
next game the game object's own generator (seeded with `seed`) draws, so a map dealt
at random is dealt anew each episode, the same sequence for the same parameters. (What
else a seed fixes, dice and draws, is chance nodes here, sampled by the caller.)
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pyspiel

from catandsl.adapters import load_scenario, make_game, next_seed
from catandsl.adapters.observations import observer_for

SHORT_NAME = "catandsl"
MAX_PLAYERS = 8

_GAME_TYPE = pyspiel.GameType(
    short_name=SHORT_NAME,
    long_name="catandsl scenario",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.GENERAL_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=MAX_PLAYERS,
    min_num_players=1,
    provides_information_state_string=False,
    provides_information_state_tensor=False,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification={"scenario": "", "players": 0, "seed": 0, "options": "", "max_game_length": 0},
)


def _options(text: str) -> dict[str, str] | None:
    pairs = [p.partition("=") for p in text.split(",") if p]
    return {name: item for name, _, item in pairs} if pairs else None


class CatanGame(pyspiel.Game):
    """The OpenSpiel game `catandsl`: a scenario, a player count and options as parameters."""

    def __init__(self, params: dict | None = None):
        params = {**_GAME_TYPE.parameter_specification, **(params or {})}
        if not params["scenario"]:
            raise ValueError('the game "catandsl" needs a scenario: {"scenario": NAME or PATH}')
        self._setup = (load_scenario(str(params["scenario"])), int(params["players"]) or None,
                       _options(str(params["options"])))
        self._max_length = int(params["max_game_length"])
        self._rng = np.random.default_rng(int(params["seed"]))
        self._next_seed: int | None = int(params["seed"])  # the first episode's
        self.engine = self._game(int(params["seed"]))
        g = self.engine
        self.observer = observer_for(g)
        info = pyspiel.GameInfo(num_distinct_actions=g.num_distinct_actions(),
                                max_chance_outcomes=g.num_distinct_actions(), num_players=g.num_players,
                                min_utility=-1.0, max_utility=1.0, max_game_length=g.max_game_length())
        super().__init__(_GAME_TYPE, info, {k: params[k] for k in _GAME_TYPE.parameter_specification})

    def _game(self, seed: int) -> Any:
        g = make_game(*self._setup, seed)
        if self._max_length > 0:  # a shorter bound than the scenario's: the game ends there
            g.max_actions = min(g.max_actions, self._max_length)
        return g

    def new_initial_state(self, state: Any = None) -> CatanState:
        """The next episode's first state (the game of `seed`, then the games the game's
        generator draws), or a CatanState around an engine `state`."""
        if state is not None:
            return CatanState(self, state)
        seed, self._next_seed = self._next_seed, None
        if seed is None:
            seed = next_seed(self._rng)
        self.engine = self._game(seed)
        return CatanState(self, self.engine.new_initial_state())

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> CatanObserver:
        return CatanObserver(self)


class CatanState(pyspiel.State):
    """An OpenSpiel state wrapping one engine `State` (`inner`)."""

    def __init__(self, game: CatanGame, state: Any):
        super().__init__(game)
        self.inner = state

    def current_player(self) -> int:
        s = self.inner
        if s.is_terminal():
            return pyspiel.PlayerId.TERMINAL
        if s.is_chance_node():
            return pyspiel.PlayerId.CHANCE
        return s.current_player()

    def _legal_actions(self, player: int) -> list[int]:
        return self.inner.legal_actions()

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return self.inner.chance_outcomes()

    def _apply_action(self, action: int) -> None:
        self.inner.apply_action(int(action))

    def _action_to_string(self, player: int, action: int) -> str:
        return self.inner.action_to_string(int(action))

    def is_terminal(self) -> bool:
        return self.inner.is_terminal()

    def returns(self) -> list[float]:
        return self.inner.returns()

    def __str__(self) -> str:
        return str(self.inner)


class CatanObserver:
    """OpenSpiel's Python observer: `tensor` and `dict` set by `set_from`."""

    def __init__(self, game: CatanGame):
        self.observer = game.observer
        self.tensor = np.zeros(self.observer.size, np.float32)
        self.dict = {name: self.tensor[a:z] for name, (a, z) in self.observer.observer.slices.items()}

    def set_from(self, state: CatanState, player: int) -> None:
        self.observer.tensor(state.inner, player, self.tensor)

    def string_from(self, state: CatanState, player: int) -> str:
        return self.observer.observer.string(state.inner, player)


def register() -> None:
    """Make `pyspiel.load_game("catandsl", params)` build a scenario's game (idempotent)."""
    if SHORT_NAME not in pyspiel.registered_names():
        pyspiel.register_game(_GAME_TYPE, CatanGame)
