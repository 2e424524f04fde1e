"""One failing map per BoardError code."""

import board_scenarios as bs
import pytest

from catandsl.board import BoardError, instantiate
from catandsl.board import geometry as geo
from catandsl.ir import configure, model

SRC = model.Source("bad.catan", 7, 3)


def fails(m: model.Map, code: str, seed: int = 1) -> BoardError:
    with pytest.raises(BoardError) as info:
        instantiate(bs.ruleset(m), seed)
    assert info.value.code == code, str(info.value)
    return info.value


def row(*terrains: str, numbers=()) -> model.Map:
    slots = tuple(model.HexSlot(q, 0, terrain=t) for q, t in enumerate(terrains))
    return model.Map("row", slots, numbers=numbers)


def test_e0403_pool_does_not_fill_its_slots():
    m = bs.standard_map()
    short = bs.replace(m.pools[0], tiles=m.pools[0].tiles[:-1], source=SRC)
    err = fails(bs.replace(m, pools=(short,)), "E0403")
    assert "18 tiles for 19 hexes" in err.message
    assert err.source == SRC


def test_e0403_slot_names_an_unknown_pool():
    m = bs.standard_map()
    odd = model.HexSlot(0, 0, pool="lnad", source=SRC)
    hexes = tuple(odd if (h.q, h.r) == (0, 0) else h for h in m.hexes)
    err = fails(bs.replace(m, hexes=hexes), "E0403")
    assert "lnad" in err.message and err.source == SRC


def test_e0404_harbor_between_two_land_hexes():
    m = bs.standard_map()
    spots = (model.EdgeRef(0, 0, "E", source=SRC),) + bs.HARBOR_SPOTS[1:]
    err = fails(bs.replace(m, harbors=(bs.replace(m.harbors[0], spots=spots),)), "E0404")
    assert "(0,0) E" in err.message and err.source == SRC
    assert err.help == "no side of (0,0) faces water"


def test_e0404_harbor_between_two_sea_hexes_names_the_land_sides():
    m = bs.standard_map()
    spots = (model.EdgeRef(0, -3, "E"),) + bs.HARBOR_SPOTS[1:]
    err = fails(bs.replace(m, harbors=(bs.replace(m.harbors[0], spots=spots),)), "E0404")
    assert "between sea and sea" in err.message
    assert err.help == "the sides of (0,-3) that face land are SE"


def test_e0406_frame_pieces_too_short():
    frame = bs.replace(bs.FRAME, pieces=bs.FRAME.pieces[:-1] + (model.FramePiece("F", "A", 2),))
    err = fails(bs.standard_map(frame=frame), "E0406")
    assert "17" in err.message and "18" in err.message


def test_e0406_frame_around_a_map_with_a_hole():
    m = bs.standard_map(numbers="fixed", harbors=False)
    holed = tuple(h for h in m.hexes if (h.q, h.r) != (0, 0))
    err = fails(bs.replace(m, hexes=holed, pools=(), numbers=()), "E0406")
    assert "not a closed ring" in err.message


def test_e0406_frame_around_nothing():
    fails(model.Map("empty", (), frame=bs.FRAME), "E0406")


def test_e0407_letters_do_not_close():
    pieces = tuple(model.FramePiece(a, b, 3) for a, b in zip("ABCDEF", "BCDEFG"))
    err = fails(bs.standard_map(frame=bs.replace(bs.FRAME, pieces=pieces)), "E0407")
    assert "G meets letter A" in err.message


def extended_frame(joints: tuple[str, ...]) -> model.Frame:
    pieces = (
        model.FramePiece("A", "B", 3), model.FramePiece("X", "X", 1), model.FramePiece("B", "C", 2),
        model.FramePiece("C", "D", 3), model.FramePiece("D", "E", 3), model.FramePiece("E", "F", 3),
        model.FramePiece("F", "A", 3),
    )
    return model.Frame(pieces, extension_joints=joints)


def test_extension_pieces_stand_in_allowed_joints():
    board = instantiate(bs.ruleset(bs.standard_map(frame=extended_frame(("B", "F")))), 1)
    assert sum(1 for d in board.to_json()["hexes"] if d["frame"] == 1) == 1


def test_e0407_extension_in_a_joint_that_allows_none():
    err = fails(bs.standard_map(frame=extended_frame(("F",))), "E0407")
    assert "joint B" in err.message and err.help == "extensions may stand only in joints: F"


def test_e0408_too_many_hexes():
    hexes = tuple(model.HexSlot(q, 0, terrain="sea") for q in range(10_001))
    fails(model.Map("huge", hexes), "E0408")


def test_e0409_spiral_on_a_row():
    tokens = tuple(model.NumberToken(v, chr(65 + k)) for k, v in enumerate((5, 9, 10)))
    m = row("forest", "hills", "fields", numbers=(model.NumberPlan("spiral", tokens),))
    fails(m, "E0409")


def test_e0410_six_and_eight_cannot_be_kept_apart():
    tokens = (model.NumberToken(6), model.NumberToken(8))
    plan = model.NumberPlan("shuffled", tokens, avoid_adjacent=(6, 8), source=SRC)
    err = fails(row("forest", "hills", numbers=(plan,)), "E0410")
    assert err.source == SRC


def test_e0410_a_big_map_is_dealt_fewer_times(monkeypatch):
    # Each deal costs as many steps as there are numbered hexes: on a map of 5,000 the
    # deals are bounded by the tokens dealt in all (MAX_DEALT), not only by MAX_DEALS.
    import random

    from catandsl.board import numbers

    shuffles = []
    real = random.Random.shuffle
    monkeypatch.setattr(random.Random, "shuffle", lambda self, x: shuffles.append(1) or real(self, x))
    tokens = tuple(model.NumberToken((6, 8, 5, 9, 4)[k % 5]) for k in range(5000))
    plan = model.NumberPlan("shuffled", tokens, avoid_adjacent=(6, 8), source=SRC)
    hexes = tuple(model.HexSlot(k % 100, k // 100, terrain="forest") for k in range(5000))
    err = fails(model.Map("big", hexes, numbers=(plan,)), "E0410")
    assert len(shuffles) == numbers.MAX_DEALT // 5000 < numbers.MAX_DEALS
    assert f"in {numbers.MAX_DEALT // 5000} shuffles" in err.message


def test_e0410_spiral_that_puts_six_next_to_eight():
    letters = "ABCDEFGHIJKLMNOPQR"
    values = (6, 8) + bs.VALUES[2:4] + (5, 2) + bs.VALUES[6:]
    tokens = tuple(model.NumberToken(v, x) for v, x in zip(values, letters))
    m = bs.standard_map(avoid=(6, 8))
    plan = bs.replace(m.numbers[0], tokens=tokens)
    fails(bs.replace(m, numbers=(plan,)), "E0410")


def test_e0411_start_off_the_map():
    m = bs.replace(bs.standard_map(), starts=(model.Start("robber", q=9, r=9, source=SRC),))
    err = fails(m, "E0411")
    assert "(9,9)" in err.message and err.source == SRC


def test_e0411_start_on_a_missing_terrain():
    m = bs.replace(bs.standard_map(), starts=(model.Start("pirate", terrain="gold"),))
    fails(m, "E0411")


def test_e0411_island_named_by_a_sea_hex():
    m = bs.replace(bs.standard_map(), islands=(model.IslandName("main", ((0, -3),)),))
    fails(m, "E0411")


def test_e0413_harbors_and_spots_differ():
    m = bs.standard_map()
    plan = bs.replace(m.harbors[0], spots=bs.HARBOR_SPOTS[:-1])
    err = fails(bs.replace(m, harbors=(plan,)), "E0413")
    assert "9 harbors for 8 spots" in err.message


def test_e0414_tokens_and_hexes_differ():
    m = bs.standard_map()
    plan = bs.replace(m.numbers[0], tokens=bs.TOKENS[:-1])
    err = fails(bs.replace(m, numbers=(plan,)), "E0414")
    assert "17 tokens for 18 hexes" in err.message


def test_e0420_unknown_terrain():
    m = bs.standard_map()
    pool = bs.replace(m.pools[0], tiles=m.pools[0].tiles[:-1] + (model.Amount("swamp", 1),))
    err = fails(bs.replace(m, pools=(pool,)), "E0420")
    assert "swamp" in err.message


def test_e0420_frame_of_land():
    fails(bs.standard_map(frame=bs.replace(bs.FRAME, terrain="desert")), "E0420")


def test_e0412_duplicate_hex():
    m = row("forest", "hills")
    fails(bs.replace(m, hexes=m.hexes + (model.HexSlot(0, 0, terrain="sea"),)), "E0412")


def test_e0421_bad_slots_and_numbers():
    m = row("forest", "hills")
    fails(bs.replace(m, hexes=(model.HexSlot(0, 0, terrain="hills", number=7),)), "E0421")
    fails(bs.replace(m, hexes=(model.HexSlot(0, 0),)), "E0421")


def test_e0422_harbors_that_touch():
    m = bs.standard_map()
    # (0,-2) NW and (0,-2) NE share the top corner of (0,-2).
    spots = (model.EdgeRef(0, -2, "NE"),) + bs.HARBOR_SPOTS[:-1]
    fails(bs.replace(m, harbors=(bs.replace(m.harbors[0], spots=spots),)), "E0422")


def test_e0423_no_map():
    scenario = model.Scenario("x", "No map", 3, 4, (), (model.Section(bs.TERRAINS),))
    with pytest.raises(BoardError) as info:
        instantiate(configure(scenario, 3), 1)
    assert info.value.code == "E0423"


def test_board_error_becomes_a_located_diagnostic():
    err = BoardError("E0404", "harbor off the coast", SRC, help="sides: NE")
    d = err.to_diagnostic()
    assert (d.code, d.span.file, d.span.line, d.span.column, d.help) == (
        "E0404", "bad.catan", 7, 3, "sides: NE")
    assert str(err) == "E0404: harbor off the coast"


def test_geometry_of_error_fixtures():
    # The E0422 fixture really does share an intersection.
    a = set(geo.edge_ends(geo.canonical_edge(0, -2, "NE")))
    b = set(geo.edge_ends(geo.canonical_edge(0, -2, "NW")))
    assert a & b
