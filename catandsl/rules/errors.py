"""The errors of a running game: an illegal action from a player (the state unchanged),
an argument the API does not take, and a rule that cannot run (naming its source line).

A module of its own, with nothing else, so the optional compiled build
(scripts/build_compiled.py) leaves it pure: players and callers subclass these."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from catandsl.ir.model import Source

ACTION_CODES = (
    "action/unknown",
    "action/not_your_turn",
    "action/invalid_target",
    "action/cannot_afford",
    "action/deck_empty",
    "action/not_legal",
    "action/game_over",
)


class IllegalAction(ValueError):
    """`apply_action` of an action that is not legal now; the state is left unchanged."""

    def __init__(self, code: str, message: str):
        self.code = code
        self.message = message
        super().__init__(f"{code}: {message}")


class ArgumentError(ValueError):
    """A caller gave the API something it does not take (a seat that is not in the game,
    an action id past the table): the state is unchanged."""


class EngineError(RuntimeError):
    """A rule asked for something the engine cannot do; names the rule's source line."""

    def __init__(self, message: str, source: Source | None = None):
        self.source = source
        self.message = message
        where = f"{source.file}:{source.line}:{source.column}: " if source is not None else ""
        super().__init__(where + message)
