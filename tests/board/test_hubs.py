"""Hub hexes (`terrain NAME { hub }`): a centre point and spurs, named by geometry, in the
graph and in the flat tables like every other intersection and path; `touches`."""

from __future__ import annotations

import pytest

import catandsl
from catandsl.board import BoardError
from catandsl.board import geometry as geo
from catandsl.ir import configure
from catandsl.rules.base import location
from catandsl.rules.hubs import centre, spur, touches
from tests.conftest import HUB_PICTURE, compile_text, scenario_of


def scenario_text(picture: str = HUB_PICTURE, extra: str = "") -> str:
    return ('scenario "Hubs" {\n  uses base\n  terrain castle { hub }\n' + extra
            + "  map {" + picture + "  }\n}\n")


@pytest.fixture(scope="module")
def board(tmp_path_factory):
    return catandsl.board_for(scenario_of(tmp_path_factory, scenario_text()), 3)


CASTLE = (0, -1)


def test_the_terrain_is_a_hub_in_the_ir(tmp_path):
    scenario, diags = compile_text(tmp_path, scenario_text())
    assert not diags
    terrains = configure(scenario, 3).terrains
    assert terrains["castle"].hub and not terrains["forest"].hub


def test_a_coastal_hub_gets_a_centre_and_a_spur_to_each_land_side_corner(board):
    k = board.hex_index[CASTLE]
    c = board.hex_centre[k]
    assert board.intersections[c] == (0, -1, "C")
    assert board.intersection_id(0, -1, "C") == c
    assert ("i", 0, -1, "C") in board.graph
    assert board.graph.nodes[("i", 0, -1, "C")]["hub"] == CASTLE
    spurs = [board.paths[x] for x in board.hex_spurs[k]]
    assert spurs == [(0, -1, "C-NE"), (0, -1, "C-SE"), (0, -1, "C-S"), (0, -1, "C-SW")]
    assert board.path_id(0, -1, "C-S") == board.hex_spurs[k][2]
    for x in board.hex_spurs[k]:
        name = board.paths[x][2][2:]
        assert board.path_ends[x] == tuple(sorted(
            (c, board.intersection_id(0, -1, name))))
        assert board.path_hexes[x] == (k,)
    # the centre: one hex, four paths, four neighbours (the land-side corners)
    assert board.corner_hexes[c] == (k,)
    assert board.corner_paths[c] == board.hex_spurs[k]
    assert sorted(board.intersections[n] for n in board.corner_neighbours[c]) == sorted(
        geo.corner(CASTLE, n) for n in ("NE", "SE", "S", "SW"))
    assert board.corner_hub[c] == k and board.corner_islands[c] == (board.hex_island[k],)
    # a land-side corner gains the spur; a sea-side corner does not
    south = board.intersection_id(0, -1, "S")
    assert len(board.corner_paths[south]) == 4 and c in board.corner_neighbours[south]
    north = board.intersection_id(0, -1, "N")
    assert len(board.corner_paths[north]) == 3 and c not in board.corner_neighbours[north]


def test_only_hub_hexes_have_centres(board):
    hubs = [board.hexes[k] for k, c in enumerate(board.hex_centre) if c >= 0]
    assert hubs == [CASTLE]
    assert sum(1 for i in board.intersections if geo.is_centre(i)) == 1
    assert sum(1 for p in board.paths if geo.is_spur(p)) == 4
    assert [k for k, h in enumerate(board.corner_hub) if h >= 0] == [board.hex_centre[board.hex_index[CASTLE]]]
    # 16 hexes: 24 corners of the island plus the sea ring's, and the centre
    plain = {c for h in board.hexes for c in geo.corners(h)}
    assert len(board.intersections) == len(plain) + 1
    assert len(board.paths) == len({p for h in board.hexes for p in geo.sides(h)}) + 4


def test_ids_are_sorted_by_geometry(board):
    assert list(board.intersections) == sorted(board.intersections, key=geo.intersection_key)
    assert list(board.paths) == sorted(board.paths, key=geo.path_key)
    i = board.intersections.index((0, -1, "C"))
    assert board.intersections[i - 2: i] == ((0, -1, "N"), (0, -1, "S"))
    x = board.paths.index((0, -1, "C-NE"))
    assert board.paths[x - 1] == (0, -1, "W")


def test_a_hub_produces_nothing_and_takes_no_number(board):
    k = board.hex_index[CASTLE]
    assert board.hex_number[k] == 0
    assert board.terrains["castle"].produces is None and board.terrains["castle"].hub


def test_an_inland_hub_gets_six_spurs_and_two_hubs_share_no_spur(tmp_path):
    picture = '''
    hex (0, 0) castle
    hex (1, 0) castle
    hex (0, 1) forest 8
    hex (-1, 1) hills 5
    hex (-1, 0) fields 6
    hex (0, -1) pasture 4
    hex (1, -1) mountains 9
    start robber off board
'''
    scenario, diags = compile_text(tmp_path, scenario_text(picture))
    assert not diags, diags
    b = catandsl.board_for(scenario, 3)
    inner, outer = b.hex_index[(0, 0)], b.hex_index[(1, 0)]
    assert len(b.hex_spurs[inner]) == 6  # every corner touches other land
    # (1, 0) has land only to its W, NW and SW: its corners N, S, SW, NW touch other land
    assert [b.paths[x][2] for x in b.hex_spurs[outer]] == ["C-N", "C-S", "C-SW", "C-NW"]
    assert not set(b.hex_spurs[inner]) & set(b.hex_spurs[outer])


def test_touches(board, tmp_path):
    scenario, _ = compile_text(tmp_path, scenario_text())
    s = catandsl.new_game(scenario, 3, {}, 1).new_initial_state()
    b = s.game.board

    def path(q, r, side):
        return location("path", b.path_id(q, r, side))

    def corner(q, r, name):
        return location("intersection", b.intersection_id(q, r, name))

    # the castle's sides: three against the sea, three against land
    for side in ("NE", "NW", "W"):
        assert touches(s, path(0, -1, side), "castle") and touches(s, path(0, -1, side), "sea")
    for side in ("E", "SE", "SW"):
        assert touches(s, path(0, -1, side), "castle") and not touches(s, path(0, -1, side), "sea")
    assert touches(s, path(0, -1, "E"), "forest")
    # spurs and the centre touch the castle alone
    assert touches(s, path(0, -1, "C-S"), "castle") and not touches(s, path(0, -1, "C-S"), "pasture")
    assert touches(s, corner(0, -1, "C"), "castle") and not touches(s, corner(0, -1, "C"), "sea")
    # corners: the south corner touches castle, pasture and mountains
    assert [t for t in ("castle", "pasture", "mountains", "sea") if touches(s, corner(0, -1, "S"), t)] == [
        "castle", "pasture", "mountains"]
    # a hex touches its own terrain
    assert touches(s, location("hex", b.hex_id(0, -1)), "castle")
    assert not touches(s, location("hex", b.hex_id(0, 0)), "castle")
    assert not touches(s, path(1, 0, "E"), "castle")
    # centre and spur
    assert centre(s, corner(0, -1, "C")) and not centre(s, corner(0, -1, "S"))
    assert spur(s, path(0, -1, "C-SW")) and not spur(s, path(0, -1, "SW"))
    assert not spur(s, corner(0, -1, "C")) and not centre(s, path(0, -1, "C-SW"))


def test_numbers_skip_hub_hexes_spiral_and_shuffled(tmp_path):
    for plan in ("numbers spiral [A 5, B 2, C 6, D 3, E 8, F 10] start corner 0",
                 "numbers shuffled [5, 2, 6, 3, 8, 10]",
                 "numbers shuffled [5, 2, 6, 3, 8, 10] skip [castle]"):
        picture = f'''
    rows at (0, -2) """
          ~   ~   ~
        ~   a   a   ~
      ~   a   a   a   ~
        ~   a   a   ~
          ~   ~   ~
    """
    legend {{ ~ sea; a land }}
    pool land shuffled [castle, forest, pasture, fields, hills, mountains, forest]
    {plan}
    start robber off board
'''
        # 7 tiles for 7 hexes: the castle takes no token, the 6 others one each
        scenario, diags = compile_text(tmp_path, scenario_text(picture))
        assert not diags, diags
        for seed in range(4):
            b = catandsl.board_for(scenario, 3, seed=seed)
            castle = [k for k in range(len(b.hexes)) if b.terrain(k) == "castle"]
            assert len(castle) == 1 and b.hex_number[castle[0]] == 0
            numbered = sorted(n for k, n in enumerate(b.hex_number) if n)
            assert numbered == [2, 3, 5, 6, 8, 10]


def test_a_number_on_a_hub_hex_is_refused(tmp_path):
    scenario, diags = compile_text(tmp_path, scenario_text(HUB_PICTURE.replace("c   f8", "c6  f8")))
    codes = [d.code for d in diags]
    if scenario is not None:
        with pytest.raises(BoardError) as info:
            catandsl.board_for(scenario, 3)
        codes.append(info.value.code)
    assert "E0421" in codes


@pytest.mark.parametrize("body", ["terrain fort { hub; water }", "terrain fort { hub; produces wool }",
                                  "terrain fort hub produces choice"])
def test_a_hub_is_land_and_produces_nothing(tmp_path, body):
    _, diags = compile_text(tmp_path, scenario_text(extra=f"  {body}\n"))
    assert [d.code for d in diags] == ["E0304"]
    assert "hub" in diags[0].message


def test_geometry_names_the_hub_parts():
    h = (2, -1)
    assert geo.centre(h) == (2, -1, "C") == geo.corner(h, "C")
    assert geo.spur(h, "SW") == (2, -1, "C-SW") == geo.canonical_edge(2, -1, "C-SW")
    assert set(geo.edge_ends(geo.spur(h, "SW"))) == {geo.centre(h), geo.corner(h, "SW")}
    assert geo.edge_hexes(geo.spur(h, "N")) == (h,)
    assert geo.intersection_hexes(geo.centre(h)) == (h,)
    assert geo.path_between(geo.corner(h, "NE"), geo.centre(h)) == geo.spur(h, "NE")
    assert geo.corner_pixel(geo.centre(h)) == geo.pixel(h)
    assert geo.SPUR_NAMES == ("C-N", "C-NE", "C-SE", "C-S", "C-SW", "C-NW")
    with pytest.raises(ValueError):
        geo.spur(h, "E")
    with pytest.raises(ValueError):
        geo.path_between(geo.centre(h), geo.corner((5, 5), "N"))
