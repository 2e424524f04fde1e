"""Adapters to the interfaces agents and search libraries already use. Each module needs
the `rl` extra (`pip install catandsl[rl]`) and is imported only when asked for, so the
core never loads gymnasium, pettingzoo, numpy or pyspiel:

- `catandsl.adapters.pettingzoo.CatanAECEnv`: a PettingZoo AEC environment, every seat an agent;
- `catandsl.adapters.gymnasium.CatanEnv`: a Gymnasium environment, one seat against bots,
  registered as `catandsl/NAME-v0` per shipped scenario and `catandsl/Scenario-v0`;
- `catandsl.adapters.vector.CatanVectorEnv`: several such games in one process, batched;
- `catandsl.adapters.openspiel.register(...)`: a scenario as an OpenSpiel (pyspiel) game;
- `catandsl.adapters.arrays` and `catandsl.adapters.features`: the observations as numpy
  arrays (the Observer's tensor, kept up to date in place) and as named features.

All share `make_game` (a scenario, path or shipped name -> Game), `load_scenario` (which
compiles a file once per process) and `next_seed` (the next game of an episode stream).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

LIMIT_REASONS = ("turn_limit", "action_limit")  # a game cut at its bound: truncated, not terminated
SEED_BOUND = 2**63  # the seeds an environment draws for its games: 0 <= seed < SEED_BOUND

# compiled scenarios by file, size and time of change: the environments of one process
# (a vector of them, a reset after another) share one Scenario, and so its games' tables
_COMPILED: dict[tuple[str, int, int], Any] = {}
MAX_COMPILED = 16


def load_scenario(scenario: Any) -> Any:
    """A compiled Scenario from itself, a .catan path, or a shipped scenario's name."""
    from catandsl import resources
    from catandsl.ir.model import Scenario

    if isinstance(scenario, Scenario):
        return scenario
    path = Path(scenario)
    if isinstance(scenario, str) and not scenario.endswith(".catan"):
        for s in resources.shipped_scenarios():
            if scenario == s.name or scenario in s.aliases:
                path = s.path
    return _compiled(path)


def _compiled(path: Path) -> Any:
    import catandsl

    try:
        st = path.stat()
        key: tuple[str, int, int] | None = (str(path.resolve()), st.st_size, st.st_mtime_ns)
    except OSError:
        key = None  # (catandsl.load says what is wrong with the path)
    if key is not None and key in _COMPILED:
        return _COMPILED[key]
    scenario = catandsl.load(path)
    if key is not None:
        if len(_COMPILED) >= MAX_COMPILED:
            _COMPILED.clear()
        _COMPILED[key] = scenario
    return scenario


def make_game(scenario: Any, players: int | None = None, options: dict | None = None, seed: int = 0) -> Any:
    import catandsl

    return catandsl.new_game(load_scenario(scenario), players=players, options=options, seed=seed)


def next_seed(rng: Any) -> int:
    """The seed of an environment's next game, drawn from its numpy Generator."""
    return int(rng.integers(SEED_BOUND, dtype="uint64"))
