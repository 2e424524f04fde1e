"""The flat tables are a cache of the graph: check them against it for every id."""

import board_scenarios as bs
import pytest

from catandsl.board import CLASSES, instantiate
from catandsl.board import geometry as geo
from catandsl.board.changes import changed_board
from catandsl.board.instantiate import deal
from catandsl.ir import configure, model


def two_islands():
    land = {(0, -2): "forest", (1, -2): "gold", (0, 2): "fields", (-1, 2): "desert"}
    numbers = {(0, -2): 5}
    hexes = tuple(
        model.HexSlot(q, r, terrain=land.get((q, r), "sea"), number=numbers.get((q, r)))
        for q, r in geo.hexagon((0, 0), 3)
    )
    h = model.HarborType(3, 1)
    spot = model.EdgeRef(0, -2, "W")
    return model.Map("two", hexes, harbors=(model.HarborPlan("fixed", (h,), (spot,)),))


def hubs_ruleset():
    """The two islands with the forest turned into a hub, and a hub inland on the
    standard island's (0, 0)."""
    m = two_islands()
    hexes = tuple(bs.replace(h, terrain="castle", number=None) if (h.q, h.r) in ((0, -2), (0, 0))
                  else h for h in m.hexes)
    hexes += tuple(model.HexSlot(q, r, terrain="hills") for q, r in geo.neighbours((0, 0)))
    hexes = tuple(h for h in hexes if not (h.terrain == "sea" and (h.q, h.r) in geo.neighbours((0, 0))))
    scenario = bs.scenario(bs.replace(m, hexes=hexes), (model.Terrain("castle", hub=True),))
    return configure(scenario, 4)


def changed():
    """The hubs' board with hexes changed as rules/hexes.py changes them: the gold hex
    beside the coastal hub turned to sea (the hub loses a spur), a sea hex beside the
    other island turned to land (joins it), the inland hub turned to hills."""
    d = deal(hubs_ruleset(), 0)
    return changed_board(d, (((1, -2), "sea", 0), ((-1, 3), "hills", 0), ((0, 0), "hills", 0)))


BOARDS = {
    "hubs": lambda: instantiate(hubs_ruleset(), 0),
    "hubs, changed": changed,
    "standard": lambda: bs.board(seed=4),
    "standard, another deal": lambda: bs.board(seed=5),  # the same shape, another deal
    "no frame": lambda: instantiate(bs.ruleset(bs.standard_map(frame=None, harbors=False)), 4),
    "two islands": lambda: instantiate(bs.ruleset(two_islands()), 0),
}


@pytest.fixture(params=sorted(BOARDS), scope="module")
def board(request):
    return BOARDS[request.param]()


def hex_ids(board, nodes):
    return sorted(board.hex_index[n[1:]] for n in nodes if n[0] == "hex")


def corner_ids(board, nodes):
    return sorted(board.intersection_index[n[1:]] for n in nodes if n[0] == "i")


def test_id_lists_are_sorted_by_geometry_and_match_the_graph(board):
    g = board.graph
    assert list(board.hexes) == sorted(board.hexes, key=geo.hex_key)
    assert list(board.intersections) == sorted(board.intersections, key=geo.intersection_key)
    assert list(board.paths) == sorted(board.paths, key=geo.path_key)
    assert len(board.hexes) + len(board.intersections) == g.number_of_nodes()
    paths = [e for _, _, e in g.edges(data=True) if e["kind"] == "path"]
    assert len(paths) == len(board.paths)


def test_hex_tables(board):
    g = board.graph
    for k, h in enumerate(board.hexes):
        data = g.nodes[("hex", *h)]
        assert board.terrain_names[board.hex_terrain[k]] == data["terrain"]
        assert board.hex_number[k] == (data["number"] or 0)
        assert board.hex_water[k] == data["water"]
        assert board.hex_island[k] == data["island"]
        assert (board.hex_island[k] == -1) == data["water"]
        touching = corner_ids(board, g[("hex", *h)])
        centre = board.hex_centre[k]
        assert (centre >= 0) == board.terrains[data["terrain"]].hub
        if centre >= 0:  # a hub hex touches its centre point too
            assert board.intersections[centre] == geo.centre(h) and centre in touching
            touching.remove(centre)
        assert sorted(board.hex_corners[k]) == touching and len(touching) == 6
        assert [board.intersections[c] for c in board.hex_corners[k]] == list(geo.corners(h))
        assert [board.paths[p] for p in board.hex_paths[k]] == list(geo.sides(h))
        assert [board.hexes[n] for n in board.hex_neighbours[k]] == sorted(
            (n for n in geo.neighbours(h) if n in board.hex_index), key=geo.hex_key)
        if data["number"]:
            assert k in board.number_hexes[data["number"]]


def test_number_hexes_cover_every_numbered_hex(board):
    listed = sorted(h for ids in board.number_hexes for h in ids)
    assert listed == [k for k, n in enumerate(board.hex_number) if n]
    assert len(board.number_hexes) == 13


def test_intersection_tables(board):
    g = board.graph
    for k, c in enumerate(board.intersections):
        node = ("i", *c)
        data = g.nodes[node]
        assert board.corner_hexes[k] == tuple(hex_ids(board, g[node]))
        path_nbrs = [n for n, e in g[node].items() if e["kind"] == "path"]
        assert board.corner_neighbours[k] == tuple(corner_ids(board, path_nbrs))
        assert board.corner_paths[k] == tuple(
            sorted(board.path_index[g[node][n]["id"]] for n in path_nbrs))
        assert CLASSES[board.corner_cls[k]] == data["cls"]
        assert board.corner_islands[k] == data["islands"]
        assert board.corner_hub[k] == (-1 if data["hub"] is None else board.hex_index[data["hub"]])
        assert geo.is_centre(c) == (data["hub"] is not None)
        harbor = board.corner_harbor[k]
        assert (harbor == -1) == (data["harbor"] is None)
        if harbor >= 0:
            assert board.harbors[harbor].type == data["harbor"]
            assert c in geo.edge_ends(board.harbors[harbor].path)


def test_path_tables(board):
    g = board.graph
    edges = {e["id"]: (a, b, e) for a, b, e in g.edges(data=True) if e["kind"] == "path"}
    for k, p in enumerate(board.paths):
        a, b, data = edges[p]
        assert board.path_ends[k] == tuple(corner_ids(board, [a, b]))
        assert [board.intersections[c] for c in board.path_ends[k]] == list(geo.edge_ends(p))
        assert board.path_hexes[k] == tuple(hex_ids(board, [("hex", *h) for h in data["hexes"]]))
        assert CLASSES[board.path_cls[k]] == data["cls"]
        if geo.is_spur(p):
            assert k in board.hex_spurs[board.hex_index[p[:2]]]
    assert sorted(x for spurs in board.hex_spurs for x in spurs) == [
        k for k, p in enumerate(board.paths) if geo.is_spur(p)]


def test_classes_follow_the_land_around_them(board):
    land = {h for k, h in enumerate(board.hexes) if not board.hex_water[k]}
    for k, c in enumerate(board.intersections):
        around = geo.intersection_hexes(c)  # a centre point: its hub hex alone
        n = sum(h in land for h in around)
        assert CLASSES[board.corner_cls[k]] == ("sea" if n == 0 else "land" if n == len(around) else "coast")
    for k, p in enumerate(board.paths):
        both = geo.edge_hexes(p)  # a spur: its hub hex alone
        n = sum(h in land for h in both)
        assert CLASSES[board.path_cls[k]] == ("sea" if n == 0 else "land" if n == len(both) else "coast")


def test_the_board_is_its_tables_and_compares_as_itself():
    import dataclasses

    from catandsl.board.tables import Tables

    a, b = bs.board(seed=4), bs.board(seed=4)
    assert isinstance(a, Tables)
    for f in dataclasses.fields(Tables):
        assert getattr(a, f.name) is getattr(a.tables, f.name)
    assert a == a and a != b  # the same deal twice: two boards (identity, not the tables' value)


def test_deals_of_one_shape_share_its_tables_and_keep_their_own():
    a, b = bs.board(seed=4), bs.board(seed=5)
    assert a.hex_corners is b.hex_corners and a.corner_paths is b.corner_paths  # the shape's, kept once
    assert a.hex_terrain != b.hex_terrain  # the deal's own (each checked against its graph above)
    hubbed, changed_hubs = instantiate(hubs_ruleset(), 0), changed()
    assert hubbed.hexes == changed_hubs.hexes and hubbed.paths != changed_hubs.paths  # a spur fewer, a hub fewer
    assert len(changed_hubs.intersections) == len(hubbed.intersections) - 1
