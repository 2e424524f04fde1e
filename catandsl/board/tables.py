"""Flat integer tables: a cache of the board graph for the engine's hot loop.

Every id is an index into one of the board's sorted id lists (`hexes`,
`intersections`, `paths`), so the tables are tuples of ints (and tuples of tuples of
ints) that are cheap to read and never change. They are derived once from the graph;
tests/board/test_tables.py checks them against it for every id.
"""

from __future__ import annotations

from dataclasses import dataclass

import networkx as nx  # type: ignore[import-untyped]  # no inline types; types-networkx is not a dependency

from catandsl.board import geometry as geo
from catandsl.board.graph import COAST, LAND, SEA, hex_node, intersection_node
from catandsl.board.harbors import Harbor

# The class of an intersection or a path as an int: CLASSES[code] is its name.
CLASSES: tuple[str, ...] = (LAND, COAST, SEA)
CLASS_CODE = {name: code for code, name in enumerate(CLASSES)}

Ids = tuple[int, ...]


@dataclass(frozen=True)
class Tables:
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
    graph: nx.Graph,
    hexes: tuple[geo.Hex, ...],
    intersections: tuple[geo.Intersection, ...],
    paths: tuple[geo.Path, ...],
    terrain_names: tuple[str, ...],
    harbors: tuple[Harbor, ...],
) -> Tables:
    hex_id = {h: k for k, h in enumerate(hexes)}
    corner_id = {c: k for k, c in enumerate(intersections)}
    path_id = {p: k for k, p in enumerate(paths)}
    terrain_id = {name: k for k, name in enumerate(terrain_names)}
    harbor_of_corner = {
        end: k for k, hb in enumerate(harbors) for end in geo.edge_ends(hb.path)
    }

    def node_id(node) -> int:
        return hex_id[node[1:]] if node[0] == "hex" else corner_id[node[1:]]

    hex_data = [graph.nodes[hex_node(h)] for h in hexes]
    hex_neighbours = []
    for h in hexes:
        hex_neighbours.append(tuple(sorted(hex_id[n] for n in geo.neighbours(h) if n in hex_id)))

    corner_hexes, corner_neighbours, corner_paths = [], [], []
    for c in intersections:
        node = intersection_node(c)
        touching, adjacent, ending = [], [], []
        for other, edge in graph[node].items():
            if edge["kind"] == "touch":
                touching.append(node_id(other))
            else:
                adjacent.append(node_id(other))
                ending.append(path_id[edge["id"]])
        corner_hexes.append(tuple(sorted(touching)))
        corner_neighbours.append(tuple(sorted(adjacent)))
        corner_paths.append(tuple(sorted(ending)))

    # each path's edge, found from its ends (ids follow the sort keys, so the ends and
    # hexes that geometry gives in order have ascending ids)
    path_ends, path_hexes, path_cls = [], [], []
    adjacency = graph.adj
    for p in paths:
        a, b = geo.edge_ends(p)
        edge = adjacency[intersection_node(a)][intersection_node(b)]
        path_ends.append((corner_id[a], corner_id[b]))
        path_hexes.append(tuple(hex_id[h] for h in edge["hexes"]))
        path_cls.append(CLASS_CODE[edge["cls"]])

    by_number: list[list[int]] = [[] for _ in range(13)]
    for k, data in enumerate(hex_data):
        if data["number"]:
            by_number[data["number"]].append(k)

    corner_data = [graph.nodes[intersection_node(c)] for c in intersections]
    corner_hub = tuple(-1 if d["hub"] is None else hex_id[d["hub"]] for d in corner_data)
    hex_centre = [-1] * len(hexes)
    hex_spurs: list[list[int]] = [[] for _ in hexes]
    for corner, hub in enumerate(corner_hub):
        if hub >= 0:
            hex_centre[hub] = corner
    for k, path in enumerate(paths):
        if geo.is_spur(path):
            hex_spurs[hex_id[(path[0], path[1])]].append(k)
    return Tables(
        hex_terrain=tuple(terrain_id[d["terrain"]] for d in hex_data),
        hex_number=tuple(d["number"] or 0 for d in hex_data),
        hex_water=tuple(bool(d["water"]) for d in hex_data),
        hex_island=tuple(d["island"] for d in hex_data),
        hex_corners=tuple(tuple(corner_id[c] for c in geo.corners(h)) for h in hexes),
        hex_paths=tuple(tuple(path_id[p] for p in geo.sides(h)) for h in hexes),
        hex_neighbours=tuple(hex_neighbours),
        corner_hexes=tuple(corner_hexes),
        corner_neighbours=tuple(corner_neighbours),
        corner_paths=tuple(corner_paths),
        corner_cls=tuple(CLASS_CODE[d["cls"]] for d in corner_data),
        corner_harbor=tuple(harbor_of_corner.get(c, -1) for c in intersections),
        corner_islands=tuple(tuple(d["islands"]) for d in corner_data),
        path_ends=tuple(path_ends),
        path_hexes=tuple(path_hexes),
        path_cls=tuple(path_cls),
        number_hexes=tuple(tuple(ids) for ids in by_number),
        hex_centre=tuple(hex_centre),
        hex_spurs=tuple(tuple(ids) for ids in hex_spurs),
        corner_hub=corner_hub,
    )
