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

from catandsl.rules.base import CHANCE, EngineError
from catandsl.rules.registry import CHOICE, PRIMITIVES, QUERY, RANDOM, Param

if TYPE_CHECKING:
    from catandsl.engine.game import Game
    from catandsl.engine.state import State
    from catandsl.ir.model import Expr, Source


SITE_TYPES = {"site": ("h", "i", "p"), "hex": ("h",), "intersection": ("i",), "path": ("p",)}
_SITE_WORD = {"h": "a hex", "i": "an intersection", "p": "a path"}
Check = Callable[[Any], str]  # what is wrong with a value ("" if nothing)


def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def type_checks(game: Game) -> dict[str, Check]:
    """A check for each type of the language, over this game's names and seats. The
    compiler checks types too, but `any` (a list of mixed items, a `let` of either kind)
    lets a value through that only the running rule can judge."""
    rs, n, seats = game.ruleset, game.num_players, game.num_seats

    def among(what: str, names: Any) -> Check:
        return lambda v: "" if isinstance(v, str) and v in names else f"{what}, not {v!r}"

    def site(kinds: tuple[str, ...]) -> Check:
        def check(v: Any) -> str:
            if isinstance(v, list) and len(v) == 2 and v[0] in kinds and _is_int(v[1]):
                return ""
            got = _SITE_WORD.get(v[0], repr(v)) if isinstance(v, list) and v and isinstance(v[0], str) else repr(v)
            return f"{' or '.join(_SITE_WORD[c] for c in kinds)}, not {got}"
        return check

    islands = len(game.board.islands)

    def island(v: Any) -> str:
        ok = (_is_int(v) and -1 <= v < islands) or (
            isinstance(v, list) and all(_is_int(i) and 0 <= i < islands for i in v))
        return "" if ok else f"an island, not {v!r}"

    checks: dict[str, Check] = {
        "int": lambda v: "" if _is_int(v) else f"a number, not {v!r}",
        "bool": lambda v: "" if isinstance(v, bool) else f"true or false, not {v!r}",
        "str": lambda v: "" if isinstance(v, str) else f"a string, not {v!r}",
        "player": lambda v: "" if _is_int(v) and 0 <= v < n else f"a player (a seat 0..{n - 1}), not {v!r}",
        "seat": lambda v: "" if _is_int(v) and 0 <= v < seats else f"a seat (0..{seats - 1}), not {v!r}",
        "resource": among("a resource", game.res_index),
        "piece": among("a piece", rs.pieces),
        "card": among("a card", {c.name for d in rs.decks.values() for c in d.cards}),
        "terrain": among("a terrain", rs.terrains),
        "award": among("an award", rs.awards),
        "token": among("a token", rs.tokens),
        "counter": among("a counter", rs.counters),
        "site_kind": among("a kind of site", rs.sites),
        "action": among("an action", rs.actions),
        "project": among("a project", rs.projects),
        "deck": among("a deck", rs.decks),
        "event": among("an event of a roll card", {c.event for c in rs.roll_cards.cards if c.event}
                       if rs.roll_cards is not None else set()),
        "measure": among("a measure", rs.measures),
        "island": island,
        "area": among("an area of the map", game.board.area_hexes),
        "die": among("a die", rs.dice.names if rs.dice is not None else ()),
    }
    for name, kinds in SITE_TYPES.items():
        checks[name] = site(kinds)
    return checks


def _list_of(check: Check) -> Check:
    def each(v: Any) -> str:
        if not isinstance(v, list):
            return f"a list, not {v!r}"
        for item in v:
            why = check(item)
            if why:
                return f"a list of which each item is {why}"
        return ""
    return each


def _param_check(p: Param, checks: dict[str, Check]) -> Check | None:
    """The whole check of one parameter: its type, then an int's range; None: any."""
    if p.type.startswith("list<"):
        inner = checks.get(p.type[5:-1])
        return _list_of(inner) if inner is not None else (lambda v: "" if isinstance(v, list) else
                                                          f"a list, not {v!r}")
    check = checks.get(p.type)
    if p.low is None and p.high is None:
        return check

    def ranged(v: Any) -> str:
        why = check(v) if check is not None else ""
        return why or ("" if p.admits(v) else f"{p.range_text()}, not {v!r}")
    return ranged


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
        # per primitive, what each argument is checked against when the rule runs: its
        # type over this game's names (the compiler lets `site` and `any` through) and range
        checks = type_checks(game)
        self._checked = {n: tuple((k, p, c) for k, p in enumerate(prim.params)
                                  if (c := _param_check(p, checks)) is not None)
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
            asks = "is a chance event" if nc.player == CHANCE else "asks a player"
            raise EngineError(f"{nc.primitive}() {asks}, which a condition or a measure "
                              "cannot do; use it inside the rule's effects", source) from None

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
        for k, p, check in self._checked[name]:
            why = check(args[k])
            if why:
                raise EngineError(f"{name}(): `{p.name}` must be {why}", source)
        kind = prim.kind
        if kind == QUERY:
            return prim.run(state, *args)
        if kind == CHOICE or kind == RANDOM:
            if answers.next < len(answers.values):
                value = answers.values[answers.next]
                answers.next += 1
                return value
            if kind == RANDOM:  # chance picks: options are [value, weight] pairs
                raise NeedChoice(name, CHANCE, [[v, w] for v, w in prim.run(state, *args)])
            raise NeedChoice(name, int(args[0]), prim.run(state, *args))
        if isinstance(state, BoardOnly):
            raise EngineError(f"{name}() changes the game; it cannot stand in a condition", source)
        return prim.run(state, *args)
