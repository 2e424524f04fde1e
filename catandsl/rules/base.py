"""What every rule module builds on: actions, prompts, turn activities, sites and errors.

- An **action** is a frozen dataclass with a stable JSON form (`kind` plus its fields).
  Each kind registers itself by its `KIND`; the engine numbers every action a game can
  offer through one sorted table (see engine/game.py).
- A **prompt** is a pending decision (or chance event) that interrupts the flow: a
  discard, moving the robber, choosing whom to rob, an offer waiting for answers... It
  is a small mutable dataclass on the state's `pending` stack, with its own `actor`,
  `legal` actions and `apply`. `step` lets a prompt settle itself without a decision
  (an empty discard lapses); `chance` prompts answer `outcomes` instead of `legal`.
- An **activity** is one thing a phase of the turn allows (`trade`, `build`, ...): the
  actions it offers the active player and how each is applied.

Rule modules never import the engine: they reach the running game only through the
`State` they are given (rules/play.py: its data, `s.game`'s static tables, `s.emit`,
`s.push`), so the compiler can read the registry without loading the engine.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Callable, Iterable, Sequence
from dataclasses import MISSING, dataclass, fields
from operator import attrgetter
from typing import Any, ClassVar

# (the errors, re-exported: they live apart so that the compiled build leaves them pure)
from catandsl.rules.errors import ACTION_CODES as ACTION_CODES
from catandsl.rules.errors import ArgumentError as ArgumentError
from catandsl.rules.errors import EngineError as EngineError
from catandsl.rules.errors import IllegalAction as IllegalAction
from catandsl.rules.play import Game, State, Told
from catandsl.rules.registry import EVERYTHING

CHANCE = -1  # current_player() at a chance node
TERMINAL = -4  # current_player() when the game is over

# ---- locations ---------------------------------------------------------------------------

# A location in a rule (any spot of the board; the language's type `site`): [code, id]
# with code "h" (hex), "i" (intersection) or "p" (path). A declared market is a `site`
# (rules/sites.py), which stands on a location.
Location = list
LOCATION_CODE = {"intersection": "i", "path": "p", "hex": "h"}


def location(kind: str, k: int) -> Location:
    """The location of spot k of this kind (intersection, path or hex) as a rule's value."""
    return [LOCATION_CODE[kind], k]


def hexes_of(game: Game, at: Location) -> tuple[int, ...]:
    """The hexes a site touches: a hex itself, an intersection's three, a path's two."""
    b = game.board
    code, k = at
    if code == "h":
        return (k,)
    return b.corner_hexes[k] if code == "i" else b.path_hexes[k]


def paths_next_to(game: Game, k: int) -> list[int]:
    """The paths that share an end with path k, ascending (a wagon's next steps, the
    paths "in front of" it)."""
    b = game.board
    return sorted({x for c in b.path_ends[k] for x in b.corner_paths[c] if x != k})


class SiteIds:
    """Per piece kind, the action ids of putting it on each site it may stand on (for a
    neutral piece: of moving it there), in the order of its sites (`PieceInfo.allowed`,
    ascending), listed the first time they are asked for: a list the size of the board,
    sliced in play, never rebuilt."""

    def __init__(self, game: Game):
        self._game = game
        self._of: dict[int, tuple[int, ...]] = {}

    @classmethod
    def build(cls, game: Game) -> SiteIds:
        return cls(game)

    def of(self, pi: int) -> tuple[int, ...]:
        ids = self._of.get(pi)
        if ids is None:
            g = self._game
            ids = self._of[pi] = tuple(map(g.build_id[pi].__getitem__, g.pieces[pi].allowed))
        return ids


def ids_on_sites(game: Game, pi: int) -> tuple[int, ...]:
    """`SiteIds` of piece kind pi on the game's board as it is (on a board whose hexes
    changed a piece may stand elsewhere: its ids are listed afresh)."""
    if game is game.base:
        return game.lookups(SiteIds).of(pi)
    return tuple(map(game.build_id[pi].__getitem__, game.pieces[pi].allowed))


def all_but(values: Sequence[int], sites: Sequence[int], left_out: Iterable[int]) -> list[int]:
    """`values` (one for each of `sites`, ascending) without those of the sites
    `left_out` (ascending, each one of `sites`): copied in slices, not item by item."""
    out: list[int] = []
    start = 0
    for k in left_out:
        i = bisect_left(sites, k, start)
        out += values[start:i]
        start = i + 1
    out += values[start:]
    return out


# ---- actions -----------------------------------------------------------------------------

ACTIONS: dict[str, type[Action]] = {}


@dataclass(frozen=True, order=True)
class Action:
    """A player's move or a chance outcome, as a value: its kind and its arguments."""

    KIND: ClassVar[str] = "action"
    # the parts of the game (registry.HANDS, BOARD, ...) the action changes by itself,
    # besides what the hooks it triggers write; the safe default is all of them
    WRITES: ClassVar[frozenset[str]] = EVERYTHING
    # True for a kind that changes the deciding prompt alone (a draft's cards, an answer to
    # an offer) and no field of the state but the count of actions applied: an observer
    # that saw the state just before need not read its fields again (State._writes)
    PROMPT_ONLY: ClassVar[bool] = False
    # the kind of site its `at` field names, when it has one and no piece says it
    SITE: ClassVar[str | None] = None
    # the heading its buttons are listed under, in rulebook words ("Trade with the bank"):
    # every kind declares one, as it declares its `words`
    HEADING: ClassVar[str]
    # the kind whose group it is listed in, under that kind's heading (an offer's decline
    # beside its accept), when not its own
    LISTED_WITH: ClassVar[str | None] = None

    def __init_subclass__(cls, **kw: Any) -> None:
        super().__init_subclass__(**kw)
        if cls.KIND in ACTIONS and ACTIONS[cls.KIND] is not cls:
            raise ValueError(f"action kind {cls.KIND!r} is declared twice")
        if "words" not in vars(cls):  # every kind says in rulebook words what it does
            raise TypeError(f"action kind {cls.KIND!r} has no `words`")
        if not isinstance(getattr(cls, "HEADING", None), str):  # and the heading it is listed under
            raise TypeError(f"action kind {cls.KIND!r} has no `HEADING`")
        ACTIONS[cls.KIND] = cls

    def words(self, told: Told) -> str:
        """This action in rulebook words (rules/words.py): a phrase with its verb first,
        in the base form (`build a road on ...`), as `told.viewer` may read it (a card
        drawn or stolen is named only to those who may see it)."""
        raise NotImplementedError

    def listed_under(self) -> tuple[str, str]:
        """The group of buttons it is listed in: the group's key (its kind, its
        `LISTED_WITH`, or a finer one, `build:road`) and the group's heading."""
        return self.LISTED_WITH or self.KIND, self.HEADING

    def to_json(self) -> dict:
        out: dict = {"kind": self.KIND}
        for f in fields(self):
            out[f.name] = getattr(self, f.name)
        return out

    def absent(self, game: Game) -> str:
        """Why the game has no such action, for an action of a kind it knows but with
        fields no game of its board could take ("" when this kind cannot say)."""
        return ""

    def key(self) -> tuple:
        """(KIND, fields...): what the game's action table is sorted by."""
        get = _KEYS.get(type(self))
        if get is None:
            get = _KEYS[type(self)] = _key_of(type(self))
        return get(self)


# per action kind, its key function (fields() is slow, and a game sorts every action)
_KEYS: dict[type[Action], Callable[[Action], tuple]] = {}


def _key_of(cls: type[Action]) -> Callable[[Action], tuple]:
    names = tuple(f.name for f in fields(cls))
    kind = cls.KIND
    if not names:
        return lambda a: (kind,)
    if len(names) == 1:
        one = attrgetter(names[0])
        return lambda a: (kind, one(a))
    many = attrgetter(*names)
    return lambda a: (kind,) + many(a)


# Every action a game can offer comes from one of these, each `game -> actions`: the
# engine lists them all once, sorted, to number them (engine/game.py).
ACTION_SOURCES: list[Callable[[Game], Iterable[Action]]] = []


def action_source(fn: Callable[[Game], Iterable[Action]]) -> Callable[[Game], Iterable[Action]]:
    ACTION_SOURCES.append(fn)
    return fn


def ids_of_kind(game: Game, kind: type[Action]) -> range:
    """The ids of every action of one kind: a run of the action table, which is sorted
    by kind first (found by bisection, not by reading the table through)."""
    acts = game.actions
    return range(bisect_left(acts, kind.KIND, key=_kind_of), bisect_right(acts, kind.KIND, key=_kind_of))


def _kind_of(a: Action) -> str:
    return a.KIND


def rules_call(game: Game, name: str) -> bool:
    """Whether a rule statement of the game calls the primitive `name` (a game numbers
    the outcomes of a random value only when its rules use it)."""
    todo = [e.expr for e in game.effects if e.expr is not None]
    while todo:
        x = todo.pop()
        if x.op == "call" and x.value == name:
            return True
        todo.extend(x.args)
    return False


def action_from_json(data: Any) -> Action:
    """An action from its JSON form; ValueError for anything that is not one."""
    if not isinstance(data, dict) or not isinstance(data.get("kind"), str):
        raise ValueError("an action is an object with a string `kind`")
    data = dict(data)
    kind = data.pop("kind")
    cls = ACTIONS.get(kind)
    if cls is None or cls is Action:
        raise ValueError(f"unknown action kind {kind!r}")
    names = {f.name: f.type for f in fields(cls)}
    optional = {f.name for f in fields(cls) if f.default is not MISSING}  # may be left out
    if not set(names) - optional <= set(data) <= set(names):
        raise ValueError(f"action {kind!r} takes {sorted(names) or 'no fields'}, not {sorted(data)}")
    for k, v in data.items():
        if names[k] in ("tuple[int, ...]", tuple[int, ...]):  # a die's faces: a list in JSON
            if not isinstance(v, list) or not all(isinstance(x, int) and not isinstance(x, bool) for x in v):
                raise ValueError(f"action {kind!r}: {k} must be a list of integers")
            data[k] = tuple(v)
            continue
        want = int if names[k] in ("int", int) else str
        if not isinstance(v, want) or isinstance(v, bool):
            raise ValueError(f"action {kind!r}: {k} must be {want.__name__}")
    return cls(**data)


# ---- static tables ---------------------------------------------------------------------
#
# A rule module keeps what it computes once per game (action ids by resource, trade
# rates...) in a frozen dataclass of its own with a `build(game)` classmethod;
# `game.lookups(Cls)` builds it on first use and keeps it. So a module adds tables without
# touching the engine.

# ---- prompts -----------------------------------------------------------------------------

PROMPTS: dict[str, type[Prompt]] = {}


class Prompt:
    """A pending decision or chance event on the state's `pending` stack.

    Subclasses are dataclasses with plain fields (ints, strings, lists of them); their
    JSON form is `{"kind": KIND, field: value, ...}`. A subclass overrides what applies:
    a decision answers `actor` and `legal`; a chance event sets `chance` and answers
    `outcomes`; both `apply` an action, popping themselves when they are done.
    """

    KIND: ClassVar[str] = "prompt"
    chance: ClassVar[bool] = False
    # `legal` gives its ids ascending already (else the turn interpreter sorts them)
    legal_sorted: ClassVar[bool] = False
    # `step` is Prompt's own: the prompt never settles without a decision (set for each
    # subclass, so the turn interpreter need not call it)
    waits: ClassVar[bool] = True

    def __init_subclass__(cls, **kw: Any) -> None:
        super().__init_subclass__(**kw)
        cls.waits = cls.step is Prompt.step
        if "KIND" in vars(cls):
            if cls.KIND in PROMPTS and PROMPTS[cls.KIND] is not cls:
                raise ValueError(f"prompt kind {cls.KIND!r} is declared twice")
            PROMPTS[cls.KIND] = cls

    def step(self, s: State) -> bool:
        """Settle without a decision if there is nothing to decide (pop and return
        True); False while the prompt waits for an action."""
        return False

    def actor(self, s: State) -> int:
        raise NotImplementedError

    def legal(self, s: State) -> list[int]:
        raise NotImplementedError

    def outcomes(self, s: State) -> list[tuple[int, float]]:
        return []

    def apply(self, s: State, act: Action) -> None:
        raise NotImplementedError

    def refusal(self, s: State, act: Action) -> IllegalAction | None:
        """A more precise reason than "not legal now" for an action this prompt refuses."""
        return None

    def lifted(self) -> tuple[int, int] | None:
        """(player, piece kind) of a piece this prompt holds off the board (a ship being
        moved): still the player's, counted among their placed pieces."""
        return None

    def check(self, game: Game) -> str:
        """What is wrong with a prompt read from a serialized state ("" if nothing): its
        fields' types here; subclasses add the ranges (seats, piece kinds, ids)."""
        for f in fields(self):  # type: ignore[arg-type]  # every prompt is a dataclass
            v = getattr(self, f.name)
            want = _CHECKS.get(str(f.type))
            if want is not None and not want(v):
                return f"{f.name} must be {f.type}, not {v!r}"
        return ""

    def copy(self) -> Prompt:
        out = object.__new__(type(self))
        for f in fields(self):  # type: ignore[arg-type]  # every prompt is a dataclass
            v = getattr(self, f.name)
            object.__setattr__(out, f.name, _copy(v))
        return out

    def to_json(self) -> dict:
        out: dict = {"kind": self.KIND}
        for f in fields(self):  # type: ignore[arg-type]
            out[f.name] = _copy(getattr(self, f.name))
        return out

    def seen_by(self, player: int) -> dict:
        """Its JSON form as `player` may see it (`state.observation`): a prompt holding
        another seat's secret (a draft of a trade offer) shows None in its place."""
        return self.to_json()


@dataclass
class CardByCard(Prompt):
    """Several players give or take resource cards one per action, in turn: `owed` is
    [[player, cards still to go], ...] (a discard, a gold choice). A subclass says what one
    card does (`move`) and may end the round early (`done`)."""

    owed: list[list[int]]

    def check(self, game: Game) -> str:
        if not all(len(e) == 2 and seats_ok(game, e[0]) and e[1] >= 0 for e in self.owed):
            return "owed must be [[player, count >= 0], ...]"
        return super().check(game)

    def done(self, s: State) -> bool:
        for _, n in self.owed:
            if n:
                return False
        return True

    def step(self, s: State) -> bool:
        if self.done(s):
            s.pending.pop()
            return True
        return False

    def actor(self, s: State) -> int:
        return next(p for p, n in self.owed if n > 0)

    def move(self, s: State, player: int, r: int) -> None:
        raise NotImplementedError

    def apply(self, s: State, act: Action) -> None:
        r = s.game.res_index[act.resource]  # type: ignore[attr-defined]  # Discard, ChooseResource
        entry = next(e for e in self.owed if e[1] > 0)
        self.move(s, entry[0], r)
        entry[1] -= 1
        self.step(s)


def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


_CHECKS: dict[str, Callable[[Any], bool]] = {
    "int": _is_int,
    "bool": lambda v: isinstance(v, bool),
    "str": lambda v: isinstance(v, str),
    "list[int]": lambda v: isinstance(v, list) and all(_is_int(x) for x in v),
    "list[str]": lambda v: isinstance(v, list) and all(isinstance(x, str) for x in v),
    "list[list[int]]": lambda v: isinstance(v, list) and all(
        isinstance(x, list) and all(_is_int(y) for y in x) for x in v),
    "list[Any]": lambda v: isinstance(v, list),
    "dict[str, Any]": lambda v: isinstance(v, dict),
}


def seats_ok(game: Game, *seats: int) -> bool:
    return all(0 <= p < game.num_players for p in seats)


def _copy(v: Any) -> Any:
    if isinstance(v, list):
        return [_copy(x) for x in v]
    if isinstance(v, dict):
        return {k: _copy(x) for k, x in v.items()}
    return v


# ---- activities ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Activity:
    """One thing a phase of the turn may allow (`phase main { trade; build; move ship }`).

    `legal(state, player, names)` gives the action ids it offers now, `names` being the
    names the phase restricts it to (None: all), as a list its callers only read (an
    activity may hand out a list it keeps); `applies` maps each action kind it
    owns to its apply function `(state, player, action)`. `names` says what a phase may
    name after it ("piece", "deck", "trade", or None for nothing), and `subject` which
    of those names an action concerns; `refusal` may explain an action it refuses.

    `asks(state, player, names)`, where given, says whether a roll phase asks the player
    to choose before the dice even when `legal` offers nothing: a test on what every
    seat may see (cards held, not which), true whenever `legal` could offer something,
    so that whether the player is asked tells the others nothing hidden."""

    name: str
    doc: str
    legal: Callable[[State, int, frozenset[str] | None], list[int]]
    applies: dict[type[Action], Callable[[State, int, Any], None]]
    names: str | None = None
    subject: Callable[[Game, Any], str] | None = None
    refusal: Callable[[State, int, Any], IllegalAction | None] | None = None
    asks: Callable[[State, int, frozenset[str] | None], bool] | None = None


ACTIVITIES: dict[str, Activity] = {}


def activity(a: Activity) -> Activity:
    if a.name in ACTIVITIES:
        raise ValueError(f"activity {a.name!r} is declared twice")
    ACTIVITIES[a.name] = a
    return a
