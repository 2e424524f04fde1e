"""The engine's errors: an illegal action from a player (the state unchanged), a rule
that cannot run (naming its source line), and a serialized state that cannot be played."""

from catandsl.engine.validate import StateError
from catandsl.rules.base import ACTION_CODES, ArgumentError, EngineError, IllegalAction

__all__ = ["ACTION_CODES", "ArgumentError", "EngineError", "IllegalAction", "StateError"]
