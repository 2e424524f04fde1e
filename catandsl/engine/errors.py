"""The engine's two errors: an illegal action from a player, and a rule that cannot run."""

from __future__ import annotations

ACTION_CODES = (
    "action/unknown",
    "action/not_your_turn",
    "action/invalid_target",
    "action/cannot_afford",
    "action/not_legal",
    "action/game_over",
)


class IllegalAction(ValueError):
    """`apply_action` of an action that is not legal now; the state is left unchanged."""

    def __init__(self, code: str, message: str):
        self.code = code
        self.message = message
        super().__init__(f"{code}: {message}")


class EngineError(RuntimeError):
    """A rule asked for something this engine cannot do; names the rule's source line."""

    def __init__(self, message: str, source=None):
        self.source = source
        where = f"{source.file}:{source.line}:{source.column}: " if source is not None else ""
        super().__init__(where + message)
