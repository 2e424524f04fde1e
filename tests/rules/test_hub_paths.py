"""Hub hexes in play (catandsl/rules/hubs.py and the board's centre points and spurs),
on a small island with a castle hub on its coast (the geometry of Traders & Barbarians'
trade hexes); `sea_side(at)`, the hub's sides and corners against the sea, where
nothing on land stands."""

from __future__ import annotations

import pytest

from catandsl.engine import actions as A
from catandsl.engine.errors import IllegalAction
from catandsl.rules.hubs import sea_side
from catandsl.rules.routes import longest_route
from tests.conftest import HUB_ISLAND, compile_text, game_of
from tests.engine.helpers import BRICK, LUMBER, act, blank, give, legal, put, to_main


@pytest.fixture(scope="module")
def game(tmp_path_factory):
    return game_of(tmp_path_factory, HUB_ISLAND)


def test_nothing_is_built_on_the_centre_point(game):
    b = game.board
    c = b.intersection_id(0, -1, "C")
    for piece in ("settlement", "city"):
        assert c not in game.pieces[game.piece_index[piece]].allowed_set
        assert A.Build(piece, c) not in game.action_id
    # the castle's four land-side corners take settlements by the normal rules, its two
    # corners against the sea none
    settlement = game.pieces[game.piece_index["settlement"]].allowed_set
    for name in ("NE", "SE", "S", "SW"):
        assert b.intersection_id(0, -1, name) in settlement
    for name in ("N", "NW"):
        assert b.intersection_id(0, -1, name) not in settlement
    # the set-up never offers the centre either
    s = game.new_initial_state()
    act(s, A.StartPlayer(0))
    offered = [a for a in legal(s) if isinstance(a, A.Build)]
    assert offered and all(a.at != c for a in offered)


def test_roads_keep_off_the_sides_a_hub_shares_with_the_sea(game):
    b = game.board
    road = game.pieces[game.piece_index["road"]].allowed_set
    for side in ("NE", "NW", "W"):
        assert b.path_id(0, -1, side) not in road
        assert A.Build("road", b.path_id(0, -1, side)) not in game.action_id
    for side in ("E", "SE", "SW", "C-NE", "C-SE", "C-S", "C-SW"):
        assert b.path_id(0, -1, side) in road


def test_a_road_runs_in_along_one_spur_and_out_along_another(game):
    b = game.board
    s = blank(game)
    to_main(s)
    put(s, 0, "settlement", b.intersection_id(0, -1, "S"))
    give(s, 0, 3, 3)
    in_spur, out_spur = b.path_id(0, -1, "C-S"), b.path_id(0, -1, "C-NE")
    # the far spur is not connected yet: refused, nothing changes
    before = s.serialize()
    with pytest.raises(IllegalAction):
        act(s, A.Build("road", out_spur))
    assert s.serialize() == before
    assert A.Build("road", out_spur) not in legal(s)
    assert A.Build("road", in_spur) in legal(s)
    act(s, A.Build("road", in_spur))
    assert s.path_owner[in_spur] == 0
    # through the centre point: every other spur is now next to the player's road
    offered = {a.at for a in legal(s) if isinstance(a, A.Build) and a.piece == "road"}
    assert {b.path_id(0, -1, n) for n in ("C-NE", "C-SE", "C-SW")} <= offered
    act(s, A.Build("road", out_spur))
    # and on out of the castle from its NE corner (along the forest's NW side)
    assert A.Build("road", b.path_id(1, -1, "NW")) in legal(s)
    act(s, A.Build("road", b.path_id(1, -1, "NW")))
    assert [s.path_owner[x] for x in (in_spur, out_spur, b.path_id(1, -1, "NW"))] == [0, 0, 0]
    assert s.hands[0][BRICK] == 0 and s.hands[0][LUMBER] == 0


def test_a_spur_held_by_an_opponent_is_no_way_in(game):
    b = game.board
    s = blank(game)
    to_main(s)
    put(s, 0, "settlement", b.intersection_id(0, -1, "S"))
    put(s, 1, "road", b.path_id(0, -1, "C-S"))  # player 1's road holds the south spur
    give(s, 0, 1, 1)
    assert A.Build("road", b.path_id(0, -1, "C-S")) not in legal(s)
    # the other spurs start at the centre, which player 0 does not reach
    assert A.Build("road", b.path_id(0, -1, "C-SE")) not in legal(s)


def test_the_longest_route_passes_through_the_centre_point(game):
    b = game.board
    s = blank(game)
    to_main(s)
    chain = [b.path_id(-1, 0, "NW"), b.path_id(0, -1, "C-SW"), b.path_id(0, -1, "C-NE"),
             b.path_id(1, -1, "NW"), b.path_id(1, -1, "NE")]
    for x in chain[:4]:
        put(s, 0, "road", x)
    assert longest_route(s, 0, ["road"]) == 4
    give(s, 0, 1, 1)
    act(s, A.Build("road", chain[4]))  # the fifth road: Longest Road, through the castle
    assert longest_route(s, 0, ["road"]) == 5
    longest = [a.name for a in game.awards].index("longest_road")
    assert s.award_holder[longest] == 0
    # a branch into the centre along a third spur does not lengthen the trail
    put(s, 0, "road", b.path_id(0, -1, "C-S"))
    assert longest_route(s, 0, ["road"]) == 5


# ---- sea_side --------------------------------------------------------------------------------

# The castle (0, -1) on the coast as above; a quarry hub (0, 0) inland beside it.
TWO_HUBS = HUB_ISLAND.replace("terrain castle { hub }", "terrain castle { hub }\n  terrain quarry { hub }") \
    .replace("~   p4  m6  h5  ~", "~   p4  q   h5  ~").replace("c castle;", "c castle; q quarry;")


@pytest.fixture(scope="module")
def two_hubs(tmp_path_factory):
    return game_of(tmp_path_factory, TWO_HUBS)


def test_sea_side_is_a_hubs_sides_and_corners_against_the_sea(two_hubs):
    g = two_hubs
    b = g.board
    s = g.new_initial_state()
    sea = {("i", b.intersection_id(0, -1, n)) for n in ("N", "NW")}
    sea |= {("p", b.path_id(0, -1, n)) for n in ("NE", "NW", "W")}
    everything = ([("i", k) for k in range(len(b.intersections))] + [("p", k) for k in range(len(b.paths))]
                  + [("h", k) for k in range(len(b.hexes))])
    assert {at for at in everything if sea_side(s, list(at))} == sea
    # not the castle's land-side corners and sides, its centre or spurs; nothing of the
    # inland quarry, whose side with the castle is between two land hexes
    assert not sea_side(s, ["i", b.intersection_id(0, -1, "C")])
    assert not sea_side(s, ["p", b.path_id(0, -1, "C-NE")])
    assert not sea_side(s, ["p", b.path_id(0, 0, "NE")])  # castle | quarry
    # an ordinary coastal hex's corner against the sea alone is no hub's
    assert not sea_side(s, ["i", b.intersection_id(-1, 0, "NW")])


def test_no_building_on_a_hubs_corner_against_the_sea_in_the_set_up(game):
    b = game.board
    s = game.new_initial_state()
    act(s, A.StartPlayer(0))
    offered = {a.at for a in legal(s) if isinstance(a, A.Build) and a.piece == "settlement"}
    assert b.intersection_id(0, -1, "NE") in offered
    assert not offered & {b.intersection_id(0, -1, n) for n in ("N", "NW")}


def test_sea_side_of_a_resource_is_a_type_error(tmp_path):
    bad = HUB_ISLAND.replace("not sea_side(at)\n    cost brick + lumber\n",
                       "not sea_side(grain)\n    cost brick + lumber\n", 1)
    assert bad != HUB_ISLAND
    _, diags = compile_text(tmp_path, bad)
    assert [d.code for d in diags if d.severity == "error"] == ["E0504"]
