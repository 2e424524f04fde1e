"""Seafarers, the general rules (stdlib/seafarers.catan), played on the 4-player map of
"Heading for New Shores" (seed 1): its main island, the small island north of it, and
the sea between them (the landmarks HOME, P1, C1, P2, C2 and MAIN3 of positions.py).
"""

from __future__ import annotations

import pytest

import catandsl
from catandsl import queries
from catandsl.engine import actions as A
from tests.conformance.catalog import rule
from tests.conformance.play import act, builds, hand, holder, legal, moves, of_kind, refused, roll, sites_of
from tests.conformance.positions import NEW_SHORES, game, main, position
from tests.conformance.sites import C1, C2, HOME, MAIN3, P1, P2, corner, hexid, side

SEA = "stdlib/seafarers.catan"


def ns(**options):
    return game(NEW_SHORES, 4, **{"harbor_setup": "shuffled", **options})


def ids(g, *paths) -> set[int]:
    return {side(g, *p) for p in paths}


def water(g) -> set[int]:
    """The map's sea hexes: the frame around them is the edge of the world, where no piece
    stands."""
    b = g.board
    return {h for h, x in enumerate(b.hexes) if b.hex_water[h] and b.tiles[x].frame_piece is None}


def pick_ups(s) -> set[int]:
    return {a.at for a in of_kind(s, A.PickUp)}


def open_line(g):
    """Seat 0's settlement at HOME and ships P1, P2 towards the small island (C2 empty)."""
    return position(g).place(0, "settlement", HOME).place(0, "ship", P1).place(0, "ship", P2)


def after_turns(s, turns: int) -> None:
    """End this turn and play `turns` more turns with a quiet roll (a 2 pays nobody here)."""
    for _ in range(turns):
        act(s, A.EndTurn())
        roll(s, 2)


# ---- building ships (B.2) ---------------------------------------------------------------------


@rule(SEA, "cost lumber + wool")
def test_seafarers_ship_costs_lumber_and_wool():
    """A ship costs 1 lumber and 1 wool."""
    g = ns()
    s = main(position(g).place(0, "settlement", HOME).hand(0, lumber=1, wool=1)).state()
    act(s, A.Build("ship", side(g, *P1)))
    assert sum(s.hands[0]) == 0 and s.path_piece[side(g, *P1)] == g.piece_index["ship"]
    s = main(position(g).place(0, "settlement", HOME).hand(0, lumber=1, brick=1)).state()
    refused(s, A.Build("ship", side(g, *P1)), "action/cannot_afford")


@rule(SEA, "limit 15")
def test_seafarers_fifteen_ships_per_player():
    """Each player has 15 ships; with all 15 on the board no ship can be built."""
    g = ns()
    sea_paths = [k for k in g.pieces[g.piece_index["ship"]].allowed
                 if all(g.board.hex_water[h] for h in g.board.path_hexes[k])][-15:]
    for n in (14, 15):
        pos = position(g).place(0, "settlement", HOME)
        for k in sea_paths[:n]:
            pos.place(0, "ship", k)
        s = main(pos.hand(0, lumber=1, wool=1)).state()
        assert bool(builds(s, "ship")) == (n < 15)


@rule(SEA, "on path where water(at)")
def test_seafarers_ship_never_between_two_land_hexes():
    """A ship stands on a path with sea on at least one side: between two sea hexes or on the
    coast, never between two land hexes (a road may go there)."""
    g = ns()
    s = main(position(g).place(0, "settlement", (1, 3, "NE")).hand(0, lumber=2, wool=1, brick=1)).state()
    assert builds(s, "ship") == ids(g, (1, 3, "NE"), (2, 3, "NW"))
    assert side(g, 2, 3, "W") in builds(s, "road")
    refused(s, A.Build("ship", side(g, 2, 3, "W")))


@rule(SEA, "on path where water(at)")
def test_seafarers_coastal_path_holds_a_road_or_a_ship():
    """A coastal path holds a road or a ship, never both."""
    g = ns()
    s = main(position(g).place(0, "settlement", HOME).place(0, "road", (1, 3, "NE"))
             .hand(0, lumber=1, wool=1)).state()
    assert builds(s, "ship") == ids(g, P1, (1, 3, "NW"))
    refused(s, A.Build("ship", side(g, 1, 3, "NE")))


@rule(SEA, "connects ship, settlement, city")
def test_seafarers_ship_touches_own_building_or_ship_and_may_branch():
    """A new ship touches the player's own settlement or city on the coast, or one of their
    ships; a line of ships may branch."""
    g = ns()
    s = main(position(g).place(0, "settlement", HOME).place(0, "ship", P1).hand(0, lumber=2, wool=2)).state()
    c1 = corner(g, *C1)
    assert builds(s, "ship") == ids(g, (1, 3, "NE"), (1, 3, "NW")) | (
        set(g.board.corner_paths[c1]) - ids(g, P1))
    act(s, A.Build("ship", side(g, *P2)), A.Build("ship", side(g, 2, 1, "SW")))  # two branches from C1
    assert s.placed[0][g.piece_index["ship"]] == 3
    s = main(position(g).place(0, "settlement", HOME).place(1, "ship", P1).hand(0, lumber=1, wool=1)).state()
    assert builds(s, "ship") == ids(g, (1, 3, "NE"), (1, 3, "NW"))  # another player's ship is no start


@rule(SEA, "connects ship, settlement, city")
def test_seafarers_a_road_end_is_no_start_for_a_ship():
    """A ship never joins a road directly: at an empty intersection where a road ends, no
    ship may start."""
    g = ns()
    s = main(position(g).place(0, "settlement", HOME).place(0, "road", (1, 3, "NE"))
             .hand(0, lumber=1, wool=1)).state()
    assert side(g, 2, 3, "NW") not in builds(s, "ship")  # the coast at the road's end
    refused(s, A.Build("ship", side(g, 2, 3, "NW")))


@rule("stdlib/base.catan", "connects road, settlement, city")
def test_seafarers_a_ship_end_is_no_start_for_a_road():
    """A road never joins a ship directly: at an empty coastal intersection where a ship ends,
    no road may start."""
    g = ns()
    s = main(position(g).place(0, "settlement", HOME).place(0, "ship", (1, 3, "NW"))
             .hand(0, brick=1, lumber=1)).state()
    assert builds(s, "road") == ids(g, (1, 3, "NE"))
    refused(s, A.Build("road", side(g, 1, 3, "W")))


@rule(SEA, "connects road, ship")
def test_seafarers_settlement_at_the_end_of_a_shipping_line():
    """A shipping line that reaches a coast lets its owner build a settlement there (distance
    rule applies), and the settlement starts new roads and ships."""
    g = ns()
    s = main(open_line(g).hand(0, brick=2, lumber=2, wool=1, grain=1)).state()
    assert corner(g, *C2) in builds(s, "settlement") and corner(g, *C1) not in builds(s, "settlement")
    act(s, A.Build("settlement", corner(g, *C2)))
    assert side(g, 2, 1, "E") in builds(s, "road")  # a road on from the new settlement


# ---- Longest Trade Route (B.3) -------------------------------------------------------------------


def _route(g, at_home):
    pos = position(g).place(0, "ship", P1).place(0, "ship", P2)
    for k in MAIN3:
        pos.place(0, "road", k)
    if at_home is not None:
        pos.place(at_home, "settlement", HOME)
    return pos.state()


@rule(SEA, "measure longest_route(player, [road, ship])")
def test_seafarers_trade_route_counts_roads_and_ships_through_an_own_building():
    """Longest Trade Route counts roads and ships together (at least 5, 2 points); a road and
    a ship join only at the player's own settlement or city, never at an empty intersection
    or an opponent's building."""
    g = ns()
    s = _route(g, 0)
    assert queries.route_length(s, 0) == 5 and holder(s, "longest_trade_route") == 0
    assert s.points(0) == 1 + 2
    for other in (None, 1):
        s = _route(g, other)
        assert queries.route_length(s, 0) == 3 and holder(s, "longest_trade_route") == -1


@rule(SEA, "measure longest_route(player, [road, ship])")
def test_seafarers_a_ship_move_can_change_the_trade_route():
    """Moving a ship can lengthen or break a trade route: Longest Trade Route is measured again."""
    g = ns()
    s = main(catandsl.position(g, _route(g, 0))).state()
    assert holder(s, "longest_trade_route") == 0
    act(s, A.PickUp("ship", side(g, *P2)), A.PutDown("ship", side(g, 1, 3, "NW")))
    assert queries.route_length(s, 0) == 4 and holder(s, "longest_trade_route") == -1


@rule(SEA, "without award longest_road")
def test_seafarers_no_longest_road():
    """Longest Trade Route replaces Longest Road."""
    assert [a.name for a in ns().awards] == ["largest_army", "longest_trade_route"]


# ---- moving ships (B.4) -----------------------------------------------------------------------


@rule(SEA, "open_end")
def test_seafarers_only_the_end_ship_of_an_open_line_moves():
    """Of a line of ships that does not link two of the owner's buildings, only the ship at
    the open end may move."""
    g = ns()
    s = main(open_line(g)).state()
    assert pick_ups(s) == ids(g, P2)
    refused(s, A.PickUp("ship", side(g, *P1)))


@rule(SEA, "open_end")
def test_seafarers_each_branch_end_may_move():
    """Where an open line of ships branches, the ship at each branch's end may move, the
    others not."""
    g = ns()
    s = main(open_line(g).place(0, "ship", (2, 1, "SW"))).state()
    assert pick_ups(s) == ids(g, P2, (2, 1, "SW"))


@rule(SEA, "open_end")
def test_seafarers_a_line_between_two_own_buildings_never_moves():
    """A line of ships linking two of the owner's settlements or cities is closed: none of
    its ships moves."""
    g = ns()
    s = main(open_line(g).place(0, "settlement", C2)).state()
    assert pick_ups(s) == set()
    refused(s, A.PickUp("ship", side(g, *P2)))


@rule(SEA, "open_end")
def test_seafarers_a_moved_ship_follows_the_rules_for_a_new_one():
    """A moved ship is lifted and put down where a new ship could be built."""
    g = ns()
    s = main(open_line(g)).state()
    act(s, A.PickUp("ship", side(g, *P2)))
    put_downs = {a.at for a in of_kind(s, A.PutDown)}
    fresh = main(position(g).place(0, "settlement", HOME).place(0, "ship", P1).hand(0, lumber=1, wool=1)).state()
    assert put_downs == builds(fresh, "ship")
    refused(s, A.PutDown("ship", side(g, 2, 1, "E")))  # not joined to the line
    act(s, A.PutDown("ship", side(g, 1, 3, "NW")))
    assert s.path_owner[side(g, 1, 3, "NW")] == 0 and s.path_owner[side(g, *P2)] == -1


@rule(SEA, "per_turn 1")
def test_seafarers_one_ship_move_a_turn():
    """A player moves at most one ship a turn."""
    g = ns()
    s = main(open_line(g).place(0, "ship", (1, 3, "NW"))).state()
    assert pick_ups(s) == ids(g, P2, (1, 3, "NW"))
    act(s, A.PickUp("ship", side(g, 1, 3, "NW")), A.PutDown("ship", side(g, 1, 3, "NE")))
    assert pick_ups(s) == set()
    after_turns(s, 4)
    assert s.turn_player == 0 and pick_ups(s)


@rule(SEA, "not_built_this_turn")
def test_seafarers_a_ship_built_this_turn_stays():
    """A ship built this turn may not move this turn."""
    g = ns()
    s = main(position(g).place(0, "settlement", HOME).hand(0, lumber=1, wool=1)).state()
    act(s, A.Build("ship", side(g, *P1)))
    assert pick_ups(s) == set()
    after_turns(s, 4)
    assert pick_ups(s) == ids(g, P1)


@rule(SEA, "item after_roll", option="ship_moves=after_roll")
def test_seafarers_ships_move_after_the_roll():
    """Ships move in the trading and building phase, after the roll."""
    g = ns()
    s = open_line(g).state()
    assert s.is_chance_node() and not pick_ups(s)


@rule(SEA, "item any_time", alternative="ship_moves=any_time")
def test_seafarers_ships_move_before_the_roll_too_by_option():
    """With the option `any_time`, a ship may also move before the roll."""
    s = open_line(ns(ship_moves="any_time")).state()
    assert pick_ups(s) == ids(s.game, P2) and A.RollDice() in legal(s)


# ---- the pirate (B.5) --------------------------------------------------------------------------


@rule(SEA, "move_piece(player, [robber, pirate])", after="rule seven {")
def test_seafarers_seven_moves_the_robber_or_the_pirate():
    """On a 7 the roller moves either the robber (to land) or the pirate (to sea): one of them."""
    g = ns()
    s = position(g).state()
    roll(s, 7)
    land = {h for h in range(len(g.board.hexes)) if not g.board.hex_water[h]}
    assert moves(s, "robber") == land - {hexid(g, 2, 5)} and moves(s, "pirate") == water(g)
    act(s, A.Move("pirate", hexid(g, 2, 2)))
    assert not of_kind(s, A.Move) and sites_of(s, "robber") == [hexid(g, 2, 5)]


@rule(SEA, "move_piece(player, [robber, pirate])", after="card knight 14")
def test_seafarers_knight_moves_the_robber_or_the_pirate():
    """A Knight moves either the robber or the pirate."""
    g = ns()
    s = position(g).cards(0, held={"knight": 1}).state()
    act(s, A.PlayCard("knight"))
    assert moves(s, "pirate") == water(g) and hexid(g, 1, 3) in moves(s, "robber")


@rule(SEA, "on hex where water(at)", after="piece pirate {")
def test_seafarers_pirate_sails_the_sea_and_must_move():
    """The pirate goes only on the map's sea hexes (the frame around the map is its edge:
    no piece stands there) and must leave the hex it is on."""
    g = ns()
    s = position(g).neutral("pirate", (2, 2)).state()
    roll(s, 7)
    assert moves(s, "pirate") == water(g) - {hexid(g, 2, 2)}
    assert not moves(s, "pirate") & {h for h in range(len(g.board.hexes)) if not g.board.hex_water[h]}


@rule(SEA, "steals from ship")
def test_seafarers_pirate_robs_a_ship_owner_on_its_edges_once():
    """The pirate's mover robs one player with a ship on an edge of its hex, one card however
    many ships that player has there; buildings beside the hex do not count."""
    g = ns()
    s = (position(g).place(1, "ship", P1).place(1, "ship", (1, 3, "NE")).place(2, "settlement", HOME)
         .hand(1, ore=2).hand(2, wool=2).state())
    roll(s, 7)
    act(s, A.Move("pirate", hexid(g, 2, 2)))
    assert legal(s) == [A.Steal(1)]
    act(s, A.Steal(1), A.Stolen("ore"))
    assert hand(s, 0)["ore"] == 1 and hand(s, 1)["ore"] == 1 and not s.pending


@rule(SEA, "blocks ship")
def test_seafarers_pirate_blocks_new_ships_on_its_edges():
    """No ship may be built on an edge of the pirate's hex; roads there are built as usual."""
    g = ns()
    s = main(position(g).place(0, "settlement", HOME).neutral("pirate", (2, 2))
             .hand(0, lumber=2, wool=1, brick=1)).state()
    assert builds(s, "ship") == ids(g, (1, 3, "NW"))
    assert side(g, 1, 3, "NE") in builds(s, "road")


@rule(SEA, "blocked_by pirate")
def test_seafarers_pirate_holds_ships_on_its_edges():
    """No ship moves away from an edge of the pirate's hex."""
    g = ns()
    s = main(open_line(g).neutral("pirate", (2, 2))).state()
    assert pick_ups(s) == set()
    s = main(open_line(g).neutral("pirate", (1, 2))).state()  # P2 is not on (1,2)
    assert pick_ups(s) == ids(g, P2)


@rule(SEA, "blocks ship")
def test_seafarers_pirate_blocks_nothing_on_land():
    """The pirate blocks nothing but ships: the hexes next to it produce as usual."""
    g = ns()
    h = hexid(g, 1, 3)
    n = g.board.hex_number[h]
    s = position(g).place(1, "settlement", HOME).neutral("pirate", (1, 2)).state()
    roll(s, n)
    assert hand(s, 1)[g.resources[g.hex_resource[h]]] >= 1


# ---- gold (B.6) -----------------------------------------------------------------------------------


@rule(SEA, "terrain gold { produces choice }")
def test_seafarers_gold_field_pays_resources_of_choice():
    """A gold field on its number gives each settlement beside it 1 resource of its owner's
    choice and each city 2, which may differ; any of the five resources."""
    g = ns()
    gold = hexid(g, 2, 1)
    assert g.board.terrain(gold) == "gold"
    s = position(g).place(1, "settlement", (2, 1, "N")).place(2, "city", (2, 1, "S")).state()
    roll(s, g.board.hex_number[gold])
    assert s.current_player() == 1 and set(legal(s)) == {A.ChooseResource(r) for r in g.resources}
    act(s, A.ChooseResource("ore"), A.ChooseResource("brick"), A.ChooseResource("wool"))
    assert hand(s, 1)["ore"] == 1 and hand(s, 2)["brick"] == 1 and hand(s, 2)["wool"] == 1
    assert sum(s.hands[1]) + sum(s.hands[2]) == 3


@rule(SEA, "terrain gold { produces choice }")
def test_seafarers_gold_choices_come_from_what_the_bank_holds():
    """A gold field's choices are what the bank still holds; with the bank empty, they lapse."""
    g = ns()
    gold = hexid(g, 2, 1)
    pos = position(g).place(1, "settlement", (2, 1, "N")).place(2, "settlement", (2, 1, "S"))
    s = pos.hand(3, brick=19, lumber=19, wool=19, grain=19, ore=18).state()
    roll(s, g.board.hex_number[gold])
    assert s.current_player() == 1 and legal(s) == [A.ChooseResource("ore")]
    act(s, A.ChooseResource("ore"))
    assert not s.pending and hand(s, 1)["ore"] == 1 and sum(s.hands[2]) == 0


# ---- set-up (B.7) and Road Building (B.11) ------------------------------------------------------------


@rule(SEA, "place road or ship touching last", after="setup {")
def test_seafarers_coastal_start_may_take_a_ship():
    """A starting settlement on the coast may take a ship instead of its road."""
    g = ns()
    s = g.new_initial_state()
    act(s, A.StartPlayer(0), A.Build("settlement", corner(g, *HOME)))
    offered = {(a.piece, a.at) for a in legal(s)}
    assert offered == {("road", side(g, 1, 3, "NE")), ("road", side(g, 1, 3, "NW")),
                       ("ship", side(g, 1, 3, "NE")), ("ship", side(g, 1, 3, "NW")), ("ship", side(g, *P1))}
    act(s, A.Build("ship", side(g, *P1)))
    assert s.path_piece[side(g, *P1)] == g.piece_index["ship"]


@rule(SEA, "build_free(player, [road, ship], 2)")
@pytest.mark.parametrize("first, second", [("road", "road"), ("ship", "ship"), ("road", "ship")])
def test_seafarers_road_building_places_roads_or_ships(first, second):
    """Road Building places 2 roads, 2 ships, or a road and a ship, for nothing."""
    g = ns()
    s = main(position(g).place(0, "settlement", HOME).cards(0, held={"road_building": 1})).state()
    act(s, A.PlayCard("road_building"))
    assert {a.piece for a in of_kind(s, A.Build)} == {"road", "ship"}
    act(s, A.Build(first, side(g, 1, 3, "NE")))
    at = side(g, 2, 3, "W") if second == "road" else side(g, *(P1 if first == "road" else (2, 3, "NW")))
    act(s, A.Build(second, at))
    assert [s.placed[0][g.piece_index[p]] for p in ("road", "ship")] == [
        [first, second].count("road"), [first, second].count("ship")]
    assert not s.pending and sum(s.hands[0]) == 0
