"""Ships (building, shipping routes, moving, the pirate, harbors) on a hand-made board written in the language:
two land hexes A (0,0) and B (1,0) with sea around them. S is the sea hex (1,-1) above
both; the ship routes below run around S.

        (1,-2)  (2,-2)
    (0,-1)   S    (2,-1)
  (-1,0)   A    B    (2,0)
     (-1,1)  (0,1)  (1,1)
"""

from __future__ import annotations

import json

import pytest

from catandsl.compiler import compile_path
from catandsl.engine import actions as A
from catandsl.engine import new_game
from catandsl.engine.errors import IllegalAction
from catandsl.rules import movement, placement, removal, routes
from catandsl.rules.movement import Relocating
from catandsl.rules.routes import longest_route
from tests.engine.helpers import act, blank, give, legal, put, to_main

BOARD = """\
scenario "Ships" {
  uses seafarers
  without terrain gold
  players 2..4
  map {
    hex (0, 0) forest 8
    hex (1, 0) pasture 5
    hex (1, -1) sea
    hex (0, -1) sea
    hex (2, -1) sea
    hex (1, -2) sea
    hex (2, -2) sea
    hex (-1, 0) sea
    hex (-1, 1) sea
    hex (0, 1) sea
    hex (1, 1) sea
    hex (2, 0) sea
  }
}
"""

A_, B_, S = (0, 0), (1, 0), (1, -1)
BRICK, LUMBER, WOOL, GRAIN, ORE = range(5)


@pytest.fixture(scope="module")
def scenario(tmp_path_factory):
    f = tmp_path_factory.mktemp("ships") / "ships.catan"
    f.write_text(BOARD, encoding="utf-8")
    sc, diags, _ = compile_path(f)
    assert not diags, diags
    return sc


@pytest.fixture
def g(scenario):
    return new_game(scenario, players=2, seed=1)


def hx(g, q_r) -> int:
    return g.board.hexes.index(q_r)


def path(g, *hexes) -> int:
    want = {hx(g, h) for h in hexes}
    (k,) = [k for k, hs in enumerate(g.board.path_hexes) if set(hs) == want]
    return k


def corner(g, *hexes) -> int:
    want = {hx(g, h) for h in hexes}
    (k,) = [k for k, hs in enumerate(g.board.corner_hexes) if set(hs) == want]
    return k


def ship_at(g, k) -> A.Action:
    return A.Build("ship", k)


def road_at(g, k) -> A.Action:
    return A.Build("road", k)


# the ship route from corner XA = {A, S, (0,-1)} round S to XB = {B, S, (2,-1)}
ROUTE = [(S, (0, -1)), (S, (1, -2)), (S, (2, -2)), (S, (2, -1))]


def xa(g):
    return corner(g, A_, S, (0, -1))


def xb(g):
    return corner(g, B_, S, (2, -1))


def main_phase(g, total=2):
    s = blank(g)
    to_main(s, total)
    return s


def pick_ups(s):
    return sorted(a.at for a in legal(s) if isinstance(a, A.PickUp))


# ---- placement (B.2) ----------------------------------------------------------------------


def test_a_ship_never_stands_between_two_land_hexes(g):
    s = main_phase(g)
    put(s, 0, "settlement", corner(g, A_, B_, S))
    give(s, 0, 0, 1, 1, 0, 0)
    land = path(g, A_, B_)
    before = s.serialize()
    assert ship_at(g, land) not in g.action_id  # no such action in the table
    with pytest.raises(IllegalAction) as e:
        s.apply_action(ship_at(g, land))
    assert e.value.code == "action/invalid_target"
    assert s.serialize() == before
    # the settlement's coastal paths take a ship, its land path a road only
    ships = {a.at for a in legal(s) if isinstance(a, A.Build) and a.piece == "ship"}
    assert ships == {path(g, A_, S), path(g, B_, S)}
    act(s, ship_at(g, path(g, A_, S)))
    assert s.hands[0] == [0, 0, 0, 0, 0] and s.placed[0][g.piece_index["ship"]] == 1


def test_a_coastal_path_holds_a_road_or_a_ship_not_both(g):
    s = main_phase(g)
    put(s, 0, "settlement", xa(g))
    put(s, 0, "road", path(g, A_, S))
    give(s, 0, 1, 2, 1, 0, 0)
    assert ship_at(g, path(g, A_, S)) not in legal(s)
    with pytest.raises(IllegalAction) as e:
        act(s, ship_at(g, path(g, A_, S)))
    assert e.value.code == "action/invalid_target"


def test_road_and_ship_join_only_through_an_own_settlement(g):
    s = main_phase(g)
    c = xa(g)
    put(s, 0, "road", path(g, A_, (-1, 0)))
    put(s, 0, "road", path(g, A_, (0, -1)))  # ends at the empty corner XA
    give(s, 0, 2, 2, 2, 0, 0)
    sea = path(g, S, (0, -1))  # a ship from XA
    assert ship_at(g, sea) not in legal(s)
    with pytest.raises(IllegalAction) as e:
        act(s, ship_at(g, sea))
    assert e.value.code == "action/invalid_target"
    assert road_at(g, path(g, A_, S)) in legal(s)  # road to road is fine
    put(s, 0, "settlement", c)
    assert ship_at(g, sea) in legal(s)
    # and the other way round: a road never extends a ship
    s = main_phase(g)
    put(s, 0, "ship", sea)
    give(s, 0, 2, 2, 2, 0, 0)
    assert not [a for a in legal(s) if isinstance(a, A.Build) and a.piece == "road"]
    assert ship_at(g, path(g, S, (1, -2))) in legal(s)


def test_an_opponents_settlement_breaks_a_shipping_line(g):
    s = main_phase(g)
    put(s, 0, "ship", path(g, S, (0, -1)))
    put(s, 1, "settlement", corner(g, S, (0, -1), (1, -2)))
    give(s, 0, 0, 2, 2, 0, 0)
    assert ship_at(g, path(g, S, (1, -2))) not in legal(s)
    assert ship_at(g, path(g, A_, S)) in legal(s)


def test_the_pirate_blocks_new_ships_on_its_edges(g):
    s = main_phase(g)
    put(s, 0, "settlement", xa(g))
    give(s, 0, 0, 2, 2, 0, 0)
    s.neutral_at[g.piece_index["pirate"]] = hx(g, S)
    s.changed()
    ships = {a.at for a in legal(s) if isinstance(a, A.Build) and a.piece == "ship"}
    assert ships == {path(g, A_, (0, -1))}


# ---- set-up (B.7) and Road Building (B.11) ---------------------------------------------------


def test_a_coastal_start_may_take_a_ship_instead_of_its_road(g):
    s = g.new_initial_state()
    act(s, A.StartPlayer(0))
    act(s, A.Build("settlement", xa(g)))
    got = {(a.piece, a.at) for a in legal(s)}
    assert got == {("road", path(g, A_, S)), ("road", path(g, A_, (0, -1))),
                   ("ship", path(g, A_, S)), ("ship", path(g, A_, (0, -1))),
                   ("ship", path(g, S, (0, -1)))}
    act(s, ship_at(g, path(g, S, (0, -1))))
    assert s.path_piece[path(g, S, (0, -1))] == g.piece_index["ship"]
    assert s.hands[0] == [0, 0, 0, 0, 0]


def test_road_building_places_roads_or_ships(g):
    s = blank(g)
    put(s, 0, "settlement", xa(g))
    c = g.card_index["road_building"]
    s.cards[0][c], s.deck[c] = 1, s.deck[c] - 1
    s.changed()
    act(s, A.PlayCard("road_building"))
    pieces = {a.piece for a in legal(s)}
    assert pieces == {"road", "ship"}
    act(s, ship_at(g, path(g, S, (0, -1))))
    act(s, ship_at(g, path(g, S, (1, -2))))
    assert s.placed[0][g.piece_index["ship"]] == 2
    assert s.hands[0] == [0, 0, 0, 0, 0] and not s.pending
    # one of each
    s = blank(g)
    put(s, 0, "settlement", xa(g))
    s.cards[0][c], s.deck[c] = 1, s.deck[c] - 1
    s.changed()
    act(s, A.PlayCard("road_building"))
    act(s, road_at(g, path(g, A_, (0, -1))))
    act(s, ship_at(g, path(g, S, (0, -1))))
    assert s.placed[0][g.piece_index["road"]] == 1
    assert s.placed[0][g.piece_index["ship"]] == 1


# ---- moving ships (B.4) ------------------------------------------------------------------------


def closed_route(g):
    s = main_phase(g)
    put(s, 0, "settlement", xa(g))
    put(s, 0, "settlement", xb(g))
    for hs in ROUTE:
        put(s, 0, "ship", path(g, *hs))
    return s


def test_a_closed_route_never_moves(g):
    s = closed_route(g)
    assert pick_ups(s) == []
    before = s.serialize()
    with pytest.raises(IllegalAction) as e:
        act(s, A.PickUp("ship", path(g, S, (2, -2))))
    assert e.value.code == "action/not_legal" and "open end" in e.value.message
    assert s.serialize() == before


def open_route(g):
    s = main_phase(g)
    put(s, 0, "settlement", xa(g))
    for hs in ROUTE[:3]:
        put(s, 0, "ship", path(g, *hs))
    return s


def test_only_the_open_end_moves_and_follows_the_rules_for_a_new_ship(g):
    s = open_route(g)
    end = path(g, S, (2, -2))
    assert pick_ups(s) == [end]
    act(s, A.PickUp("ship", end))
    assert s.path_owner[end] == -1 and s.current_player() == 0
    targets = {a.at for a in legal(s)}
    assert all(isinstance(a, A.PutDown) for a in legal(s))
    assert end in targets  # back where it was
    assert path(g, S, (2, -1)) not in targets  # it would hang on itself only
    assert path(g, A_, (0, -1)) in targets and path(g, A_, S) in targets
    with pytest.raises(IllegalAction) as e:
        act(s, A.PutDown("ship", path(g, S, (2, -1))))
    assert e.value.code == "action/invalid_target"
    act(s, A.PutDown("ship", path(g, A_, (0, -1))))
    assert s.path_owner[path(g, A_, (0, -1))] == 0
    assert s.path_piece[path(g, A_, (0, -1))] == g.piece_index["ship"]
    assert s.placed[0][g.piece_index["ship"]] == 3 and s.hands[0] == [0] * 5
    assert not s.pending


def test_one_move_per_turn(g):
    s = open_route(g)
    end = path(g, S, (2, -2))
    act(s, A.PickUp("ship", end))
    act(s, A.PutDown("ship", path(g, A_, (0, -1))))
    assert pick_ups(s) == []
    with pytest.raises(IllegalAction) as e:
        act(s, A.PickUp("ship", path(g, A_, (0, -1))))
    assert e.value.code == "action/not_legal" and "a turn" in e.value.message
    # the next own turn may move again
    act(s, A.EndTurn())
    to_main(s)
    act(s, A.EndTurn())
    to_main(s)
    assert s.turn_player == 0 and pick_ups(s)


def test_a_ship_built_this_turn_does_not_move(g):
    s = main_phase(g)
    put(s, 0, "settlement", xa(g))
    give(s, 0, 0, 1, 1, 0, 0)
    k = path(g, S, (0, -1))
    act(s, ship_at(g, k))
    assert pick_ups(s) == []
    act(s, A.EndTurn())
    to_main(s)
    act(s, A.EndTurn())
    to_main(s)
    assert pick_ups(s) == [k]


def test_a_fresh_ship_removed_leaves_the_others_fresh_when_the_turn_number_is_also_a_path(g):
    # the paths placed this turn sit beside the turn's number: removing one must not take
    # the number for a path that happens to share it
    s = main_phase(g)
    put(s, 0, "settlement", xa(g))
    first, second = path(g, *ROUTE[0]), path(g, *ROUTE[1])
    s.turns = second
    for k in (first, second):
        put(s, 0, "ship", k)
        placement.note_fresh(s, k)
    assert json.loads(s.serialize())["fresh_paths"] == [second, first, second]
    removal.lift(s, "path", second)
    assert placement.built_this_turn(s, first) and not placement.built_this_turn(s, second)
    assert (s.fresh_paths.turn, s.fresh_paths.paths) == (second, (first,))
    assert json.loads(s.serialize())["fresh_paths"] == [second, first]


def test_moves_and_fresh_paths_are_named_and_serialize_as_flat_lists(g):
    s = open_route(g)
    data = json.loads(s.serialize())
    assert data["moved"] == [] and data["fresh_paths"] == []
    act(s, A.PickUp("ship", path(g, S, (2, -2))))
    assert s.moved == movement.MovesMade.of(s.turns, 1)
    assert json.loads(s.serialize())["moved"] == [s.turns, 1]
    t = g.deserialize_state(s.serialize())
    assert t.moved == s.moved and type(t.moved) is type(s.moved) and type(t.fresh_paths) is type(s.fresh_paths)
    assert (t.moved.turn, t.moved.moves) == (s.turns, 1)


def test_no_ship_moves_away_from_the_pirate(g):
    s = open_route(g)
    s.neutral_at[g.piece_index["pirate"]] = hx(g, (2, -2))
    s.changed()
    assert pick_ups(s) == []


def test_ships_move_after_the_roll_by_default(g):
    s = open_route(g)
    s2 = blank(g)
    put(s2, 0, "settlement", xa(g))
    for hs in ROUTE[:3]:
        put(s2, 0, "ship", path(g, *hs))
    assert s2.is_chance_node()  # before the roll: no move offered
    assert pick_ups(s)


def test_a_move_is_one_per_turn_for_the_player_not_per_ship(g):
    s = open_route(g)
    put(s, 0, "ship", path(g, A_, (0, -1)))  # a second open end
    assert len(pick_ups(s)) == 2
    act(s, A.PickUp("ship", path(g, A_, (0, -1))))
    act(s, A.PutDown("ship", path(g, A_, (0, -1))))  # put back: the move is used
    assert pick_ups(s) == []


def test_serialize_round_trip_keeps_the_move_count(g):
    s = open_route(g)
    act(s, A.PickUp("ship", path(g, S, (2, -2))))
    t = g.deserialize_state(s.serialize())
    assert t == s and t.legal_actions() == s.legal_actions()
    act(s, A.PutDown("ship", path(g, S, (2, -2))))
    t = g.deserialize_state(s.serialize())
    assert movement.moves_made(t, 0) == 1 and pick_ups(t) == []


# ---- Longest Trade Route (B.3) ---------------------------------------------------------------


def trade_route(g, at_xa):
    s = main_phase(g)
    if at_xa is not None:
        put(s, at_xa, "settlement", xa(g))
    put(s, 0, "road", path(g, A_, (0, -1)))
    put(s, 0, "road", path(g, A_, (-1, 0)))
    put(s, 0, "road", path(g, A_, (-1, 1)))
    put(s, 0, "ship", path(g, S, (0, -1)))
    put(s, 0, "ship", path(g, S, (1, -2)))
    return s


def route_holder(s) -> int:
    (k,) = [k for k, a in enumerate(s.game.awards) if a.name == "longest_trade_route"]
    return s.award_holder[k]


def measure(s):
    return longest_route(s, 0, ["road", "ship"])


def test_an_own_settlement_joins_a_road_and_a_ship(g):
    """Three roads and two ships meet at an empty intersection: two routes until an own
    settlement stands there, then one of 5, in the network kept as pieces are placed."""
    both = (g.piece_index["road"], g.piece_index["ship"])
    s = trade_route(g, None)
    assert routes.route_length(s, 0, both) == 3
    placement.place(s, 0, g.piece_index["settlement"], xa(g))
    assert routes.route_length(s, 0, both) == measure(s) == 5


def test_trade_route_counts_through_an_own_settlement(g):
    s = trade_route(g, 0)
    assert measure(s) == 5
    assert longest_route(s, 0, ["road"]) == 3
    act(s, A.EndTurn())  # awards are re-evaluated after an action
    assert route_holder(s) == 0


def test_trade_route_does_not_pass_an_empty_corner_between_road_and_ship(g):
    assert measure(trade_route(g, None)) == 3
    assert measure(trade_route(g, 1)) == 3  # nor an opponent's settlement


def test_a_ship_move_reevaluates_the_trade_route(g):
    s = main_phase(g)
    put(s, 0, "settlement", xa(g))
    put(s, 0, "road", path(g, A_, (0, -1)))
    put(s, 0, "road", path(g, A_, (-1, 0)))
    for hs in ROUTE[:3]:
        put(s, 0, "ship", path(g, *hs))
    act(s, A.EndTurn())
    to_main(s)
    act(s, A.EndTurn())
    to_main(s)
    assert measure(s) == 5 and route_holder(s) == 0
    act(s, A.PickUp("ship", path(g, S, (2, -2))))
    act(s, A.PutDown("ship", path(g, A_, S)))
    assert measure(s) == 4 and route_holder(s) == -1


def test_with_ship_moves_any_time_a_ship_moves_before_the_roll(scenario):
    g = new_game(scenario, players=2, seed=1, options={"ship_moves": "any_time"})
    s = blank(g)
    put(s, 0, "settlement", xa(g))
    for hs in ROUTE[:3]:
        put(s, 0, "ship", path(g, *hs))
    assert not s.is_chance_node()
    assert pick_ups(s) == [path(g, S, (2, -2))] and A.RollDice() in legal(s)
    act(s, A.PickUp("ship", path(g, S, (2, -2))))
    act(s, A.PutDown("ship", path(g, A_, S)))
    assert s.is_chance_node()  # nothing left to do before the roll
    act(s, A.Roll(2))
    assert pick_ups(s) == []


def test_random_games_keep_ships_consistent(g):
    """Random play on the small board: ship counts match the board, prompts never stick."""
    import random

    ship = g.piece_index["ship"]
    for seed in range(20):
        rng = random.Random(seed)
        s = g.new_initial_state()
        moves = 0
        for _ in range(3000):
            if s.is_terminal():
                break
            if s.is_chance_node():
                s.apply_action(s.sample_chance())
                continue
            la = s.legal_actions()
            assert la, "a decision with no legal action"
            a = rng.choice(la)
            moves += isinstance(g.actions[a], A.PickUp)
            s.apply_action(a)
            if not isinstance(s.top(), Relocating):
                for p in range(2):
                    on_board = sum(1 for o, pc in zip(s.path_owner, s.path_piece)
                                   if o == p and pc == ship)
                    assert on_board == s.placed[p][ship]
        t = g.deserialize_state(s.serialize())
        assert t == s
