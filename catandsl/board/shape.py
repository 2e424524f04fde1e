"""A board's shape: what its tables owe to where its hexes lie, not to what was dealt.

The ids (hexes, intersections, paths) and which of them touch which depend only on the
set of hexes and the hub hexes with their spurs; terrain, numbers, harbors and islands
are the deal's. Every game of a scenario deals a board of the same shape (each with its
own seed), so the shape's tables are derived once and kept, keyed by the hexes and the
hubs themselves (plain tuples of coordinates), in a bounded cache. The deal's tables
are derived per board (catandsl.board.tables). Both are checked against the graph for
every id by tests/board/test_tables.py.
"""

from __future__ import annotations

from functools import lru_cache
from typing import NamedTuple

from catandsl.board import geometry as geo

Ids = tuple[int, ...]
# a hub hex and the corners (geometry.CORNER_NAMES) its spurs run to, in that order
Hub = tuple[geo.Hex, tuple[str, ...]]


class Shape(NamedTuple):
    """What a board's shape alone fixes: its ids, their indexes and what touches what."""

    hexes: tuple[geo.Hex, ...]
    intersections: tuple[geo.Intersection, ...]
    paths: tuple[geo.Path, ...]
    hex_index: dict[geo.Hex, int]
    intersection_index: dict[geo.Intersection, int]
    path_index: dict[geo.Path, int]
    hex_corners: tuple[Ids, ...]
    hex_paths: tuple[Ids, ...]
    hex_neighbours: tuple[Ids, ...]
    corner_hexes: tuple[Ids, ...]
    corner_neighbours: tuple[Ids, ...]
    corner_paths: tuple[Ids, ...]
    path_ends: tuple[tuple[int, int], ...]
    path_hexes: tuple[Ids, ...]
    hex_centre: Ids
    hex_spurs: tuple[Ids, ...]
    corner_hub: Ids
    # the hexes around each intersection and beside each path in the plain geometry,
    # on the board or not (the space off the board counts as water): what their
    # classes are counted against
    corner_sides: Ids
    path_sides: Ids


def hubs_of(hexes: tuple[geo.Hex, ...], is_hub, is_land) -> tuple[Hub, ...]:
    """Each hub hex (a land hex whose terrain is a hub) with the corners it has spurs to:
    those touching land besides the hub."""
    out = []
    for h in hexes:
        if is_hub(h):
            out.append((h, tuple(name for name in geo.CORNER_NAMES
                                 if any(is_land(x) for x in geo.intersection_hexes(geo.corner(h, name)) if x != h))))
    return tuple(out)


SHAPES_KEPT = 8  # a shape of 10,000 hexes holds about 20 MB of tables: keep a few


@lru_cache(maxsize=SHAPES_KEPT)
def shape(hexes: tuple[geo.Hex, ...], hubs: tuple[Hub, ...]) -> Shape:
    """The shape of a board of `hexes` (sorted by geometry.hex_key) and `hubs`."""
    hex_index = {h: k for k, h in enumerate(hexes)}
    corners = {c for h in hexes for c in geo.corners(h)}
    corners.update(geo.centre(h) for h, _ in hubs)
    intersections = tuple(sorted(corners, key=geo.intersection_key))
    sides = {p for h in hexes for p in geo.sides(h)}
    sides.update(geo.spur(h, name) for h, names in hubs for name in names)
    paths = tuple(sorted(sides, key=geo.path_key))
    corner_id = {c: k for k, c in enumerate(intersections)}
    path_id = {p: k for k, p in enumerate(paths)}

    hex_corners = tuple(tuple(corner_id[c] for c in geo.corners(h)) for h in hexes)
    touching: list[list[int]] = [[] for _ in intersections]
    for k, ids in enumerate(hex_corners):
        for c in ids:
            touching[c].append(k)
    hex_centre = [-1] * len(hexes)
    corner_hub = [-1] * len(intersections)
    for h, _ in hubs:
        c, k = corner_id[geo.centre(h)], hex_index[h]
        hex_centre[k], corner_hub[c] = c, k
        touching[c].append(k)  # a hub hex touches its centre point too

    path_ends = []
    neighbours: list[list[int]] = [[] for _ in intersections]
    ending: list[list[int]] = [[] for _ in intersections]
    hex_spurs: list[list[int]] = [[] for _ in hexes]
    for k, p in enumerate(paths):
        # (ids follow the sort keys, so the ends geometry gives in order have ascending ids)
        a, b = (corner_id[c] for c in geo.edge_ends(p))
        path_ends.append((a, b))
        neighbours[a].append(b)
        neighbours[b].append(a)
        ending[a].append(k)
        ending[b].append(k)
        if geo.is_spur(p):
            hex_spurs[hex_index[(p[0], p[1])]].append(k)
    return Shape(
        hexes=hexes, intersections=intersections, paths=paths,
        hex_index=hex_index, intersection_index=corner_id, path_index=path_id,
        hex_corners=hex_corners,
        hex_paths=tuple(tuple(path_id[p] for p in geo.sides(h)) for h in hexes),
        hex_neighbours=tuple(tuple(sorted(hex_index[n] for n in geo.neighbours(h) if n in hex_index))
                             for h in hexes),
        corner_hexes=tuple(tuple(sorted(ids)) for ids in touching),
        corner_neighbours=tuple(tuple(sorted(ids)) for ids in neighbours),
        corner_paths=tuple(tuple(sorted(ids)) for ids in ending),
        path_ends=tuple(path_ends),
        path_hexes=tuple(tuple(hex_index[h] for h in geo.edge_hexes(p) if h in hex_index) for p in paths),
        hex_centre=tuple(hex_centre),
        hex_spurs=tuple(tuple(ids) for ids in hex_spurs),
        corner_hub=tuple(corner_hub),
        corner_sides=tuple(len(geo.intersection_hexes(c)) for c in intersections),
        path_sides=tuple(len(geo.edge_hexes(p)) for p in paths),
    )
