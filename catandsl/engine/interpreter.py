"""Evaluates the IR's expressions (`model.Expr`) over a state, calling primitives only
through the registry (`rules.registry.PRIMITIVES`): nothing is looked up by a
user-given attribute name. Each expression is compiled once, on first use, into a
Python closure (no source text is ever made or run: closures are composed from the
IR's nodes), so a running game never walks the IR.

Values: ints, bools, strings (names of resources, pieces, cards, terrains, tokens),
players as seat numbers, sites as [code, id] lists (rules/base.py), lists of values.
A choice (`choose_resource`) asks a player: evaluation raises `NeedChoice` until the
answer is given (engine/flow.py re-runs the statement with it).
"""

from __future__ import annotations

import operator
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from catandsl.engine import places
from catandsl.rules import play
from catandsl.rules.base import CHANCE, LOCATION_CODE, EngineError
from catandsl.rules.play import NO_ANSWERS, Answers, Game, State
from catandsl.rules.registry import CHOICE, EVENTS, PRIMITIVES, QUERY, RANDOM, Param

if TYPE_CHECKING:
    from catandsl.ir.model import Expr, Source


LOCATION_TYPES = {"site": ("h", "i", "p"), "hex": ("h",), "intersection": ("i",), "path": ("p",)}
_LOCATION_WORD = {"h": "a hex", "i": "an intersection", "p": "a path"}
ArgumentTest = Callable[[Any], str]  # what is wrong with a value ("" if nothing)


def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def type_checks(game: Game) -> dict[str, ArgumentTest]:
    """A check for each type of the language, over this game's names and seats. The
    compiler checks types too, but `any` (a list of mixed items, a `let` of either kind)
    lets a value through that only the running rule can judge."""
    rs, n, seats = game.ruleset, game.num_players, game.num_seats

    def among(what: str, names: Any) -> ArgumentTest:
        return lambda v: "" if isinstance(v, str) and v in names else f"{what}, not {v!r}"

    def location(kinds: tuple[str, ...]) -> ArgumentTest:
        def check(v: Any) -> str:
            if isinstance(v, list) and len(v) == 2 and v[0] in kinds and isinstance(v[1], int) \
                    and not isinstance(v[1], bool):
                return ""
            got = _LOCATION_WORD.get(v[0], repr(v)) if isinstance(v, list) and v and isinstance(v[0], str) else repr(v)
            return f"{' or '.join(_LOCATION_WORD[c] for c in kinds)}, not {got}"
        return check

    islands = len(game.board.islands)

    def island(v: Any) -> str:
        ok = (_is_int(v) and -1 <= v < islands) or (
            isinstance(v, list) and all(_is_int(i) and 0 <= i < islands for i in v))
        return "" if ok else f"an island, not {v!r}"

    checks: dict[str, ArgumentTest] = {
        # (`isinstance(v, int) and not isinstance(v, bool)`, _is_int, written out: these run often)
        "int": lambda v: "" if isinstance(v, int) and not isinstance(v, bool) else f"a number, not {v!r}",
        "bool": lambda v: "" if isinstance(v, bool) else f"true or false, not {v!r}",
        "str": lambda v: "" if isinstance(v, str) else f"a string, not {v!r}",
        "player": lambda v: "" if isinstance(v, int) and not isinstance(v, bool) and 0 <= v < n
        else f"a player (a seat 0..{n - 1}), not {v!r}",
        "seat": lambda v: "" if isinstance(v, int) and not isinstance(v, bool) and 0 <= v < seats
        else f"a seat (0..{seats - 1}), not {v!r}",
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
    for name, kinds in LOCATION_TYPES.items():
        checks[name] = location(kinds)
    return checks


def _list_of(check: ArgumentTest) -> ArgumentTest:
    def each(v: Any) -> str:
        if not isinstance(v, list):
            return f"a list, not {v!r}"
        for item in v:
            why = check(item)
            if why:
                return f"a list of which each item is {why}"
        return ""
    return each


def _param_check(p: Param, checks: dict[str, ArgumentTest]) -> ArgumentTest | None:
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
    """A statement reached a choice no answer is given for yet: who chooses, among what."""

    def __init__(self, primitive: str, player: int, options: list[Any]):
        self.primitive, self.player, self.options = primitive, player, options


class BoardOnly:
    """What a condition evaluated over the board alone (a piece's `where`, when the game
    is made) sees: the game's static tables, and nothing of a state of play."""

    def __init__(self, game: Game):
        self.game = game

    def __getattr__(self, name: str) -> Any:
        raise EngineError(f"this condition reads the state of play ({name}); a piece's `where` "
                          "may use only what the board says (land, water, coast, number, terrain...)")


_BINARY: dict[str, Callable[[Any, Any], Any]] = {
    "eq": operator.eq,
    "ne": operator.ne,
    "lt": operator.lt,
    "le": operator.le,
    "gt": operator.gt,
    "ge": operator.ge,
    "add": operator.add,
    "sub": operator.sub,
    "mul": operator.mul,
}
_ARITHMETIC = ("add", "sub", "mul")
# A rule's numbers stay within this: a chain of `let`s that squares a value would
# otherwise grow it without end (time and memory with it).
MAX_VALUE = 10**9

# An expression compiled once into a Python closure: (env, state, answers) -> value.
Code = Callable[[dict[str, Any], Any, Answers], Any]


class Program:
    """An expression compiled for one game: `run(env, state, answers)` evaluates it, with
    `env` the names in scope, `state` a state of play, `answers` the answers given so far
    to its choices. Run with NO_ANSWERS (a condition, a measure, a key, a statement that
    asks nothing), a choice in it is an EngineError naming the rule; run with an
    `Answers` of its own, a choice not yet answered raises NeedChoice for the caller to
    ask (engine/flow.py). `asks`: it holds a choice or a chance pick. `run` is the
    compiled closure itself, so a run is one call."""

    __slots__ = ("expr", "source", "asks", "run")

    def __init__(self, expr: Expr, source: Source | None, asks: bool, run: Code):
        self.expr, self.source, self.asks, self.run = expr, source, asks, run


class Interpreter:
    """Runs the IR's expressions. Each expression is compiled once (on first use) into a
    closure bound to the registry's implementations, the argument checks of its calls
    and its rule's source, so nothing walks the IR while a game runs: `program(e,
    source)` gives it as a `Program`; `on_board` is a condition over the board alone."""

    def __init__(self, game: Game, names: dict[str, Any]):
        self.game = game
        self.names = names  # declared names a `var` may refer to (see Game.names)
        # per primitive, what each argument is checked against when the rule runs: its
        # type over this game's names (the compiler lets `site` and `any` through) and
        # range; made for the primitives the game's rules call, when first compiled
        self.types = type_checks(game)
        self._checked: dict[str, tuple[tuple[int, Param, ArgumentTest], ...]] = {}
        # (id of the expression, id of its source) -> its program, which holds both, so
        # that their ids stay theirs for as long as the interpreter lives
        self._programs: dict[tuple[int, int], Program] = {}
        # event -> (the parameter its filters compare, ((filters, condition code or None,
        # statement ids) for each hook on it, in declaration order))
        self._hooks: dict[str, tuple[str, tuple[tuple[tuple, Code | None, tuple[int, ...]], ...]]] = {}
        # game.effects' statement id -> the program of its expression (flow._run_one), and
        # award -> its measure's (scoring.update_awards): one lookup each
        self.statements: dict[int, play.Program] = {}
        self.awards: dict[int, play.Program] = {}
        # (event, subject) -> what `unable` tests: per hook, its condition and its calls
        self._gates: dict[tuple[str, str], tuple[tuple[Code | None, tuple[tuple[Callable[..., str],
                                                                               tuple[Code, ...]], ...]], ...]] = {}

    def on_board(self, expr: Expr, source: Source | None) -> Callable[[dict[str, Any]], bool]:
        """A condition over the board alone (a piece's or a set-up step's `where`), as a
        function of its names in scope: run over the game's static tables, with nothing
        of a state of play (`BoardOnly`)."""
        run = self.program(expr, source).run
        board = BoardOnly(self.game)
        return lambda env: bool(run(env, board, NO_ANSWERS))

    def hooks(self, event: str) -> tuple[str, tuple[tuple[tuple, Code | None, tuple[int, ...]], ...]]:
        """The hooks on `event` (game.hooks), compiled: the parameter their filters
        compare, and for each its filters, its condition's code (run with NO_ANSWERS) and
        its statement ids."""
        plan = self._hooks.get(event)
        if plan is None:
            hooks = tuple((h.filters, None if h.condition is None else self.program(h.condition, h.source).run, eids)
                          for h, eids in self.game.hooks.get(event, ()))
            plan = self._hooks[event] = (EVENTS[event].filter or "", hooks)
        return plan

    def unable(self, event: str, subject: str, env: dict[str, Any], state: State) -> str:
        """Why the hooks `event` runs for `subject` (a card played, an action taken) can
        do nothing of what they say now, "" if they can: a statement of a hook that runs
        (no condition, or one that holds) calls an effect whose `refuses` gives a reason
        (`build_free` with nowhere to build). Only the statements every run reaches are
        read: a hook's own, up to its first `let` or choice. Asked before the card or the
        action is paid for, so nothing is spent on a rule that cannot happen."""
        gates = self._gates.get((event, subject))
        if gates is None:
            gates = self._gates[(event, subject)] = self._gates_of(event, subject)
        for condition, calls in gates:
            try:
                if condition is not None and not condition(env, state, NO_ANSWERS):
                    continue
                for refuses, args in calls:
                    why = refuses(state, *(a(env, state, NO_ANSWERS) for a in args))
                    if why:
                        return why
            except EngineError:
                continue  # the rule itself reports it when it runs
        return ""

    def _gates_of(self, event: str, subject: str) -> tuple:
        g = self.game
        out = []
        for h, eids in g.hooks.get(event, ()):
            if h.filters and subject not in map(str, h.filters):
                continue
            calls = []
            for eid in eids:
                e, x = g.effects[eid], g.effects[eid].expr
                if e.op == "let" or (x is not None and _asks(x)):
                    break  # a choice may lapse the rest of the block
                prim = PRIMITIVES.get(str(x.value)) if e.op == "call" and x is not None else None
                if prim is not None and prim.refuses is not None and x is not None:
                    calls.append((prim.refuses, tuple(self.program(a, e.source).run for a in x.args)))
            if calls:
                cond = None if h.condition is None else self.program(h.condition, h.source).run
                out.append((cond, tuple(calls)))
        return tuple(out)

    def program(self, e: Expr, source: Source | None = None) -> Program:
        """`e` compiled (its errors name `source`), on first use, then kept."""
        hit = self._programs.get((id(e), id(source)))
        if hit is not None:
            return hit
        code = self._compile(e, source)
        asks = _asks(e)
        run = code  # an expression that asks nothing never raises NeedChoice
        if asks:
            def run(env: dict[str, Any], s: Any, an: Answers) -> Any:
                try:
                    return code(env, s, an)
                except NeedChoice as nc:
                    if an is NO_ANSWERS:  # a caller that takes no answers: the rule is wrong
                        raise _no_choice(nc, source) from None
                    raise
        hit = self._programs[(id(e), id(source))] = Program(e, source, asks, run)
        return hit

    # ---- compiling ------------------------------------------------------------------------
    #
    # Each `_compile` case returns a closure doing what the evaluation of that node does,
    # with everything that does not depend on the state (the primitive, its argument
    # checks, a declared name's value, a param) looked up once. A node that can only fail
    # (an unknown name) compiles to a closure that raises, so a branch never taken never
    # fails.

    def _compile(self, e: Expr, source: Source | None) -> Code:
        op = e.op
        if op in ("num", "str", "bool"):
            v = e.value
            return lambda env, s, an: v
        if op == "var":
            return self._compile_var(str(e.value), source)
        if op == "param":
            params = self.game.ruleset.params
            if e.value not in params:
                return _raises(f"unknown param {e.value!r}", source)
            pv = params[str(e.value)]
            return lambda env, s, an: pv
        subs = tuple(self._compile(a, source) for a in e.args)
        arity = 1 if op in ("not", "neg") else 2 if op in ("pair", "place", "index", "in") or op in _BINARY \
            else None
        if arity is not None and len(subs) != arity:  # IR read from a file may say anything
            return _raises(f"`{op}` takes {arity} operand(s), not {len(subs)}", source)
        if op == "list":
            items = _constant(e)
            if items is not _VARIES:  # (a fresh list each time: a rule's value is its own)
                return lambda env, s, an: list(items)
            return lambda env, s, an: [f(env, s, an) for f in subs]
        if op == "pair":  # (q, r): a hex of the board
            return self._compile_pair(subs, source)
        if op in ("place", "index", "in"):
            return places.compiled(self.game, op, e.value, subs, source)
        if op in ("and", "or"):
            return _connective(op, subs)
        if op == "not":
            (f,) = subs
            return lambda env, s, an: not f(env, s, an)
        if op == "neg":
            (f,) = subs
            return lambda env, s, an: -f(env, s, an)
        if op in _BINARY:
            return _binary(op, e.args[1], subs, source)
        if op == "call":
            return self._compile_call(str(e.value), subs, source, tuple(map(_constant, e.args)))
        return _raises(f"unknown expression {op!r}", source)

    def _compile_var(self, name: str, source: Source | None) -> Code:
        if name in self.names:
            declared = self.names[name]
            return lambda env, s, an: env[name] if name in env else declared

        def var(env: dict[str, Any], s: Any, an: Answers) -> Any:
            if name in env:
                return env[name]
            raise EngineError(f"unknown name {name!r}", source)
        return var

    def _compile_pair(self, subs: tuple[Code, ...], source: Source | None) -> Code:
        fq, fr = subs
        hex_index = self.game.board.hex_index

        def pair(env: dict[str, Any], s: Any, an: Answers) -> Any:
            q, r = fq(env, s, an), fr(env, s, an)
            k = hex_index.get((q, r), -1) if isinstance(q, int) and isinstance(r, int) else -1
            if k < 0:
                raise EngineError(f"there is no hex ({q}, {r}) on this board", source)
            return ["h", k]
        return pair

    def _compile_call(self, name: str, subs: tuple[Code, ...], source: Source | None,
                      constants: tuple[Any, ...]) -> Code:
        prim = PRIMITIVES.get(name)
        if prim is None:
            return _raises(f"unknown primitive {name}()", source)
        checks = self._checked.get(name)
        if checks is None:
            checks = self._checked[name] = tuple(
                (k, p, c) for k, p in enumerate(prim.params) if (c := _param_check(p, self.types)) is not None)
        # an argument written as a constant that passes its check passes it every time (a
        # check reads the value and the game only); one that fails is still refused when run
        checks = tuple((k, p, c) for k, p, c in checks
                       if k >= len(constants) or constants[k] is _VARIES or c(constants[k]))
        run = prim.run
        kind = prim.kind

        def arguments(env: dict[str, Any], s: Any, an: Answers) -> list[Any]:
            args = [f(env, s, an) for f in subs]
            if len(args) != len(prim.params):
                raise EngineError(f"{prim.signature()} takes {len(prim.params)} argument(s), not {len(args)}",
                                  source)
            for k, p, check in checks:
                why = check(args[k])
                if why:
                    raise EngineError(f"{name}(): `{p.name}` must be {why}", source)
            return args

        if kind == CHOICE or kind == RANDOM:
            # a site is answered by its id, and a rule reads it as a site ([kind, id])
            on = LOCATION_CODE.get(prim.returns or "")

            def pick(env: dict[str, Any], s: Any, an: Answers) -> Any:
                args = arguments(env, s, an)
                if an.next < len(an.values):
                    value = an.values[an.next]
                    an.next += 1
                    return [on, value] if on is not None else value
                if kind == RANDOM:  # chance picks: options are [value, weight] pairs
                    raise NeedChoice(name, CHANCE, [[v, w] for v, w in run(s, *args)])
                raise NeedChoice(name, int(args[0]), run(s, *args))
            return pick
        effect = kind != QUERY
        if len(subs) == len(prim.params) and len(subs) <= 2:
            return _direct_call(name, run, subs, checks, effect, source)

        def call(env: dict[str, Any], s: Any, an: Answers) -> Any:
            args = arguments(env, s, an)
            if effect and isinstance(s, BoardOnly):
                raise EngineError(f"{name}() changes the game; it cannot stand in a condition", source)
            return run(s, *args)
        return call


def _direct_call(name: str, run: Callable[..., Any], subs: tuple[Code, ...],
                 checks: tuple[tuple[int, Param, ArgumentTest], ...], effect: bool, source: Source | None) -> Code:
    """A query's or an effect's call of at most two arguments, written out: each argument
    evaluated, then checked (in order), then the primitive run; what the general call
    does, without its list of arguments."""
    by_position: list[tuple[str, ArgumentTest] | None] = [None] * len(subs)
    for k, p, check in checks:
        by_position[k] = (p.name, check)

    def refused(param: str, why: str) -> EngineError:
        return EngineError(f"{name}(): `{param}` must be {why}", source)

    def changes() -> EngineError:
        return EngineError(f"{name}() changes the game; it cannot stand in a condition", source)

    if not subs:
        def call0(env: dict[str, Any], s: Any, an: Answers) -> Any:
            if effect and isinstance(s, BoardOnly):
                raise changes()
            return run(s)
        return call0
    f0 = subs[0]
    n0, c0 = by_position[0] or ("", None)
    if len(subs) == 1:
        def call1(env: dict[str, Any], s: Any, an: Answers) -> Any:
            a0 = f0(env, s, an)
            if c0 is not None:
                why = c0(a0)
                if why:
                    raise refused(n0, why)
            if effect and isinstance(s, BoardOnly):
                raise changes()
            return run(s, a0)
        return call1
    f1 = subs[1]
    n1, c1 = by_position[1] or ("", None)

    def call2(env: dict[str, Any], s: Any, an: Answers) -> Any:
        a0, a1 = f0(env, s, an), f1(env, s, an)
        if c0 is not None:
            why = c0(a0)
            if why:
                raise refused(n0, why)
        if c1 is not None:
            why = c1(a1)
            if why:
                raise refused(n1, why)
        if effect and isinstance(s, BoardOnly):
            raise changes()
        return run(s, a0, a1)
    return call2


_VARIES = object()  # what `_constant` gives for an expression whose value is not fixed


def _constant(e: Expr) -> Any:
    """The value of a literal (a number, string or truth value, or a list of them), the
    same at every evaluation; else _VARIES."""
    if e.op in ("num", "str", "bool"):
        return e.value
    if e.op == "list" and all(a.op in ("num", "str", "bool") for a in e.args):
        return [a.value for a in e.args]
    return _VARIES


def _asks(e: Expr) -> bool:
    """Whether evaluating `e` may ask a choice or wait for chance (NeedChoice)."""
    todo = [e]
    while todo:
        x = todo.pop()
        if x.op == "call":
            prim = PRIMITIVES.get(str(x.value))
            if prim is not None and prim.kind in (CHOICE, RANDOM):
                return True
        todo.extend(x.args)
    return False


def _no_choice(nc: NeedChoice, source: Source | None) -> EngineError:
    asks = "is a chance event" if nc.player == CHANCE else "asks a player"
    return EngineError(f"{nc.primitive}() {asks}, which a condition or a measure "
                       "cannot do; use it inside the rule's effects", source)


def _raises(message: str, source: Source | None) -> Code:
    def fail(env: dict[str, Any], s: Any, an: Answers) -> Any:
        raise EngineError(message, source)
    return fail


def _connective(op: str, subs: tuple[Code, ...]) -> Code:
    """`and` / `or`: true or false, the operands evaluated left to right while they can
    still change the answer."""
    if len(subs) == 2:
        f0, f1 = subs
        if op == "and":
            return lambda env, s, an: bool(f0(env, s, an)) and bool(f1(env, s, an))
        return lambda env, s, an: bool(f0(env, s, an)) or bool(f1(env, s, an))
    if op == "and":
        return lambda env, s, an: all(f(env, s, an) for f in subs)
    return lambda env, s, an: any(f(env, s, an) for f in subs)


def _binary(op: str, right: Expr, subs: tuple[Code, ...], source: Source | None) -> Code:
    """A comparison or arithmetic: a TypeError of Python is an EngineError of the rule, and
    arithmetic stays within MAX_VALUE."""
    fa, fb = subs
    fn = _BINARY[op]

    def failed(a: Any, b: Any) -> EngineError:
        return EngineError(f"cannot apply {op} to {a!r} and {b!r}", source)

    if op in _ARITHMETIC:
        def arithmetic(env: dict[str, Any], s: Any, an: Answers) -> Any:
            a, b = fa(env, s, an), fb(env, s, an)
            try:
                value = fn(a, b)
            except TypeError:
                raise failed(a, b) from None
            if not -MAX_VALUE <= value <= MAX_VALUE:
                raise EngineError(f"a number in this rule passed {MAX_VALUE:,} ({a} {op} {b})", source)
            return value
        return arithmetic
    if right.op in ("num", "str", "bool"):  # `roll == 7`: the constant read once
        b = right.value

        def against(env: dict[str, Any], s: Any, an: Answers) -> Any:
            a = fa(env, s, an)
            try:
                return fn(a, b)
            except TypeError:
                raise failed(a, b) from None
        return against

    def compare(env: dict[str, Any], s: Any, an: Answers) -> Any:
        a, b = fa(env, s, an), fb(env, s, an)
        try:
            return fn(a, b)
        except TypeError:
            raise failed(a, b) from None
    return compare
