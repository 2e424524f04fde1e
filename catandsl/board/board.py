"""The Board: one concrete board of a configured map, made by `instantiate`.

The graph (`board.graph`, see `catandsl.board.graph`, built on first use) is the model;
the flat tables (see `catandsl.board.tables.Tables`, each field also an attribute of the
board) are a cache of it for the engine, derived from the same tiles: what depends on
the board's shape alone once per shape (catandsl.board.shape), the deal's per board.
Ids are indexes into the sorted id lists:

- `hexes`: (q, r), sorted by row then column;
- `intersections`: (q, r, "N" | "S"), sorted by row, column, then N before S; a hub
  hex's centre point (q, r, "C") comes after its hex's N and S;
- `paths`: (q, r, "NE" | "NW" | "W"), sorted by row, column, then NE, NW, W; a hub
  hex's spurs (q, r, "C-N") ... (q, r, "C-NW") come after its hex's own sides, in
  corner order (N, NE, SE, S, SW, NW).

Other attributes: `seed`; `terrains` (name -> ir Terrain) and `terrain_names` (the
index space of `hex_terrain`, in declaration order); `harbors` (tuple of `Harbor`,
sorted by path); `islands` (island number -> its hex ids; islands are numbered in order
of their first hex); `island_names` (name -> island numbers); `starts` (neutral piece ->
hex id, -1 off the board); `start_sites` (neutral piece -> its start's site ids, one per
piece: hex ids, or path ids for a piece on paths; empty off the board). A board is not
changed after it is made.
"""

from __future__ import annotations

import dataclasses
import functools
from typing import TYPE_CHECKING

from catandsl.board import geometry as geo
from catandsl.board.graph import Tile, build_graph
from catandsl.board.harbors import Harbor
from catandsl.board.shape import hubs_of, shape
from catandsl.board.tables import Tables, derive_tables
from catandsl.ir.model import HarborType, Terrain

if TYPE_CHECKING:  # networkx loads when a graph is first built (a quarter second): most work needs none
    import networkx as nx  # type: ignore[import-untyped]  # no inline types; types-networkx is not a dependency


class Board(Tables):
    """One concrete board of a configured map: its tiles, ids and graph, and its flat
    tables (`catandsl.board.tables.Tables`, documented there) as its own fields, so the
    hot loop reads `board.corner_hexes`. A board is one object, compared by identity:
    not the value its tables are."""

    __eq__ = object.__eq__
    __hash__ = object.__hash__

    def __init__(
        self,
        *,
        seed: int,
        terrains: dict[str, Terrain],
        tiles: dict[geo.Hex, Tile],
        harbors: tuple[Harbor, ...],
        harbor_supply: tuple[HarborType, ...] = (),
        islands: dict[geo.Hex, int],
        island_names: dict[str, tuple[int, ...]],
        starts: dict[str, geo.Hex | None],
        start_sites: dict[str, tuple[geo.Hex | geo.Path, ...]] | None = None,
        areas: dict[str, tuple[tuple[geo.Hex, ...], tuple[geo.Intersection, ...]]] | None = None,
    ):
        self.seed = seed
        self.terrains = dict(terrains)
        self.terrain_names: tuple[str, ...] = tuple(terrains)
        self.harbors = harbors
        # the harbors of `placed` plans: drawn and placed by the players in the set-up
        self.harbor_supply: tuple[HarborType, ...] = harbor_supply
        # the graph is built from these on first use (`graph`): the engine reads the tables
        self.tiles = tiles
        self._islands = islands
        hexes = tuple(sorted(tiles, key=geo.hex_key))

        def land(h: geo.Hex) -> bool:
            return h in tiles and not terrains[tiles[h].terrain].water

        hubs = hubs_of(hexes, lambda h: land(h) and terrains[tiles[h].terrain].hub, land)
        the_shape = shape(hexes, hubs)  # kept per shape: every deal of a map shares it
        self.hexes: tuple[geo.Hex, ...] = the_shape.hexes
        self.intersections: tuple[geo.Intersection, ...] = the_shape.intersections
        self.paths: tuple[geo.Path, ...] = the_shape.paths
        # (shared by the boards of one shape: never changed)
        self.hex_index = the_shape.hex_index
        self.intersection_index = the_shape.intersection_index
        self.path_index = the_shape.path_index

        self.tables: Tables = derive_tables(the_shape, tiles, terrains, self.terrain_names, harbors, islands)
        for f in dataclasses.fields(Tables):  # (a frozen dataclass's fields: set past its guard)
            object.__setattr__(self, f.name, getattr(self.tables, f.name))

        by_island: dict[int, list[int]] = {}
        for h in self.hexes:
            if h in islands:
                by_island.setdefault(islands[h], []).append(self.hex_index[h])
        # (a board whose hexes changed in play may leave a number unused: rules/hexes.py)
        self.islands: tuple[tuple[int, ...], ...] = tuple(
            tuple(by_island.get(k, ())) for k in range(max(by_island, default=-1) + 1)
        )
        self.island_names = dict(island_names)
        # named areas (`area NAME [...]`): hex ids, intersection ids, and the paths with
        # both ends in the area
        self.area_hexes: dict[str, frozenset[int]] = {}
        self.area_corners: dict[str, frozenset[int]] = {}
        self.area_paths: dict[str, frozenset[int]] = {}
        for name, (hexes, corners) in (areas or {}).items():
            inside = frozenset(self.intersection_index[c] for c in corners if c in self.intersection_index)
            self.area_hexes[name] = frozenset(self.hex_index[h] for h in hexes)
            self.area_corners[name] = inside
            self.area_paths[name] = frozenset(
                k for k, ends in enumerate(self.path_ends) if all(c in inside for c in ends))
        self.starts = {
            piece: -1 if h is None else self.hex_index[h] for piece, h in starts.items()
        }
        # every start as site ids, one per piece: hex ids, or path ids for a start on paths
        self.start_sites: dict[str, tuple[int, ...]] = {
            piece: tuple(self.path_index[s] if len(s) == 3 else self.hex_index[s] for s in sites)
            for piece, sites in (start_sites or {}).items()
        }

    @functools.cached_property
    def graph(self) -> nx.Graph:
        """The board as a networkx graph (catandsl.board.graph), built on first use from
        the same tiles as the tables."""
        return build_graph(self.tiles, self.terrains, self.harbors, self._islands)

    # ---- looking ids up ------------------------------------------------------------------

    def hex_id(self, q: int, r: int) -> int:
        return self.hex_index[(q, r)]

    def intersection_id(self, q: int, r: int, corner: str) -> int:
        """Id of an intersection named by any of the six corner names of hex (q, r), or
        `"C"`: the centre point of a hub hex."""
        return self.intersection_index[geo.corner((q, r), corner)]

    def path_id(self, q: int, r: int, side: str) -> int:
        """Id of a path named by any of the six side names of hex (q, r), or by a spur
        name (`"C-N"` ... `"C-NW"`) of a hub hex."""
        return self.path_index[geo.canonical_edge(q, r, side)]

    def terrain(self, hex_id: int) -> str:
        return self.terrain_names[self.hex_terrain[hex_id]]

    # ---- summary ---------------------------------------------------------------------------

    def to_json(self) -> dict:
        """The board's facts as plain data, for snapshots, renderers and other programs."""
        hexes = []
        for h in self.hexes:
            data = self.graph.nodes[("hex", h[0], h[1])]
            hexes.append({
                "q": h[0], "r": h[1], "terrain": data["terrain"], "number": data["number"],
                "island": data["island"], "frame": data["frame_piece"],
            })
        out = {
            "seed": self.seed,
            "hexes": hexes,
            "harbors": [
                {  # an empty spot (the players place its harbor) has no type yet
                    "path": list(hb.path), "give": hb.type.give if hb.type else None,
                    "get": hb.type.get if hb.type else None,
                    "resource": hb.type.resource if hb.type else None,
                }
                for hb in self.harbors
            ],
            "starts": {
                piece: None if k < 0 else list(self.hexes[k]) for piece, k in self.starts.items()
            },
            "islands": {name: list(ids) for name, ids in self.island_names.items()},
        }
        if self.area_hexes:  # named areas: their hexes and intersections, as coordinates
            out["areas"] = {name: {"hexes": [list(self.hexes[h]) for h in sorted(self.area_hexes[name])],
                                   "intersections": [list(self.intersections[c])
                                                     for c in sorted(self.area_corners[name])]}
                            for name in sorted(self.area_hexes)}
        # pieces that start on paths (or several to a kind): every site, in full
        many = {piece: ids for piece, ids in self.start_sites.items()
                if len(ids) > 1 or (ids and piece not in self.starts)}
        if many:
            out["start_sites"] = {
                piece: [list(self.hexes[k]) if piece in self.starts else list(self.paths[k]) for k in ids]
                for piece, ids in many.items()
            }
        return out

    def __repr__(self) -> str:
        return (
            f"<Board seed={self.seed} hexes={len(self.hexes)} "
            f"intersections={len(self.intersections)} paths={len(self.paths)}>"
        )
