"""Hexes that lie face down and hexes that change in play.

A map's `pool NAME hidden [...] cover TERRAIN` is a face-down stack: the hexes that take
from it lie face down, counting as the cover terrain for every query and placement
rule, until a rule reveals one (`reveal(player, at)`). Revealing is a chance node: the
tile is drawn from what is left of the stack, each kind as likely as its count, then
(a producing tile, with tokens left in a `numbers hidden [...] onto [NAME]` stack) its
number token the same way, among the tokens the plan lets lie there
(`hidden_choices`: its `keep ... off`, `avoid_adjacent` and `skip`). So
the state never holds a face-down hex's answer, and nothing leaks to an observer. Then
the event `revealed` runs, so rules can pay for a discovery. `set_terrain` and
`set_number` change a face-up hex.

State data: `face_down` (hex ids still face down, ascending), `hidden_tiles` ([hidden
pool][terrain] tiles left in each stack), `hidden_numbers` ([hidden pool][number 0..12]
tokens left), `hex_changes` ([[hex, terrain, number], ...]: each hex whose terrain or
number differs from the board as dealt, in the order the hexes first changed).

The engine reads a changed board the way it reads the dealt one: a state's `game` is
the game on the board its `hex_changes` make (`Game.with_hexes`), whose flat tables
and pieces' sites are derived once per set of changes and kept. A game whose map has
no hidden pool and whose rules never change a hex has none of this to do.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from catandsl.rules import words as w
from catandsl.rules.base import Action, EngineError, Location, Prompt, action_source, ids_of_kind, seats_ok
from catandsl.rules.play import Game, HexChange, State
from catandsl.rules.registry import BOARD, FLOW, STATIC, effect, query

if TYPE_CHECKING:
    from catandsl.ir.model import Effect, Expr, NumberPlan
    from catandsl.ir.ruleset import Ruleset

NUMBERS = 13  # number tokens are 2..12; a stack counts them by value
CHANGES = ("reveal", "set_terrain", "set_number")


def changeable(rs: Ruleset) -> bool:
    """Whether a hex of this game may change: its map has a hidden pool, or a rule calls
    `set_terrain` or `set_number`. Only then do pieces' sites follow the board."""
    if rs.map is not None and any(p.hidden for p in rs.map.pools):
        return True
    todo: list[Effect] = [e for rule in rs.rules for h in rule.hooks for e in h.effects]
    exprs: list[Expr] = []
    while todo:
        e = todo.pop()
        todo.extend(e.body)
        todo.extend(e.orelse)
        if e.expr is not None:
            exprs.append(e.expr)
    while exprs:
        x = exprs.pop()
        if x.op == "call" and x.value in CHANGES:
            return True
        exprs.extend(x.args)
    return False


@dataclass(frozen=True)
class HexLookups:
    """The face-down hexes, their pools' stacks and the reveal actions' ids."""

    pools: tuple[str, ...]  # the hidden pools, in map order
    tiles: tuple[tuple[int, ...], ...]  # [pool][terrain] tiles in the stack at the start
    numbers: tuple[tuple[int, ...], ...]  # [pool][number] tokens in the stack at the start
    face_down: tuple[int, ...]  # the hexes face down at the start, ascending
    pool_of: dict[int, int]  # face-down hex -> its pool
    tile_id: dict[str, int]  # terrain -> the RevealTile action id
    number_id: dict[int, int]  # number -> the RevealNumber action id
    plans: tuple[NumberPlan | None, ...]  # [pool] its stack's plan (`keep`, `avoid_adjacent`, `skip`)

    @classmethod
    def build(cls, game: Game) -> HexLookups:
        b, m = game.board, game.ruleset.map
        pools = tuple(p for p in (m.pools if m is not None else ()) if p.hidden)
        index = {p.name: k for k, p in enumerate(pools)}
        terrain = {name: k for k, name in enumerate(b.terrain_names)}
        tiles, numbers, plans = [], [], []
        for p in pools:
            row = [0] * len(b.terrain_names)
            for a in p.tiles:
                row[terrain[a.name]] += a.count
            tiles.append(tuple(row))
            stack = [0] * NUMBERS
            plan = next((n for n in (m.numbers if m is not None else ())
                         if n.method == "hidden" and n.onto == (p.name,)), None)
            for t in plan.tokens if plan is not None else ():
                stack[t.value] += 1
            numbers.append(tuple(stack))
            plans.append(plan)
        pool_of = {}
        for h, at in enumerate(b.hexes):
            name = b.tiles[at].pool
            if name in index:
                pool_of[h] = index[name]
        acts = game.actions
        return cls(tuple(p.name for p in pools), tuple(tiles), tuple(numbers), tuple(sorted(pool_of)),
                   pool_of, {acts[k].terrain: k for k in ids_of_kind(game, RevealTile)},
                   {acts[k].number: k for k in ids_of_kind(game, RevealNumber)},
                   tuple(plans))


@dataclass(frozen=True, order=True)
class RevealTile(Action):
    """Chance outcome: the terrain of the tile drawn for a face-down hex."""

    KIND: ClassVar[str] = "reveal_tile"
    HEADING: ClassVar[str] = "Turn up a hex"
    WRITES: ClassVar[frozenset[str]] = frozenset((BOARD, FLOW))
    terrain: str

    def words(self, told: w.Told) -> str:
        return f"turn up {w.a(w.spoken(self.terrain))} hex"


@dataclass(frozen=True, order=True)
class RevealNumber(Action):
    """Chance outcome: the number token drawn for a hex just revealed."""

    KIND: ClassVar[str] = "reveal_number"
    HEADING: ClassVar[str] = "Turn up a number"
    WRITES: ClassVar[frozenset[str]] = frozenset((BOARD, FLOW))
    number: int

    def words(self, told: w.Told) -> str:
        return f"turn up the number {self.number}"


@action_source
def reveal_actions(game: Game) -> list[Action]:
    m = game.ruleset.map
    if m is None:
        return []
    terrains = sorted({a.name for p in m.pools if p.hidden for a in p.tiles})
    numbers = sorted({t.value for plan in m.numbers if plan.method == "hidden" for t in plan.tokens})
    return [RevealTile(t) for t in terrains] + [RevealNumber(n) for n in numbers]


@dataclass
class Revealing(Prompt):
    """Chance: the tile turned up on face-down `hex` (its `terrain`, -1 until drawn), then
    its number token when it produces and its pool's stack of numbers is not empty."""

    KIND: ClassVar[str] = "revealing"
    chance: ClassVar[bool] = True
    player: int
    hex: int
    terrain: int

    def check(self, game: Game) -> str:
        t = game.lookups(HexLookups)
        if not seats_ok(game, self.player) or self.hex not in t.pool_of or \
                not -1 <= self.terrain < len(game.board.terrain_names):
            return "not a player, a hex of a hidden pool and a terrain"
        return super().check(game)

    def step(self, s: State) -> bool:
        """Nothing left to draw: a tile with no number left that may lie on it (the
        stack ran out, or its plan keeps the rest off) lies without one."""
        pool = s.game.lookups(HexLookups).pool_of[self.hex]
        if self.terrain < 0 and any(s.hidden_tiles[pool]) and self.hex in s.face_down:
            return False
        if self.terrain >= 0 and _numbers(s, pool, self.hex, self.terrain):
            return False
        s.pending.pop()
        if self.terrain >= 0:
            self._turn_up(s, 0)
        return True

    def outcomes(self, s: State) -> list[tuple[int, float]]:
        t = s.game.lookups(HexLookups)
        pool = t.pool_of[self.hex]
        if self.terrain < 0:
            names = s.game.board.terrain_names
            left = s.hidden_tiles[pool]
            total = sum(left)
            return [(t.tile_id[names[k]], n / total) for k, n in enumerate(left) if n]
        stack = s.hidden_numbers[pool]
        choices = _numbers(s, pool, self.hex, self.terrain)
        total = sum(stack[v] for v in choices)
        return [(t.number_id[v], stack[v] / total) for v in choices]

    def apply(self, s: State, act: Action) -> None:
        s.chance_count += 1
        pool = s.game.lookups(HexLookups).pool_of[self.hex]
        if isinstance(act, RevealTile):
            self.terrain = s.game.board.terrain_names.index(act.terrain)
            s.hidden_tiles[pool][self.terrain] -= 1
            if _numbers(s, pool, self.hex, self.terrain):
                return  # the number token comes next
            number = 0
        else:
            assert isinstance(act, RevealNumber)
            number = act.number
            s.hidden_numbers[pool][number] -= 1
        s.pending.pop()
        self._turn_up(s, number)

    def _turn_up(self, s: State, number: int) -> None:
        s.face_down.remove(self.hex)
        change(s, self.hex, self.terrain, number)
        s.emit("revealed", {"player": self.player, "terrain": s.game.board.terrain_names[self.terrain],
                            "at": ["h", self.hex]})


def _produces_any(game: Game, terrain: str) -> bool:
    t = game.ruleset.terrains[terrain]
    return t.produces is not None or bool(t.choice)


def _numbers(s: State, pool: int, h: int, terrain: int) -> list[int]:
    """The numbers the tile just turned up on hex h may draw from its pool's stack:
    none for a tile that produces nothing or that the plan skips; else what the plan
    allows beside the hexes around it (`hidden_choices`)."""
    g = s.game
    plan = g.lookups(HexLookups).plans[pool]
    names = g.board.terrain_names
    name = names[terrain]
    if plan is None or not _produces_any(g, name) or name in plan.skip:
        return []
    b = g.board
    left = {t: c for t, c in zip(names, s.hidden_tiles[pool]) if c and _produces_any(g, t) and t not in plan.skip}
    return hidden_choices(plan, s.hidden_numbers[pool], name, (b.hex_number[n] for n in b.hex_neighbours[h]), left)


def kept_off(plan: NumberPlan, terrain: str) -> frozenset[int]:
    """The numbers the plan's `keep ... off` forbids on a terrain."""
    return frozenset(v for ban in plan.keep_off if terrain in ban.terrains for v in ban.numbers)


def hidden_choices(plan: NumberPlan, stack: Sequence[int], terrain: str, beside: Iterable[int],
                   tiles: dict[str, int]) -> list[int]:
    """The numbers a tile of `terrain` just revealed may draw from a hidden stack
    (`stack`: the tokens left, a count per number): none that `keep ... off` forbids on
    its terrain, none of `avoid_adjacent` when a hex `beside` it shows one of them.
    Among those, the ones that leave the rest of the stack dealable onto the numbered
    tiles left in the pool (`tiles`, per terrain: as many of them numbered as there are
    tokens or tiles, keeping `keep ... off`), when some do; so a stack that fits its pool
    never strands a tile whose numbers went elsewhere. Empty: the tile takes no number.
    (compiler/validate.py deals a stack in trials with it, so `check` and play agree.)"""
    off = kept_off(plan, terrain)
    if plan.avoid_adjacent and any(n in plan.avoid_adjacent for n in beside):
        off |= frozenset(plan.avoid_adjacent)
    allowed = [v for v, n in enumerate(stack) if n and v not in off]
    if plan.keep_off and len(allowed) > 1:
        rest = list(stack)
        fine = []
        for v in allowed:
            rest[v] -= 1
            if dealable(plan, rest, tiles):
                fine.append(v)
            rest[v] += 1
        return fine or allowed
    return allowed


def dealable(plan: NumberPlan, stack: Sequence[int], tiles: dict[str, int]) -> bool:
    """Whether the tokens of `stack` can be laid on the tiles (per terrain) keeping
    `keep ... off`, numbering as many tiles as there are tokens or tiles, whichever is
    fewer. Hall's theorem, over the groups of terrains that forbid the same numbers: a
    matching covers all but the largest shortfall of a set of groups, its tiles less
    the tokens any of them may take."""
    groups: dict[frozenset[int], int] = {}
    for terrain, n in sorted(tiles.items()):
        if n > 0:
            off = kept_off(plan, terrain)
            groups[off] = groups.get(off, 0) + n
    kinds = list(groups.items())
    worst = 0
    for mask in range(1, 1 << len(kinds)):
        chosen = [kinds[i] for i in range(len(kinds)) if mask >> i & 1]
        off_all = frozenset.intersection(*(off for off, _ in chosen))
        worst = max(worst, sum(n for _, n in chosen) - sum(c for v, c in enumerate(stack) if v not in off_all))
    total = sum(groups.values())
    return total - worst >= min(sum(stack), total)


def change(s: State, h: int, terrain: int, number: int) -> None:
    """Hex h now has this terrain and number: record it and move the state onto the
    game of the changed board."""
    for i, e in enumerate(s.hex_changes):
        if e.hex == h:
            s.hex_changes[i] = HexChange(h, terrain, number)
            break
    else:
        s.hex_changes.append(HexChange(h, terrain, number))
    s.game = s.game.with_hexes(s.hex_changes)


# ---- queries and effects --------------------------------------------------------------------


@query("at: hex", returns="bool", reads=BOARD)
def hidden(s: State, at: Location) -> bool:
    """The hex lies face down (a hex of a `hidden` pool not yet revealed): until it is
    revealed it counts as its pool's cover terrain, with no number."""
    return at[1] in s.face_down


@effect("player: player, at: hex", writes=(BOARD, FLOW))
def reveal(s: State, player: int, at: Location) -> None:
    """Turns a face-down hex face up: its tile is drawn from its pool's stack at a chance
    node (each kind as likely as the tiles left of it), then, for a producing tile, its
    number from the pool's hidden numbers; then `revealed` runs with `player`. A hex
    that is not face down stays as it is."""
    if at[1] in s.face_down:
        s.push(Revealing(player, at[1], -1))


def _face_up(s: State, at: Location, what: str) -> int:
    h = at[1]
    if h in s.face_down:
        raise EngineError(f"{what} of a face-down hex: reveal it first (`if not hidden(at)`)")
    if s.game.board.hex_centre[h] >= 0:
        raise EngineError(f"{what} of a hub hex: a hub's points and paths cannot change")
    return h


@effect("at: hex, terrain: terrain", writes=BOARD)
def set_terrain(s: State, at: Location, terrain: str) -> None:
    """The hex's terrain becomes `terrain` (its number stays: `set_number(at, 0)` takes it
    away). Pieces stay where they stand; where pieces may be built follows the new terrain."""
    h = _face_up(s, at, "set_terrain")
    b = s.game.board
    if b.terrains[terrain].hub:
        raise EngineError(f"set_terrain to {terrain}, a hub terrain: a hub's points and paths cannot change")
    change(s, h, b.terrain_names.index(terrain), b.hex_number[h])


@effect("at: hex, number: int 0..12", writes=BOARD)
def set_number(s: State, at: Location, number: int) -> None:
    """The hex's number token becomes `number` (0: none); it produces on that roll."""
    if number in (1, 7):
        raise EngineError(f"set_number to {number}: a number token is 2..12 without 7, or 0 for none")
    h = _face_up(s, at, "set_number")
    change(s, h, s.game.board.hex_terrain[h], number)


@query("terrain: terrain, resource: resource", returns="bool", reads=STATIC)
def produces(s: State, terrain: str, resource: str) -> bool:
    """The terrain produces the resource (a terrain that `produces choice` produces every
    resource): `if produces(terrain, wool) { ... }` after a discovery."""
    t = s.game.ruleset.terrains[terrain]
    return bool(t.choice) or t.produces == resource


def validate(game: Game, s: Any) -> str:
    """What is wrong with the hex fields of a state read back ("" if nothing)."""
    t = game.lookups(HexLookups)
    T = len(game.board.terrain_names)
    H = len(game.board.hexes)
    if not _ints(s.face_down) or s.face_down != sorted(set(s.face_down)) or \
            not set(s.face_down) <= set(t.face_down):
        return "face_down: must be ascending hexes of hidden pools"
    if not _rows(s.hidden_tiles, len(t.pools), T) or not _rows(s.hidden_numbers, len(t.pools), NUMBERS):
        return "hidden_tiles, hidden_numbers: must be a row of counts per hidden pool"
    for k in range(len(t.pools)):
        if any(a > b for a, b in zip(s.hidden_tiles[k], t.tiles[k])) or \
                any(a > b for a, b in zip(s.hidden_numbers[k], t.numbers[k])):
            return f"hidden_tiles: pool {t.pools[k]} holds more than it was dealt"
        down = sum(1 for h in s.face_down if t.pool_of[h] == k)
        # a tile drawn for a hex whose number is still to come lies beside it, face up
        drawn = sum(1 for p in s.pending if isinstance(p, Revealing) and p.terrain >= 0 and t.pool_of[p.hex] == k)
        if sum(s.hidden_tiles[k]) < down - drawn:
            return f"hidden_tiles: pool {t.pools[k]} has fewer tiles than face-down hexes"
        revealed = sum(1 for h in t.pool_of if t.pool_of[h] == k) - down
        if sum(t.tiles[k]) - sum(s.hidden_tiles[k]) != revealed + drawn:
            return f"hidden_tiles: pool {t.pools[k]}'s tiles are not conserved"
    seen = set()
    b = game.board
    for e in s.hex_changes if isinstance(s.hex_changes, list) else [None]:
        if not (isinstance(e, list) and len(e) == 3 and _ints(e) and 0 <= e[0] < H and 0 <= e[1] < T
                and (e[2] == 0 or 2 <= e[2] < 7 or 8 <= e[2] < NUMBERS) and e[0] not in seen
                and e[0] not in s.face_down):
            return "hex_changes: must be [[hex, terrain, number], ...], each hex once and face up"
        if b.hex_centre[e[0]] >= 0 or b.terrains[b.terrain_names[e[1]]].hub:
            return "hex_changes: a hub hex never changes, and no hex becomes one"
        seen.add(e[0])
    if not set(t.pool_of) - set(s.face_down) <= seen:
        return "hex_changes: a revealed hex has no terrain"
    for p in s.pending:
        if isinstance(p, Revealing) and (p.hex not in s.face_down or (
                p.terrain >= 0 and not _produces_any(game, b.terrain_names[p.terrain]))):
            return "pending: a hex being revealed is face down, and waits for a number only if it produces"
    return ""


def _ints(v: Any) -> bool:
    return isinstance(v, list) and all(isinstance(x, int) and not isinstance(x, bool) and x >= 0 for x in v)


def _rows(v: Any, rows: int, length: int) -> bool:
    return isinstance(v, list) and len(v) == rows and all(_ints(r) and len(r) == length for r in v)
