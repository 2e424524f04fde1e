"""The closed set of events and primitives a `.catan` rule may name, each declared once.

A primitive is a Python function in one of the topic modules of `catandsl.rules`,
registered by a decorator that carries everything else about it:

    @effect("player: player, resource: resource, count: int >= 0", writes=HANDS)
    def take_from_bank(s: State, player: int, resource: str, count: int) -> None:
        '''The player takes up to `count` of a resource from the bank.'''

- its **signature** in the language's types (checked against the function's own
  parameters when the module is imported); an `int` may carry a range (`>= 0`,
  `1..100`) that every call is held to, at compile time for literals and when the rule
  runs for computed values;
- what it **reads** (a query) or **writes** (an effect), in the coarse parts of the game
  below: an award's measure is re-evaluated only when an action or effect wrote a part
  it reads. An effect must say what it writes (too little would leave an award stale);
  a query that says nothing reads EVERYTHING, which costs speed, never correctness;
- its **doc**: the first paragraph of the docstring, which `docs/language.md` shows;
- its **implementation**: the function, called with the state and the evaluated
  arguments (players as seat numbers, resources, pieces, cards and tokens as their
  names, sites as `[code, id]` lists, see `base.Location`).

The compiler checks calls against `PRIMITIVES`, the engine dispatches through it, and
the docs table is generated from it; nothing is ever looked up by a user-given
attribute name. Types are short strings: int, bool, str, player, hex, intersection,
path, site (any of hex, intersection, path), seat (a player or a neutral seat), island, area
(a map's `area`), resource, terrain, piece, card, award, token (a declared `token`), site_kind
(a declared `site`), project, deck, event (an event of a roll card), measure (a declared `measure`),
die (a die the dice name), list<T>, any.
"""

from __future__ import annotations

import ast
import inspect
import re
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

EFFECT = "effect"  # changes the game; a statement
QUERY = "query"  # reads the game; an expression
CHOICE = "choice"  # asks a player; an expression whose value the player picks
RANDOM = "random"  # a chance event inside a rule; an expression whose value chance picks

# The coarse parts of a game, for `reads` and `writes`.
HANDS, BOARD, CARDS, TOKENS, ISLANDS, NEUTRAL, FLOW = (
    "hands", "board", "cards", "tokens", "islands", "neutral", "flow")
EVERYTHING = frozenset((HANDS, BOARD, CARDS, TOKENS, ISLANDS, NEUTRAL, FLOW))
STATIC: frozenset[str] = frozenset()  # the board's geometry only: never changes
# Each part as a bit, so the engine tracks what an action wrote as one int (`bits`).
PART_BITS = {part: 1 << k for k, part in enumerate(sorted(EVERYTHING))}


def bits(parts: frozenset[str]) -> int:
    """The parts as an int, one bit each (PART_BITS)."""
    out = 0
    for part in parts:
        out |= PART_BITS[part]
    return out


@dataclass(frozen=True)
class Param:
    """A parameter of a primitive or event: its name, type and range."""

    name: str
    type: str
    low: int | None = None  # an int's range, both ends included
    high: int | None = None

    def admits(self, value: Any) -> bool:
        """Whether an evaluated value lies in this parameter's range (ints only)."""
        if self.low is None and self.high is None:
            return True
        if not isinstance(value, int) or isinstance(value, bool):
            return False
        return (self.low is None or value >= self.low) and (self.high is None or value <= self.high)

    def range_text(self) -> str:
        if self.low is not None and self.high is not None:
            return f"{self.low}..{self.high}"
        if self.low is not None:
            return f">= {self.low}"
        return f"<= {self.high}" if self.high is not None else ""

    def __str__(self) -> str:
        rng = self.range_text()
        return f"{self.name}: {self.type}" + (f" {rng}" if rng else "")


@dataclass(frozen=True)
class Primitive:
    """A query or effect a rule may call: its signature, what it reads and writes, its doc."""

    name: str
    kind: str
    params: tuple[Param, ...]
    returns: str | None
    reads: frozenset[str]
    writes: frozenset[str]
    doc: str
    # an effect or query: the implementation; a choice: the options the player picks from;
    # a random value: the values with their weights
    run: Callable[..., Any]
    # a choice or a random value: the action that answers it, whose one field is the value
    answer: type | None = None
    # an effect: why it can do nothing now (`fn(state, *args)`, "" when it can), so a card
    # or an action whose rule calls it unconditionally is refused before anything is paid
    refuses: Callable[..., str] | None = None
    # the kind of piece its `pieces` argument names (NEUTRAL_PIECES or PLAYER_PIECES), so
    # a literal list of the other kind is refused when the scenario compiles
    pieces: str | None = None

    def signature(self) -> str:
        return f"{self.name}({', '.join(map(str, self.params))})"


@dataclass(frozen=True)
class Event:
    """An event a hook may react to: its parameters and its filter."""

    name: str
    params: tuple[Param, ...]
    filter: str | None  # the parameter a filter `on built(settlement)` compares with
    filter_type: str | None
    doc: str


PRIMITIVES: dict[str, Primitive] = {}
# what a primitive's `pieces` argument names (`Primitive.pieces`)
NEUTRAL_PIECES, PLAYER_PIECES = "neutral", "player's"

_PARAM = re.compile(
    r"\s*(?P<name>[a-z_][a-z0-9_]*)\s*:\s*(?P<type>[a-z_]+(?:<[a-z_]+>)?)"
    r"\s*(?:(?P<lo>-?\d+)\.\.(?P<hi>-?\d+)|>=\s*(?P<min>-?\d+)|<=\s*(?P<max>-?\d+))?\s*$")


def parse_params(spec: str) -> tuple[Param, ...]:
    """`"player: player, count: int >= 0"` -> Params. Raises ValueError on a typo, so a
    bad registration fails when its module is imported."""
    out = []
    for part in (p for p in spec.split(",") if p.strip()):
        m = _PARAM.match(part)
        if m is None:
            raise ValueError(f"bad parameter {part.strip()!r}")
        lo = m["lo"] if m["lo"] is not None else m["min"]
        hi = m["hi"] if m["hi"] is not None else m["max"]
        if (lo is not None or hi is not None) and m["type"] != "int":
            raise ValueError(f"a range is for ints, not {m['type']} ({part.strip()!r})")
        out.append(Param(m["name"], m["type"], None if lo is None else int(lo),
                         None if hi is None else int(hi)))
    return tuple(out)


def _doc(fn: Callable[..., Any]) -> str:
    text = inspect.getdoc(fn) or _source_doc(fn)
    first = text.split("\n\n")[0]
    return " ".join(first.split())


def _source_doc(fn: Callable[..., Any]) -> str:
    """The docstring of a function compiled to C (the optional compiled build,
    scripts/build_compiled.py), which keeps only its signature: read from its module's
    source beside the extension."""
    module = sys.modules.get(fn.__module__)
    where = Path(getattr(module, "__file__", None) or ".")
    if where.suffix == ".py" or not where.with_name(where.name.split(".")[0] + ".py").is_file():
        return ""
    tree = _SOURCES.get(where)
    if tree is None:
        source = where.with_name(where.name.split(".")[0] + ".py").read_text(encoding="utf-8")
        tree = _SOURCES[where] = ast.parse(source)
    for node in tree.body:
        if isinstance(node, ast.FunctionDef) and node.name == fn.__name__:
            return inspect.cleandoc(ast.get_docstring(node) or "")
    return ""


_SOURCES: dict[Path, ast.Module] = {}


def _register(kind: str, signature: str, returns: str | None, reads: frozenset[str],
              writes: frozenset[str], answer: type | None = None, name: str | None = None,
              refuses: Callable[..., str] | None = None, pieces: str | None = None):
    params = parse_params(signature)
    if pieces is not None and (pieces not in (NEUTRAL_PIECES, PLAYER_PIECES) or
                               not any(p.name == "pieces" and p.type == "list<piece>" for p in params)):
        raise ValueError(f"`pieces={pieces!r}` needs a `pieces: list<piece>` parameter and "
                         f"{NEUTRAL_PIECES!r} or {PLAYER_PIECES!r}")

    def register(fn: Callable[..., Any]) -> Callable[..., Any]:
        key = name or fn.__name__.rstrip("_")
        declared = [p.name for p in params]
        actual = list(inspect.signature(fn).parameters)[1:]  # after the state
        if declared != actual:
            raise ValueError(f"primitive {key}: signature {declared} but the function takes {actual}")
        if key in PRIMITIVES:
            raise ValueError(f"primitive {key} is registered twice")
        doc = _doc(fn)
        if not doc:
            raise ValueError(f"primitive {key} has no docstring")
        PRIMITIVES[key] = Primitive(key, kind, params, returns, frozenset(reads),
                                    frozenset(writes), doc, fn, answer, refuses, pieces)
        return fn

    return register


Parts = frozenset[str] | tuple[str, ...] | str  # one part or several


def effect(signature: str, *, writes: Parts, reads: Parts = EVERYTHING, name: str | None = None,
           refuses: Callable[..., str] | None = None, pieces: str | None = None):
    """Register an effect: a statement that changes the parts of the game in `writes`.
    `refuses(state, *args)` says why it can do nothing now ("" when it can): a card
    played or an action taken whose rule calls it unconditionally is then refused before
    anything is paid (`Interpreter.unable`). `pieces` (NEUTRAL_PIECES or PLAYER_PIECES):
    the kind of piece its `pieces` list takes, checked when a scenario compiles."""
    return _register(EFFECT, signature, None, _parts(reads), _parts(writes), name=name, refuses=refuses,
                     pieces=pieces)


def query(signature: str, *, returns: str, reads: Parts = EVERYTHING, name: str | None = None,
          pieces: str | None = None):
    """Register a query: an expression that reads the parts of the game in `reads`
    (`pieces` as for `effect`)."""
    return _register(QUERY, signature, returns, _parts(reads), frozenset(), name=name, pieces=pieces)


def choice(signature: str, *, returns: str, answer: type, name: str | None = None):
    """Register a choice: the player named by the first argument picks one of the values
    the function returns (`fn(state, *args)`), with an `answer` action whose one field
    is the value picked."""
    return _register(CHOICE, signature, returns, STATIC, frozenset(), answer, name=name)


def random_value(signature: str, *, returns: str, answer: type, name: str | None = None):
    """Register a random value: the function returns each value with its weight
    (`[(value, weight), ...]`); the rule waits at a chance node whose outcomes are the
    `answer` actions (one field: the value), with probabilities weight / total."""
    return _register(RANDOM, signature, returns, STATIC, frozenset(), answer, name=name)


def _parts(p: Parts) -> frozenset[str]:
    return frozenset((p,)) if isinstance(p, str) else frozenset(p)


def reads(name: str) -> frozenset[str]:
    """What a primitive reads; an unknown name reads everything (safe for awards)."""
    p = PRIMITIVES.get(name)
    return p.reads if p is not None else EVERYTHING


def writes(name: str) -> frozenset[str]:
    p = PRIMITIVES.get(name)
    return p.writes if p is not None else EVERYTHING


def compatible(expected: str, actual: str) -> bool:
    """Whether a value of type `actual` may stand where `expected` is asked for."""
    if expected == actual or "any" in (expected, actual):
        return True
    if expected == "site" and actual in ("hex", "intersection", "path"):
        return True
    if actual == "site" and expected in ("hex", "intersection", "path"):
        return True  # checked when the rule runs
    if {expected, actual} == {"seat", "player"}:
        return True  # a player is a seat; a seat passed as a player is checked when the rule runs
    if expected.startswith("list<") and actual.startswith("list<"):
        return compatible(expected[5:-1], actual[5:-1])
    return False


# ---- events ----------------------------------------------------------------------------


def _e(name: str, params: str, filter_: str | None = None, filter_type: str | None = None,
       doc: str = "") -> Event:
    return Event(name, parse_params(params), filter_, filter_type, doc)


EVENTS: dict[str, Event] = {
    e.name: e
    for e in [
        _e("game_started", "", doc="once, before the set-up"),
        _e("setup_ended", "", doc="once, when the last set-up step is done"),
        _e("turn_started", "player: player", doc="at the start of each regular turn"),
        _e("dice_rolled", "player: player, roll: int", "roll", "int",
           doc="after the dice; `roll` is their total"),
        _e("card_revealed", "player: player, event: event, roll: int", "event", "event",
           doc="when a roll card (`roll_cards`) with an event is revealed, before the roll's "
               "own hooks (production): `roll` is its total"),
        _e("built", "player: player, piece: piece, at: site, free: bool, by: player", "piece", "piece",
           doc="after a piece is placed (bought, free, or in the set-up): `player` is its owner, `free` "
               "whether it cost nothing (the set-up, `build_free`, `build_free_for`), `by` who placed it "
               "(the owner, or the player who built it for a neutral seat)"),
        _e("collected", "player: player, piece: piece, at: site", "piece", "piece",
           doc="after a set-up `collect last` pays for the piece at `at` (terrains that "
               "produce a fixed resource; a terrain that `produces choice` is left to rules)"),
        _e("moved", "player: player, piece: piece, from: site, at: site", "piece", "piece",
           doc="after a piece is moved (robber, pirate, ship)"),
        _e("traveled", "player: player, piece: piece, from: path, at: path", "piece", "piece",
           doc="after a step of a travelling piece (a wagon) from path `from` onto path `at`"),
        _e("card_bought", "player: player, card: card", "card", "card",
           doc="after a development card is bought"),
        _e("card_played", "player: player, card: card", "card", "card",
           doc="when a development card is played; `on play` inside a card means this"),
        _e("action_taken", "player: player, action: action", "action", "action",
           doc="when a player takes a scenario's own action; `on take` inside an `action` means this"),
        _e("stage_built", "player: player, project: project, level: int", "project", "project",
           doc="after a player buys a stage of a project; `level` is the stages built now"),
        _e("traded", "player: player", doc="after a trade by the active player"),
        _e("turn_ended", "player: player", doc="when the active player ends the turn"),
        _e("revealed", "player: player, terrain: terrain, at: hex", "terrain", "terrain",
           doc="after a face-down hex is turned up by `reveal(player, at)`; `terrain` is the "
               "tile found (its number is `number(at)`)"),
        _e("site_reached", "player: player, site: site_kind, at: intersection", "site", "site_kind",
           doc="when a route of the player's path pieces (a road, a ship, or a moved ship) "
               "joined to one of their buildings first reaches a site of this kind at `at`; "
               "from then on the player trades with that site"),
    ]
}
