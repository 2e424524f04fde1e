"""Evaluates the IR's expressions (`model.Expr`) over a state, calling primitives only
through the registry (`rules.registry.PRIMITIVES`): nothing is looked up by a
user-given attribute name.

Values: ints, bools, strings (names of resources, pieces, cards, terrains, tokens),
players as seat numbers, sites as [code, id] lists (rules/base.py), lists of values.
A choice (`choose_resource`) asks a player: evaluation raises `NeedChoice` until the
answer is given (engine/flow.py re-runs the statement with it).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from catandsl.rules.base import EngineError
from catandsl.rules.registry import CHOICE, PRIMITIVES, QUERY, Param

if TYPE_CHECKING:
    from catandsl.engine.game import Game
    from catandsl.engine.state import State
    from catandsl.ir.model import Expr, Source


SITE_TYPES = {"site": ("h", "i", "p"), "hex": ("h",), "intersection": ("i",), "path": ("p",)}
_SITE_WORD = {"h": "a hex", "i": "an intersection", "p": "a path"}


def _refused(p: Param, value: Any) -> str:
    """What is wrong with an argument for parameter p ("" if nothing)."""
    kinds = SITE_TYPES.get(p.type)
    if kinds is not None:
        if not (isinstance(value, list) and len(value) == 2 and value[0] in kinds and isinstance(value[1], int)):
            got = _SITE_WORD.get(value[0], repr(value)) if isinstance(value, list) and value else repr(value)
            return f"{' or '.join(_SITE_WORD[c] for c in kinds)}, not {got}"
        return ""
    if not p.admits(value):
        return f"{p.range_text()}, not {value!r}"
    return ""


class NeedChoice(Exception):
    def __init__(self, primitive: str, player: int, options: list[Any]):
        self.primitive, self.player, self.options = primitive, player, options


class Answers:
    """The answers given so far to the choices of the statement being run."""

    __slots__ = ("values", "next")

    def __init__(self, values: list[Any]):
        self.values, self.next = values, 0


class BoardOnly:
    """What a condition evaluated over the board alone (a piece's `where`, when the game
    is made) sees: the game's static tables, and nothing of a state of play."""

    def __init__(self, game: Game):
        self.game = game

    def __getattr__(self, name: str) -> Any:
        raise EngineError(f"this condition reads the state of play ({name}); a piece's `where` "
                          "may use only what the board says (land, water, coast, number, terrain...)")


_BINARY: dict[str, Callable[[Any, Any], Any]] = {
    "eq": lambda a, b: a == b,
    "ne": lambda a, b: a != b,
    "lt": lambda a, b: a < b,
    "le": lambda a, b: a <= b,
    "gt": lambda a, b: a > b,
    "ge": lambda a, b: a >= b,
    "add": lambda a, b: a + b,
    "sub": lambda a, b: a - b,
    "mul": lambda a, b: a * b,
}
_ARITHMETIC = ("add", "sub", "mul")
# A rule's numbers stay within this: a chain of `let`s that squares a value would
# otherwise grow it without end (time and memory with it).
MAX_VALUE = 10**9


class Interpreter:
    def __init__(self, game: Game, names: dict[str, Any]):
        self.game = game
        self.names = names  # declared names a `var` may refer to (see Game.names)
        # per primitive, the parameters a value must be checked against when the rule runs:
        # an int's range, a site's kind (the compiler lets `site` stand for any kind)
        self._checked = {n: tuple((k, p) for k, p in enumerate(prim.params)
                                  if p.low is not None or p.high is not None or p.type in SITE_TYPES)
                         for n, prim in PRIMITIVES.items()}

    def static_condition(self, expr: Expr, env: dict[str, Any], source: Source | None) -> bool:
        """A condition over the board alone (a piece's `where`)."""
        return bool(self.value(expr, env, BoardOnly(self.game), source))  # type: ignore[arg-type]

    def value(self, e: Expr, env: dict[str, Any], state: State, source: Source | None = None) -> Any:
        """An expression that asks no player (a condition, an award's measure, a
        tie-break key): a choice inside it is an EngineError naming the rule."""
        try:
            return self.evaluate(e, env, state, Answers([]), source)
        except NeedChoice as nc:
            raise EngineError(f"{nc.primitive}() asks a player, which a condition or a measure "
                              "cannot do; choose inside the rule's effects", source) from None

    def evaluate(self, e: Expr, env: dict[str, Any], state: State, answers: Answers,
                 source: Source | None = None) -> Any:
        op = e.op
        if op in ("num", "str", "bool"):
            return e.value
        if op == "var":
            if e.value in env:
                return env[str(e.value)]
            if e.value in self.names:
                return self.names[str(e.value)]
            raise EngineError(f"unknown name {e.value!r}", source)
        if op == "param":
            params = self.game.ruleset.params
            if e.value not in params:
                raise EngineError(f"unknown param {e.value!r}", source)
            return params[str(e.value)]
        if op == "list":
            return [self.evaluate(a, env, state, answers, source) for a in e.args]
        if op == "pair":  # (q, r): a hex of the board
            q, r = (self.evaluate(a, env, state, answers, source) for a in e.args)
            k = self.game.board.hex_index.get((q, r), -1) if isinstance(q, int) and isinstance(r, int) else -1
            if k < 0:
                raise EngineError(f"there is no hex ({q}, {r}) on this board", source)
            return ["h", k]
        if op == "and":
            return all(self.evaluate(a, env, state, answers, source) for a in e.args)
        if op == "or":
            return any(self.evaluate(a, env, state, answers, source) for a in e.args)
        if op == "not":
            return not self.evaluate(e.args[0], env, state, answers, source)
        if op == "neg":
            return -self.evaluate(e.args[0], env, state, answers, source)
        if op in _BINARY:
            a = self.evaluate(e.args[0], env, state, answers, source)
            b = self.evaluate(e.args[1], env, state, answers, source)
            try:
                value = _BINARY[op](a, b)
            except TypeError:
                raise EngineError(f"cannot apply {op} to {a!r} and {b!r}", source) from None
            if op in _ARITHMETIC and not -MAX_VALUE <= value <= MAX_VALUE:
                raise EngineError(f"a number in this rule passed {MAX_VALUE:,} ({a} {op} {b})", source)
            return value
        if op == "call":
            return self.call(e, env, state, answers, source)
        raise EngineError(f"unknown expression {op!r}", source)

    def call(self, e: Expr, env: dict[str, Any], state: State, answers: Answers,
             source: Source | None) -> Any:
        name = str(e.value)
        prim = PRIMITIVES.get(name)
        if prim is None:
            raise EngineError(f"unknown primitive {name}()", source)
        args = [self.evaluate(a, env, state, answers, source) for a in e.args]
        if len(args) != len(prim.params):
            raise EngineError(f"{prim.signature()} takes {len(prim.params)} argument(s), not {len(args)}",
                              source)
        checked = self._checked[name]
        if checked:
            for k, p in checked:
                why = _refused(p, args[k])
                if why:
                    raise EngineError(f"{name}(): `{p.name}` must be {why}", source)
        kind = prim.kind
        if kind == QUERY:
            return prim.run(state, *args)
        if kind == CHOICE:
            if answers.next < len(answers.values):
                value = answers.values[answers.next]
                answers.next += 1
                return value
            raise NeedChoice(name, int(args[0]), prim.run(state, *args))
        if isinstance(state, BoardOnly):
            raise EngineError(f"{name}() changes the game; it cannot stand in a condition", source)
        return prim.run(state, *args)
