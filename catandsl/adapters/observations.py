"""The observation an environment's `observation=` names, as an array observer:
"tensor" (adapters/arrays.py) or "features" (adapters/features.py)."""

from __future__ import annotations

from typing import Any

from catandsl.adapters.arrays import ArrayObserver
from catandsl.adapters.features import FeatureObserver
from catandsl.engine.observer import Observer

OBSERVATIONS = ("tensor", "features")  # what the environments' `observation=` takes


def observer_for(game: Any, kind: str = "tensor", previous: Any = None) -> Any:
    """The array observer of `kind` ("tensor" or "features") for a game: `previous` when
    it serves games of the same layout (so its buffers are kept), else a new one. A
    game whose observation differs in size from `previous`'s is an error: an
    environment's observation space is fixed."""
    observer = Observer(game)
    if previous is not None and previous.layout is observer.layout and \
            previous.num_actions == game.num_distinct_actions():
        return previous
    if kind == "features":
        made: Any = FeatureObserver(observer)
    else:
        made = ArrayObserver(observer)
    if previous is not None and (made.size, made.num_actions) != (previous.size, previous.num_actions):
        raise ValueError(f"this game's observation has {made.size} numbers and {made.num_actions} actions, "
                         f"the environment's {previous.size} and {previous.num_actions}: the scenario's games "
                         "differ in shape (a map dealt at another size?)")
    return made
