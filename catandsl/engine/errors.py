"""The engine's errors: an illegal action from a player (the state unchanged), a rule
that cannot run (naming its source line), and a serialized state that cannot be played."""

from catandsl.rules.errors import ACTION_CODES, ArgumentError, EngineError, IllegalAction


class StateError(ValueError):
    """A serialized state that cannot be played: says which field and why. `code` sorts
    the problem (docs/diagnostics.md, "State codes"): `state/format` (another version),
    `state/syntax` (not a JSON object), `state/fields` (missing or unknown fields),
    `state/shape` (a value of the wrong type, length or range), `state/not_conserved`
    (resources, cards, tokens or harbors), `state/over_limit` (pieces counted wrongly or
    past their limit), `state/off_site` (a piece where it may never stand), `state/prompt`
    (a pending prompt), `state/dead` (no play can go on from it: not over, no chance
    node and nobody with a legal action, or not at a decision at all)."""

    def __init__(self, message: str, code: str = "state/shape", field: str = ""):
        super().__init__(message)
        self.code = code
        self.field = field


__all__ = ["ACTION_CODES", "ArgumentError", "EngineError", "IllegalAction", "StateError"]
