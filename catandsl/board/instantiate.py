"""instantiate(ruleset, seed) -> Board: one concrete board of a configured map.

The steps follow a rulebook's set-up: build the frame, lay the hexes (fixed ones and
shuffled tile pools), lay the number tokens, lay the harbors, then find the islands and
the neutral pieces' start hexes. Every random choice draws from its own stream,
`random.Random(f"{seed}:{purpose}")`: string seeds are hashed with sha512, so a seed
gives the same board on every machine and under every PYTHONHASHSEED, and changing
one pool does not reshuffle another. Nothing is decided by iterating a set.
"""

from __future__ import annotations

import random
from collections import deque
from typing import NamedTuple

from catandsl.board import geometry as geo
from catandsl.board.board import Board
from catandsl.board.errors import BoardError
from catandsl.board.frame import lay_frame
from catandsl.board.graph import Tile
from catandsl.board.harbors import lay_harbors
from catandsl.board.numbers import MAX_DEALS, MAX_DEALT, check_number, lay_numbers
from catandsl.ir.model import HexSlot, Map, Terrain
from catandsl.ir.ruleset import Ruleset

MAX_HEXES = 10_000


class Deal(NamedTuple):
    """A map as dealt for one seed, before its graph and tables are built: what tiles lie
    where, the numbers, harbors, islands and starts (coordinates, not ids). Cheap to
    make, so `check` deals a shuffled map many times (compiler/validate.py)."""

    seed: int
    terrains: dict[str, Terrain]
    tiles: dict[geo.Hex, Tile]
    harbors: tuple
    harbor_supply: tuple
    islands: dict[geo.Hex, int]
    island_names: dict[str, tuple[int, ...]]
    starts: dict[str, geo.Hex | None]
    start_sites: dict[str, tuple]
    areas: dict[str, tuple[tuple[geo.Hex, ...], tuple[geo.Intersection, ...]]]

    def terrain_at(self, h: geo.Hex) -> str | None:
        """The terrain at a hex, or None off the board."""
        tile = self.tiles.get(h)
        return tile.terrain if tile is not None else None

    def fixed(self, other: Deal) -> bool:
        """Whether two deals of a map lay the same board."""
        return self.tiles == other.tiles and self.harbors == other.harbors


def instantiate(ruleset: Ruleset, seed: int) -> Board:
    return Board(**deal(ruleset, seed)._asdict())


def deal(ruleset: Ruleset, seed: int) -> Deal:
    """Lay out the configured map for `seed`: frame, tiles, numbers, harbors, islands
    and starts (raises BoardError with the map line at fault)."""
    m = ruleset.map
    if m is None:
        raise BoardError("E0423", f"{ruleset.title} has no map", None,
                         help="declare a map in the scenario")
    if len(m.hexes) > MAX_HEXES:
        raise BoardError("E0408", f"the map has {len(m.hexes)} hexes; the limit is {MAX_HEXES}",
                         m.source)
    terrains = ruleset.terrains
    slots = _slots(m, terrains)
    hexes = sorted(slots, key=geo.hex_key)

    terrain_of: dict[geo.Hex, str] = {h: s.terrain for h, s in slots.items() if s.terrain}
    pool_of: dict[geo.Hex, str | None] = {h: slots[h].pool for h in hexes}
    frame_of: dict[geo.Hex, tuple[int, str | None]] = {}
    if m.frame is not None:
        _known_terrain(m.frame.terrain, terrains, "the frame", m.frame.source, water=True)
        for spot in lay_frame(hexes, m.frame):
            terrain_of[spot.hex] = m.frame.terrain
            pool_of[spot.hex] = None
            frame_of[spot.hex] = (spot.piece, spot.label)
    _fill_pools(m, hexes, slots, terrain_of, terrains, seed)
    _check_hidden_numbers(m)
    board_hexes = sorted(terrain_of, key=geo.hex_key)

    def is_land(h: geo.Hex) -> bool:
        return h in terrain_of and not terrains[terrain_of[h]].water

    def produces(h: geo.Hex) -> bool:
        t = terrains[terrain_of[h]]
        return t.produces is not None or t.choice

    numbers: dict[geo.Hex, int] = {}
    for h in hexes:
        if slots[h].number is not None:
            if not is_land(h):
                raise BoardError("E0421", f"hex ({h[0]},{h[1]}) is water but has a number",
                                 slots[h].source)
            if terrains[terrain_of[h]].hub:
                raise BoardError("E0421", f"hex ({h[0]},{h[1]}) is a hub ({terrain_of[h]}) but "
                                 "has a number", slots[h].source,
                                 help="a hub hex produces nothing and takes no number token")
            numbers[h] = slots[h].number  # type: ignore[assignment]
    lay_numbers(board_hexes, is_land, produces, terrain_of, pool_of, numbers, m.numbers, seed)

    def describe(h: geo.Hex) -> str:
        return terrain_of[h] if h in terrain_of else "the space off the board"

    harbors = lay_harbors(m.harbors, is_land, describe, seed)
    islands = find_islands([h for h in board_hexes if is_land(h)])
    starts, start_sites = _starts(m, board_hexes, terrain_of, numbers)
    tiles = {
        h: Tile(h, terrain_of[h], numbers.get(h), pool_of.get(h), *frame_of.get(h, (None, None)))
        for h in board_hexes
    }
    return Deal(
        seed=seed, terrains=terrains, tiles=tiles, harbors=harbors, islands=islands,
        harbor_supply=tuple(t for plan in m.harbors if plan.method == "placed" for t in plan.harbors),
        island_names=_island_names(m, islands),
        starts=starts, start_sites=start_sites, areas=_areas(m, terrain_of),
    )


def _areas(m: Map, terrain_of) -> dict[str, tuple[tuple[geo.Hex, ...], tuple[geo.Intersection, ...]]]:
    """Each named area: its hexes, and its intersections (those named, and every corner
    of its hexes), all on the board."""
    out = {}
    for area in m.areas:
        for k, h in enumerate(area.hexes):
            if h not in terrain_of:
                raise BoardError("E0432", f"area {area.name} names hex ({h[0]},{h[1]}), which is not "
                                 "on the board", _item(area.hex_sources, k, area.source))
        corners = []
        for k, (q, r, c) in enumerate(area.corners):
            x = geo.corner((q, r), c)
            if not any(h in terrain_of for h in geo.intersection_hexes(x)):
                raise BoardError("E0432", f"area {area.name} names the intersection ({q},{r}) {c}, "
                                 "which is not on the board", _item(area.corner_sources, k, area.source))
            corners.append(x)
        for h in area.hexes:
            corners.extend(geo.corners(h))
        out[area.name] = (tuple(dict.fromkeys(area.hexes)), tuple(dict.fromkeys(corners)))
    return out


def _item(sources, k: int, whole):
    """Where the k-th item of a list is written (the whole entry's source for an IR
    that does not say)."""
    return sources[k] if k < len(sources) else whole


def find_islands(land: list[geo.Hex]) -> dict[geo.Hex, int]:
    """Island number of each land hex: connected groups of land hexes, numbered in order
    of their first hex in `land` (which is sorted by geometry)."""
    is_land = set(land)
    island: dict[geo.Hex, int] = {}
    number = -1
    for first in land:
        if first in island:
            continue
        number += 1
        island[first] = number
        todo = deque([first])
        while todo:
            h = todo.popleft()
            for n in geo.neighbours(h):
                if n in is_land and n not in island:
                    island[n] = number
                    todo.append(n)
    return island


# ---- the steps ---------------------------------------------------------------------------


def _slots(m: Map, terrains: dict[str, Terrain]) -> dict[geo.Hex, HexSlot]:
    slots: dict[geo.Hex, HexSlot] = {}
    for slot in m.hexes:
        h = (slot.q, slot.r)
        if h in slots:
            raise BoardError("E0412", f"hex ({slot.q},{slot.r}) is in the map twice", slot.source)
        if (slot.terrain is None) == (slot.pool is None):
            raise BoardError(
                "E0421", f"hex ({slot.q},{slot.r}) needs either a terrain or a pool", slot.source
            )
        if slot.terrain is not None:
            _known_terrain(slot.terrain, terrains, f"hex ({slot.q},{slot.r})", slot.source)
        if slot.number is not None:
            check_number(slot.number, f"on hex ({slot.q},{slot.r})", slot.source)
        slots[h] = slot
    return slots


def _fill_pools(m: Map, hexes, slots, terrain_of, terrains, seed: int) -> None:
    """Lay each tile pool on its slots (the map's hexes that name it)."""
    pools = {}
    for pool in m.pools:
        if pool.name in pools:
            raise BoardError("E0421", f"two tile pools are named {pool.name}", pool.source)
        pools[pool.name] = pool
    for h in hexes:
        if slots[h].pool is not None and slots[h].pool not in pools:
            known = ", ".join(pools) or "none"
            raise BoardError(
                "E0403", f"hex ({h[0]},{h[1]}) takes a tile from pool {slots[h].pool}, "
                "which the map does not declare", slots[h].source, help=f"pools: {known}",
            )
    for pool in m.pools:
        targets = [h for h in hexes if slots[h].pool == pool.name]
        tiles = []
        for amount in pool.tiles:
            _known_terrain(amount.name, terrains, f"pool {pool.name}", pool.source)
            tiles.extend([amount.name] * amount.count)
        if pool.hidden:
            # a face-down stack: its hexes show the cover until a rule reveals them
            if len(tiles) < len(targets):
                raise BoardError("E0403", f"hidden pool {pool.name} has {len(tiles)} tiles for "
                                 f"{len(targets)} hexes", pool.source,
                                 help="a hidden pool holds at least one tile for each hex that takes from it")
            terrain_of.update((h, hidden_cover(pool, terrains)) for h in targets)
            continue
        if len(tiles) != len(targets):
            raise BoardError(
                "E0403",
                f"pool {pool.name} has {len(tiles)} tiles for {len(targets)} hexes",
                pool.source,
                help="a pool must hold exactly one tile for each hex that takes from it",
            )
        if pool.shuffled:
            rng = random.Random(f"{seed}:tiles:{pool.name}")
            deals = max(1, min(MAX_DEALS, MAX_DEALT // max(1, len(targets))))
            for _ in range(deals):
                rng.shuffle(tiles)
                terrain_of.update(zip(targets, tiles))
                if not pool.max_clump or _largest_clump(targets, terrain_of, terrains) <= pool.max_clump:
                    break
            else:
                raise BoardError(
                    "E0410", f"no deal of pool {pool.name} in {deals} shuffles keeps every group of "
                    f"one terrain to {pool.max_clump} hexes or fewer", pool.source,
                    help="allow larger groups, or mix the pool with more kinds of tiles")
        else:
            terrain_of.update(zip(targets, tiles))  # a fixed pool, in order (a shuffled one is laid above)


def _check_hidden_numbers(m: Map) -> None:
    """`numbers hidden [...] onto [POOL]`: a stack for one hidden pool, at most one each."""
    hidden = {p.name for p in m.pools if p.hidden}
    seen: set[str] = set()
    for plan in m.numbers:
        if plan.method != "hidden":
            continue
        if len(plan.onto) != 1 or plan.onto[0] not in hidden:
            raise BoardError("E0433", "hidden numbers are a stack for one hidden pool: name it with "
                             "`onto [POOL]`", plan.source,
                             help=f"hidden pools: {', '.join(sorted(hidden)) or 'none'}")
        if plan.onto[0] in seen:
            raise BoardError("E0433", f"hidden pool {plan.onto[0]} has two stacks of numbers", plan.source)
        seen.add(plan.onto[0])


def hidden_cover(pool, terrains: dict[str, Terrain]) -> str:
    """The terrain a hidden pool's face-down hexes count as: its `cover`, else the first
    water terrain declared. Checks the stack: enough tiles, no hub tiles."""
    for amount in pool.tiles:
        if terrains[amount.name].hub:
            raise BoardError("E0433", f"hidden pool {pool.name} holds {amount.name}, a hub terrain",
                             pool.source, help="a hub hex adds points and paths to the board, so it "
                             "cannot lie face down")
    cover = pool.cover
    if cover is None:
        cover = next((n for n, t in terrains.items() if t.water), None)
        if cover is None:
            raise BoardError("E0433", f"hidden pool {pool.name} needs a cover terrain: no terrain is water",
                             pool.source, help="write `cover TERRAIN` after the tiles")
    _known_terrain(cover, terrains, f"the cover of pool {pool.name}", pool.source)
    if terrains[cover].hub:
        raise BoardError("E0433", f"hidden pool {pool.name} is covered by {cover}, a hub terrain",
                         pool.source)
    return cover


def _largest_clump(targets, terrain_of, terrains) -> int:
    """The largest group of touching land hexes of one terrain that holds a target."""
    seen: set[geo.Hex] = set()
    largest = 0
    for first in targets:
        kind = terrain_of[first]
        if first in seen or terrains[kind].water:
            continue
        group, todo = 1, [first]
        seen.add(first)
        while todo:
            for n in geo.neighbours(todo.pop()):
                if n not in seen and terrain_of.get(n) == kind:
                    seen.add(n)
                    group += 1
                    todo.append(n)
        largest = max(largest, group)
    return largest


def _known_terrain(name, terrains, where, source, water: bool = False) -> None:
    if name not in terrains:
        known = ", ".join(terrains) or "none"
        raise BoardError("E0420", f"{where} names unknown terrain {name}", source,
                         help=f"terrains: {known}")
    if water and not terrains[name].water:
        raise BoardError("E0420", f"{where} must be water, but {name} is land", source)


def _starts(m: Map, hexes, terrain_of, numbers) -> tuple[dict[str, geo.Hex | None],
                                                         dict[str, tuple[geo.Hex | geo.Path, ...]]]:
    """Each neutral piece's start: its hex (None off the board), as the engine long read
    it, and every start as its sites, one per piece: hexes, or paths (a hex and a side,
    canonical) for a piece on paths; none off the board."""
    out: dict[str, geo.Hex | None] = {}
    sites: dict[str, tuple[geo.Hex | geo.Path, ...]] = {}
    for start in m.starts:
        if start.seat is not None:
            continue  # a seat's own piece: the game places it (engine/game.py)
        if start.off_board:
            out[start.piece] = None
            sites[start.piece] = ()
        elif start.paths:
            paths = []
            for ref in start.paths:
                p = geo.canonical_edge(ref.q, ref.r, ref.side)
                if not any(h in terrain_of for h in geo.edge_hexes(p)):
                    raise BoardError("E0411", f"the {start.piece} starts at ({ref.q},{ref.r}) {ref.side}, "
                                     "which is not a path of the board", ref.source or start.source)
                if p in paths:
                    raise BoardError("E0431", f"two {start.piece} pieces start on the path ({ref.q},{ref.r}) "
                                     f"{ref.side}", ref.source or start.source,
                                     help="at most one piece of a kind stands on a path")
                paths.append(p)
            sites[start.piece] = tuple(paths)
        elif start.hexes:
            for h in start.hexes:
                if h not in terrain_of:
                    raise BoardError("E0411", f"the {start.piece} starts at ({h[0]},{h[1]}), "
                                     "which is not a hex of the board", start.source)
                if start.hexes.count(h) > 1:
                    raise BoardError("E0431", f"two {start.piece} pieces start on the hex ({h[0]},{h[1]})",
                                     start.source, help="at most one piece of a kind stands on a hex")
            out[start.piece] = start.hexes[0]
            sites[start.piece] = tuple(start.hexes)
        elif start.q is not None and start.r is not None:
            h = (start.q, start.r)
            if h not in terrain_of:
                raise BoardError("E0411", f"the {start.piece} starts at ({h[0]},{h[1]}), "
                                 "which is not a hex of the board", start.source)
            out[start.piece] = h
            sites[start.piece] = (h,)
        elif start.terrain is not None:
            found = [
                h for h in hexes
                if terrain_of[h] == start.terrain
                and (start.number is None or numbers.get(h) == start.number)
            ]
            if not found:
                what = start.terrain + (f" {start.number}" if start.number is not None else "")
                raise BoardError("E0411", f"the {start.piece} starts on {what}, but the board "
                                 "has no such hex", start.source)
            out[start.piece] = found[0]
            sites[start.piece] = (found[0],)
        else:
            raise BoardError("E0411", f"the start of the {start.piece} names no hex", start.source)
    return out, sites


def _island_names(m: Map, islands: dict[geo.Hex, int]) -> dict[str, tuple[int, ...]]:
    out: dict[str, tuple[int, ...]] = {}
    for named in m.islands:
        numbers = list(out.get(named.name, ()))
        for q, r in named.hexes:
            if (q, r) not in islands:
                raise BoardError("E0411", f"island {named.name} is named by hex ({q},{r}), "
                                 "which is not a land hex of the board", named.source)
            numbers.append(islands[(q, r)])
        out[named.name] = tuple(sorted(set(numbers)))
    return out
