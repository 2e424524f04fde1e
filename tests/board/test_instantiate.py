import collections

import board_scenarios as bs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from catandsl.board import CLASS_CODE, instantiate
from catandsl.board import geometry as geo
from catandsl.ir import model


def test_standard_island_with_frame():
    board = bs.board(seed=3)
    g = board.graph
    frame = [n for n, d in g.nodes(data=True) if d["kind"] == "hex" and d["frame"]]
    land = [n for n, d in g.nodes(data=True) if d["kind"] == "hex" and not d["water"]]
    assert len(frame) == 18 and len(land) == 19
    assert all(g.nodes[n]["terrain"] == "sea" and g.nodes[n]["water"] for n in frame)
    touching_land = [c for c, code in enumerate(board.corner_cls) if code != CLASS_CODE["sea"]]
    assert len(touching_land) == 54
    assert len(board.hexes) == 37
    counts = collections.Counter(board.terrain(h) for h in range(len(board.hexes)))
    assert counts == {"sea": 18, "forest": 4, "pasture": 4, "fields": 4, "hills": 3,
                      "mountains": 3, "desert": 1}


def test_frame_pieces_cover_the_ring_clockwise_from_the_top():
    board = bs.board(seed=3)
    hexes = board.to_json()["hexes"]
    pieces = {(d["q"], d["r"]): d["frame"] for d in hexes if d["frame"] is not None}
    ring = geo.ring((0, 0), 3, start=2)  # counter-clockwise from the NW corner (0,-3)
    clockwise = (ring[0],) + tuple(reversed(ring[1:]))
    assert [pieces[h] for h in clockwise] == [k // 3 for k in range(18)]


@pytest.mark.parametrize("seed", range(12))
def test_spiral_skips_the_desert_and_keeps_six_and_eight_apart(seed):
    board = bs.board(seed=seed)
    desert = [h for h in range(len(board.hexes)) if board.terrain(h) == "desert"]
    assert len(desert) == 1 and board.hex_number[desert[0]] == 0
    numbered = sorted(board.hex_number[h] for h in range(len(board.hexes)) if board.hex_number[h])
    assert numbered == sorted(bs.VALUES)
    for h, n in enumerate(board.hex_number):
        if n in (6, 8):
            assert all(board.hex_number[m] not in (6, 8) for m in board.hex_neighbours[h])


def test_spiral_from_a_given_corner_lays_letters_in_order():
    m = bs.standard_map(start_corner=0)
    board = instantiate(bs.ruleset(m), 5)
    order = [h for h in geo.spiral((0, 0), 2, 0) if board.terrain(board.hex_id(*h)) != "desert"]
    assert [board.hex_number[board.hex_id(*h)] for h in order] == list(bs.VALUES)


@pytest.mark.parametrize("seed", range(6))
def test_shuffled_numbers_keep_avoided_numbers_apart(seed):
    m = bs.standard_map(numbers="shuffled", avoid=(6, 8))
    board = instantiate(bs.ruleset(m), seed)
    assert sorted(n for n in board.hex_number if n) == sorted(bs.VALUES)
    for h, n in enumerate(board.hex_number):
        if n in (6, 8):
            assert all(board.hex_number[m] not in (6, 8) for m in board.hex_neighbours[h])


def test_harbors_lie_on_the_coast_and_serve_their_two_intersections():
    board = bs.board(seed=9)
    assert len(board.harbors) == 9
    kinds = collections.Counter((h.type.give, h.type.resource) for h in board.harbors)
    assert kinds[(3, None)] == 4 and len(kinds) == 6
    for k, harbor in enumerate(board.harbors):
        p = board.path_index[harbor.path]
        assert board.path_cls[p] == CLASS_CODE["coast"]
        for end in board.path_ends[p]:
            assert board.corner_harbor[end] == k
    served = [c for c in board.corner_harbor if c >= 0]
    assert len(served) == 18


def test_fixed_harbors_are_laid_in_order():
    m = bs.standard_map()
    fixed = bs.replace(m.harbors[0], method="fixed")
    board = instantiate(bs.ruleset(bs.replace(m, harbors=(fixed,))), 1)
    by_path = {h.path: h.type for h in board.harbors}
    for spot, kind in zip(bs.HARBOR_SPOTS, bs.HARBORS):
        assert by_path[geo.canonical_edge(spot.q, spot.r, spot.side)] == kind


def test_starts_and_island_names():
    board = bs.board(seed=2)
    robber = board.starts["robber"]
    assert board.terrain(robber) == "desert"
    assert board.island_names == {"main": (0,)}
    assert board.islands == (tuple(h for h in range(len(board.hexes)) if not board.hex_water[h]),)
    m = bs.replace(bs.standard_map(), starts=(
        model.Start("robber", q=1, r=-1), model.Start("pirate", off_board=True),
        model.Start("merchant", terrain="forest"),
    ))
    board = instantiate(bs.ruleset(m), 2)
    assert board.starts["robber"] == board.hex_id(1, -1)
    assert board.starts["pirate"] == -1
    first_forest = next(h for h in range(len(board.hexes)) if board.terrain(h) == "forest")
    assert board.starts["merchant"] == first_forest


def test_islands_are_numbered_by_their_first_hex():
    # Two islands of fixed land in a sea, no frame: the upper one is island 0.
    def slot(q, r, terrain):
        return model.HexSlot(q, r, terrain=terrain)
    hexes = [slot(q, r, "sea") for q, r in geo.hexagon((0, 0), 3)]
    land = {(0, -2): "forest", (1, -2): "hills", (0, 2): "fields", (-1, 2): "pasture"}
    hexes = tuple(slot(h.q, h.r, land.get((h.q, h.r), "sea")) for h in hexes)
    m = model.Map("two", hexes, islands=(model.IslandName("south", ((0, 2),)),
                                         model.IslandName("north", ((1, -2),))))
    board = instantiate(bs.ruleset(m), 0)
    assert board.island_names == {"south": (1,), "north": (0,)}
    assert board.hex_island[board.hex_id(0, -2)] == 0
    assert board.hex_island[board.hex_id(-1, 2)] == 1
    assert board.hex_island[board.hex_id(0, 0)] == -1
    # Off-board space counts as water: the map's outer corners are sea, not land.
    outer = board.intersection_id(3, -3, "N")
    assert board.corner_cls[outer] == CLASS_CODE["sea"]


def test_pools_onto_limits_a_number_plan():
    slots = (
        model.HexSlot(0, 0, pool="a"), model.HexSlot(1, 0, pool="a"),
        model.HexSlot(2, 0, pool="b"), model.HexSlot(3, 0, terrain="hills", number=12),
    )
    m = model.Map(
        "row", slots,
        pools=(model.TilePool("a", (model.Amount("forest", 2),)),
               model.TilePool("b", (model.Amount("gold", 1),), shuffled=False)),
        numbers=(
            model.NumberPlan("shuffled", (model.NumberToken(4), model.NumberToken(5)), onto=("a",)),
            model.NumberPlan("shuffled", (model.NumberToken(9),), onto=("b",)),
        ),
    )
    board = instantiate(bs.ruleset(m), 4)
    assert board.hex_number[board.hex_id(2, 0)] == 9
    assert board.terrain(board.hex_id(2, 0)) == "gold"
    assert board.hex_number[board.hex_id(3, 0)] == 12
    assert sorted(board.hex_number[board.hex_id(q, 0)] for q in (0, 1)) == [4, 5]
    assert board.number_hexes[12] == (board.hex_id(3, 0),)


def test_same_seed_same_board_and_seeds_differ():
    a, b = bs.board(seed=11).to_json(), bs.board(seed=11).to_json()
    assert a == b
    others = {repr(bs.board(seed=s).to_json()["hexes"]) for s in range(8)}
    assert len(others) >= 7


def test_no_pool_stream_depends_on_another():
    # Adding a second pool must not reshuffle the first.
    m = bs.standard_map()
    extra = model.HexSlot(5, -5, pool="far")
    m2 = bs.replace(m, hexes=m.hexes + (extra,),
                    pools=m.pools + (model.TilePool("far", (model.Amount("gold", 1),)),),
                    frame=None, harbors=())
    m1 = bs.replace(m, frame=None, harbors=())
    t1 = {(d["q"], d["r"]): d["terrain"] for d in instantiate(bs.ruleset(m1), 7).to_json()["hexes"]}
    t2 = {(d["q"], d["r"]): d["terrain"] for d in instantiate(bs.ruleset(m2), 7).to_json()["hexes"]}
    assert all(t2[h] == t for h, t in t1.items())


@settings(max_examples=40, deadline=None)
@given(st.integers(min_value=-(2**40), max_value=2**40), st.sampled_from(["spiral", "shuffled"]))
def test_every_seed_gives_a_complete_legal_board(seed, method):
    board = instantiate(bs.ruleset(bs.standard_map(numbers=method, avoid=(6, 8))), seed)
    land = [h for h in range(len(board.hexes)) if not board.hex_water[h]]
    counts = collections.Counter(board.terrain(h) for h in land)
    assert counts == {a.name: a.count for a in bs.LAND_TILES}
    assert sorted(board.hex_number[h] for h in land if board.hex_number[h]) == sorted(bs.VALUES)
    for h in land:
        assert (board.hex_number[h] == 0) == (board.terrain(h) == "desert")
        if board.hex_number[h] in (6, 8):
            assert all(board.hex_number[n] not in (6, 8) for n in board.hex_neighbours[h])
    assert board.terrain(board.starts["robber"]) == "desert"
    assert sorted((h.type.give, h.type.resource or "") for h in board.harbors) == sorted(
        (t.give, t.resource or "") for t in bs.HARBORS)
