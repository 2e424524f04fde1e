"""Adapters to the interfaces agents and search libraries already use. Each module needs
the `rl` extra (`pip install catandsl[rl]`) and is imported only when asked for, so the
core never loads gymnasium, pettingzoo, numpy or pyspiel:

- `catandsl.adapters.pettingzoo.CatanAECEnv`: a PettingZoo AEC environment, every seat an agent;
- `catandsl.adapters.gymnasium.CatanEnv`: a Gymnasium environment, one seat against bots;
- `catandsl.adapters.openspiel.register(...)`: a scenario as an OpenSpiel (pyspiel) game.

All share `make_game` (a scenario, path or shipped name -> Game) and the engine's
`Observer` (engine/observer.py) for tensors and legal-action masks.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

LIMIT_REASONS = ("turn_limit", "action_limit")  # a game cut at its bound: truncated, not terminated


def load_scenario(scenario: Any) -> Any:
    """A compiled Scenario from itself, a .catan path, or a shipped scenario's name."""
    import catandsl
    from catandsl import resources
    from catandsl.ir.model import Scenario

    if isinstance(scenario, Scenario):
        return scenario
    if isinstance(scenario, str) and not scenario.endswith(".catan"):
        for s in resources.shipped_scenarios():
            if scenario == s.name or scenario in s.aliases:
                return catandsl.load(s.path)
    return catandsl.load(Path(scenario))


def make_game(scenario: Any, players: int | None = None, options: dict | None = None, seed: int = 0) -> Any:
    import catandsl

    return catandsl.new_game(load_scenario(scenario), players=players, options=options, seed=seed)
