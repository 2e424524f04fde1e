"""Flat integer tables: a cache of the board graph for the engine's hot loop.

Every id is an index into one of the board's sorted id lists (`hexes`,
`intersections`, `paths`), so the tables are tuples of ints (and tuples of tuples of
ints) that are cheap to read and never change. They are derived from the board's shape
(catandsl.board.shape, kept per shape) and the deal, as the graph is; tests/board/
test_tables.py checks them against the graph for every id.
"""

from __future__ import annotations

from dataclasses import dataclass

from catandsl.board import geometry as geo
from catandsl.board.graph import COAST, LAND, SEA, Tile
from catandsl.board.harbors import Harbor
from catandsl.board.shape import Shape
from catandsl.ir.model import Terrain

# The class of an intersection or a path as an int: CLASSES[code] is its name.
CLASSES: tuple[str, ...] = (LAND, COAST, SEA)
CLASS_CODE = {name: code for code, name in enumerate(CLASSES)}
LAND_CODE, COAST_CODE, SEA_CODE = (CLASS_CODE[c] for c in (LAND, COAST, SEA))

Ids = tuple[int, ...]


@dataclass(frozen=True)
class Tables:
    """A board's flat tables by id, for the engine's hot loop."""

    hex_terrain: Ids
    """hex -> index into `Board.terrain_names`."""
    hex_number: Ids
    """hex -> its number token, 0 for none."""
    hex_water: tuple[bool, ...]
    """hex -> whether its terrain is water (frame positions are)."""
    hex_island: Ids
    """hex -> its island number, -1 for water."""
    hex_corners: tuple[Ids, ...]
    """hex -> its 6 intersections, clockwise from the top (geometry.CORNER_NAMES)."""
    hex_paths: tuple[Ids, ...]
    """hex -> its 6 paths, clockwise from the upper right (geometry.SIDE_ORDER)."""
    hex_neighbours: tuple[Ids, ...]
    """hex -> the board hexes next to it, ascending."""
    corner_hexes: tuple[Ids, ...]
    """intersection -> the board hexes touching it (1 to 3), ascending."""
    corner_neighbours: tuple[Ids, ...]
    """intersection -> the intersections one path away (2 or 3, one more at the end of
    a spur, up to 6 at a centre point), ascending."""
    corner_paths: tuple[Ids, ...]
    """intersection -> the paths ending there (as many as neighbours), ascending."""
    corner_cls: Ids
    """intersection -> CLASS_CODE of its class (land, coast, sea)."""
    corner_harbor: Ids
    """intersection -> index into `Board.harbors`, -1 for none."""
    corner_islands: tuple[Ids, ...]
    """intersection -> the islands of the land hexes touching it, ascending."""
    path_ends: tuple[tuple[int, int], ...]
    """path -> its two intersections, ascending."""
    path_hexes: tuple[Ids, ...]
    """path -> the board hexes on either side (1 or 2), ascending."""
    path_cls: Ids
    """path -> CLASS_CODE of its class."""
    number_hexes: tuple[Ids, ...]
    """dice total (0..12) -> the hexes with that number, ascending."""
    hex_centre: Ids
    """hex -> the intersection at its centre (a hub hex), -1 for none."""
    hex_spurs: tuple[Ids, ...]
    """hex -> the spurs from its centre (a hub hex), ascending; empty for none."""
    corner_hub: Ids
    """intersection -> the hub hex it is the centre of, -1 for a corner of hexes."""


def derive_tables(
    shape: Shape,
    tiles: dict[geo.Hex, Tile],
    terrains: dict[str, Terrain],
    terrain_names: tuple[str, ...],
    harbors: tuple[Harbor, ...],
    islands: dict[geo.Hex, int],
) -> Tables:
    """The tables of one deal on its shape: the shape's own tables as they are, and what
    the deal decides (terrain, numbers, land and water, classes, islands, harbors)."""
    terrain_id = {name: k for k, name in enumerate(terrain_names)}
    dealt = [tiles[h] for h in shape.hexes]
    water = tuple(bool(terrains[t.terrain].water) for t in dealt)
    hex_island = tuple(islands.get(h, -1) for h in shape.hexes)
    numbers = tuple(t.number or 0 for t in dealt)
    by_number: list[list[int]] = [[] for _ in range(13)]
    for k, n in enumerate(numbers):
        if n:
            by_number[n].append(k)

    def cls(hexes: Ids, sides: int) -> int:
        # land when every hex around is land, sea when none is (off the board is water)
        land = sum(not water[h] for h in hexes)
        return SEA_CODE if land == 0 else LAND_CODE if land == sides else COAST_CODE

    corner_harbor = [-1] * len(shape.intersections)
    for k, hb in enumerate(harbors):  # (a later harbor's corner is its own, as in the graph)
        for end in geo.edge_ends(hb.path):
            c = shape.intersection_index.get(end)
            if c is not None:
                corner_harbor[c] = k
    return Tables(
        hex_terrain=tuple(terrain_id[t.terrain] for t in dealt),
        hex_number=numbers,
        hex_water=water,
        hex_island=hex_island,
        hex_corners=shape.hex_corners,
        hex_paths=shape.hex_paths,
        hex_neighbours=shape.hex_neighbours,
        corner_hexes=shape.corner_hexes,
        corner_neighbours=shape.corner_neighbours,
        corner_paths=shape.corner_paths,
        corner_cls=tuple(map(cls, shape.corner_hexes, shape.corner_sides)),
        corner_harbor=tuple(corner_harbor),
        corner_islands=tuple(tuple(sorted({hex_island[h] for h in hexes if not water[h]}))
                             for hexes in shape.corner_hexes),
        path_ends=shape.path_ends,
        path_hexes=shape.path_hexes,
        path_cls=tuple(map(cls, shape.path_hexes, shape.path_sides)),
        number_hexes=tuple(tuple(ids) for ids in by_number),
        hex_centre=shape.hex_centre,
        hex_spurs=shape.hex_spurs,
        corner_hub=shape.corner_hub,
    )
