"""The board graph: one networkx.Graph holding hexes, intersections and paths.

Nodes
- `("hex", q, r)`: kind="hex", terrain (name), number (int or None), water (bool),
  island (int, -1 for water), frame (bool), frame_piece (index or None), frame_label,
  pool (the tile pool it was filled from, or None).
- `("i", q, r, "N" | "S")`: kind="intersection", cls ("land", "coast" or "sea"),
  harbor (HarborType or None), islands (tuple of island numbers it touches), hub (the
  hex whose centre it is, or None).
- `("i", q, r, "C")`: the centre point of a hub hex (a hex of a terrain declared
  `hub`), with the same data: cls "land", no harbor, hub=(q, r).

Edges
- intersection-intersection, kind="path": id (the canonical path), hexes (the board
  hexes on either side), cls, harbor.
- hex-intersection, kind="touch" (a hub hex also touches its centre point).
- a spur `(q, r, "C-N")` ... `(q, r, "C-NW")`: a path (kind="path", hexes=(the hub),
  cls "land", no harbor) from a hub hex's centre to each of its corners that touches a
  land hex besides the hub; a hub hex on the coast gets spurs to its land-side corners
  only.

Only intersections and paths touching at least one board hex exist. The space off the
board counts as water: a corner of the outermost land hex is on the coast, as it is on
a table where the sea runs to the edge.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

from catandsl.board import geometry as geo
from catandsl.board.harbors import Harbor
from catandsl.ir.model import Terrain

if TYPE_CHECKING:
    import networkx as nx  # type: ignore[import-untyped]  # no inline types; types-networkx is not a dependency

LAND, COAST, SEA = "land", "coast", "sea"


class Tile(NamedTuple):
    """What instantiation decided for one hex of the board (a named tuple: a deal
    makes one per hex, and `check` deals a map many times)."""

    hex: geo.Hex
    terrain: str
    number: int | None = None
    pool: str | None = None
    frame_piece: int | None = None
    frame_label: str | None = None


def hex_node(h: geo.Hex) -> tuple:
    return ("hex", h[0], h[1])


def intersection_node(i: geo.Intersection) -> tuple:
    return ("i", i[0], i[1], i[2])


def classify(land_sides: int, sides: int) -> str:
    """Land when every side is land, sea when none is, coast otherwise."""
    if land_sides == 0:
        return SEA
    return LAND if land_sides == sides else COAST


def build_graph(
    tiles: dict[geo.Hex, Tile],
    terrains: dict[str, Terrain],
    harbors: tuple[Harbor, ...],
    islands: dict[geo.Hex, int],
) -> nx.Graph:
    """The graph of a board; `tiles` and `islands` are keyed by hex."""
    import networkx as nx  # loaded with the first graph (a quarter second): most work needs none

    graph = nx.Graph()
    hexes = sorted(tiles, key=geo.hex_key)

    def land(h: geo.Hex) -> bool:
        return h in tiles and not terrains[tiles[h].terrain].water

    # (nodes and edges added in bulk, each with its attribute dict: a board of 10,000
    # hexes has 120,000 edges)
    graph.add_nodes_from(
        (hex_node(h), {
            "kind": "hex", "terrain": t.terrain, "number": t.number, "water": not land(h),
            "island": islands.get(h, -1), "frame": t.frame_piece is not None,
            "frame_piece": t.frame_piece, "frame_label": t.frame_label, "pool": t.pool,
        })
        for h, t in ((h, tiles[h]) for h in hexes))

    harbor_at_corner = {end: hb.type for hb in harbors for end in geo.edge_ends(hb.path)}
    harbor_at_path = {hb.path: hb.type for hb in harbors}

    def corner_data(c: geo.Intersection) -> dict:
        around = geo.intersection_hexes(c)
        on_land = [h for h in around if land(h)]
        return {"kind": "intersection", "cls": classify(len(on_land), len(around)),
                "harbor": harbor_at_corner.get(c), "islands": tuple(sorted({islands[h] for h in on_land})),
                "hub": None}

    corners = sorted({c for h in hexes for c in geo.corners(h)}, key=geo.intersection_key)
    graph.add_nodes_from((intersection_node(c), corner_data(c)) for c in corners)

    def path_edge(p: geo.Path) -> tuple:
        a, b = geo.edge_ends(p)
        both = geo.edge_hexes(p)
        return (intersection_node(a), intersection_node(b), {
            "kind": "path", "id": p, "hexes": tuple(h for h in both if h in tiles),
            "cls": classify(sum(land(h) for h in both), len(both)), "harbor": harbor_at_path.get(p)})

    paths = sorted({p for h in hexes for p in geo.sides(h)}, key=geo.path_key)
    graph.add_edges_from(path_edge(p) for p in paths)
    graph.add_edges_from((hex_node(h), intersection_node(c), {"kind": "touch"})
                         for h in hexes for c in geo.corners(h))

    for h in hexes:
        if land(h) and terrains[tiles[h].terrain].hub:
            _add_hub(graph, h, islands, land)
    return graph


def _add_hub(graph: nx.Graph, h: geo.Hex, islands: dict[geo.Hex, int], land) -> None:
    """A hub hex's centre point, and a spur to each corner it shares with other land."""
    centre = intersection_node(geo.centre(h))
    graph.add_node(centre, kind="intersection", cls=LAND, harbor=None,
                   islands=(islands[h],), hub=h)
    graph.add_edge(hex_node(h), centre, kind="touch")
    for name in geo.CORNER_NAMES:
        c = geo.corner(h, name)
        if any(land(x) for x in geo.intersection_hexes(c) if x != h):
            graph.add_edge(centre, intersection_node(c), kind="path", id=geo.spur(h, name),
                           hexes=(h,), cls=LAND, harbor=None)
