"""Hexes that lie face down and hexes that change (catandsl/rules/hexes.py), on a small
fixed board: a face-down hex counts as its pool's cover terrain; `reveal` is a chance
node drawing the tile, then its number, weighted by what is left; the revealed hex is
built around, produces, and joins or makes islands; `set_terrain` and `set_number`
change production; the state round-trips through serialize."""

from __future__ import annotations

import json

import pytest

from catandsl.engine import EngineError
from catandsl.engine.actions import Build
from catandsl.engine.validate import StateError
from catandsl.rules import hexes
from catandsl.rules.hexes import RevealNumber, RevealTile
from catandsl.rules.islands import island
from catandsl.rules.places import land, number, terrain
from catandsl.rules.production import produce
from tests.conftest import all_face_down, game_of
from tests.engine.helpers import act, check_resources, give, put

# Hexes: row 0 forest (0,0), pasture (1,0), fog (2,0), fog (3,0); row 1 hills (0,1),
# sea (1,1), fog (2,1), sea (3,1); row 2 mountains (-1,2), fields (0,2), sea, sea.
# (2,0) touches the home island and (3,0); (2,1) touches (2,0) and (3,0); (3,0) no land.
SCENARIO = '''
scenario "Fog" {
  uses seafarers
  players 2..3
  rule discovery {
    on built(ship) {
      for h in hexes_around(at) { if hidden(h) { reveal(player, h) } }
    }
    on revealed(forest) { take_from_bank(player, lumber, 1) }
  }
  map {
    rows """
      f8  p5  %   %
        h4  ~   %   ~
      m6  w3  ~   ~
    """
    legend { f forest; p pasture; h hills; m mountains; w fields; ~ sea; % fog }
    pool fog hidden [forest x2, pasture, sea] cover sea
    numbers hidden [9, 10] onto [fog]
    start robber on hills
    start pirate off board
  }
}
'''


@pytest.fixture(scope="module")
def game(tmp_path_factory):
    return game_of(tmp_path_factory, SCENARIO, players=2)


def hx(g, q, r):
    return g.board.hex_id(q, r)


def path_between(g, a, b):
    return next(k for k, hs in enumerate(g.board.path_hexes) if set(hs) == {a, b})


def corner_of(g, *hs):
    return next(c for c, around in enumerate(g.board.corner_hexes) if set(around) == set(hs))


def ship_to(s, h_from, h_to):
    """Player 0's settlement on the pasture's corner by (1,1) and (2,0), and a ship's cost:
    the ship between hexes h_from and h_to is the one to build."""
    g = s.game
    put(s, 0, "settlement", corner_of(g, hx(g, 1, 0), hx(g, 2, 0), hx(g, 1, 1)))
    give(s, 0, 0, 1, 1, 0, 0)
    return path_between(g, h_from, h_to)


def test_a_face_down_hex_is_its_cover_until_revealed(game):
    s = all_face_down(game)
    fog = ["h", hx(game, 2, 0)]
    assert hexes.hidden(s, fog)
    assert terrain(s, fog) == "sea" and not land(s, fog) and number(s, fog) == 0
    # nobody settles on a corner of only fog and sea, but a ship sails beside the fog
    settlement = game.pieces[game.piece_index["settlement"]]
    ship = game.pieces[game.piece_index["ship"]]
    assert corner_of(game, hx(game, 2, 0), hx(game, 3, 0), hx(game, 2, 1)) not in settlement.allowed_set
    assert path_between(game, hx(game, 2, 0), hx(game, 3, 0)) in ship.allowed_set
    # every site a piece may ever stand on has its action, so a reveal never needs a new one
    assert Build("settlement", corner_of(game, hx(game, 2, 0), hx(game, 3, 0), hx(game, 2, 1))) in game.action_id


def test_reveal_is_a_chance_node_weighted_by_the_stack(game):
    s = all_face_down(game)
    act(s, Build("ship", ship_to(s, hx(game, 1, 1), hx(game, 2, 0))))
    assert s.is_chance_node()
    odds = {game.actions[a].terrain: p for a, p in s.chance_outcomes()}
    assert odds == pytest.approx({"forest": 2 / 4, "pasture": 1 / 4, "sea": 1 / 4})
    act(s, RevealTile("forest"))
    assert s.is_chance_node()  # forest produces: its number comes next
    assert {game.actions[a].number: p for a, p in s.chance_outcomes()} == pytest.approx({9: .5, 10: .5})
    act(s, RevealNumber(9))
    assert not s.is_chance_node()
    fog = ["h", hx(game, 2, 0)]
    assert not hexes.hidden(s, fog) and terrain(s, fog) == "forest" and number(s, fog) == 9
    assert s.hidden_tiles == [[1 if n in ("forest", "pasture", "sea") else 0
                               for n in game.board.terrain_names]]
    assert sum(s.hidden_numbers[0]) == 1 and s.hidden_numbers[0][10] == 1
    assert s.face_down == sorted([hx(game, 3, 0), hx(game, 2, 1)])
    assert s.hands[0][1] == 1  # the `revealed(forest)` rule paid a lumber
    check_resources(s)


def test_a_tile_that_produces_nothing_draws_no_number(game):
    s = all_face_down(game)
    act(s, Build("ship", ship_to(s, hx(game, 1, 1), hx(game, 2, 0))))
    act(s, RevealTile("sea"))
    assert not s.is_chance_node()
    assert s.hidden_numbers[0][9] == 1 and s.hidden_numbers[0][10] == 1
    assert terrain(s, ["h", hx(game, 2, 0)]) == "sea" and not hexes.hidden(s, ["h", hx(game, 2, 0)])


def test_revealed_land_is_built_around_and_produces(game):
    s = all_face_down(game)
    act(s, Build("ship", ship_to(s, hx(game, 1, 1), hx(game, 2, 0))))
    act(s, RevealTile("pasture"))
    act(s, RevealNumber(10))
    corner = corner_of(game, hx(game, 2, 0), hx(game, 3, 0), hx(game, 2, 1))  # still fog beside it
    assert corner in s.game.pieces[s.game.piece_index["settlement"]].allowed_set
    put(s, 1, "settlement", corner)
    wool = s.hands[1][2]
    produce(s, 10)
    assert s.hands[1][2] == wool + 1  # the revealed pasture paid on its new number


def test_islands_follow_revealed_land(game):
    s = all_face_down(game)
    names = game.board.terrain_names
    home = island(s, ["h", hx(game, 1, 0)])

    def turn_up(q, r, kind):
        h = hx(game, q, r)
        s.face_down.remove(h)
        s.hidden_tiles[0][names.index(kind)] -= 1
        hexes.change(s, h, names.index(kind), 0)
        return island(s, ["h", h])

    # (3, 0) touches no land: a new island, numbered after the dealt ones
    new = turn_up(3, 0, "forest")
    assert new >= len(game.board.islands) and new != home
    # (2, 1) touches only (3, 0): the new island grows and keeps its number
    assert turn_up(2, 1, "pasture") == new
    assert island(s, ["h", hx(game, 3, 0)]) == new
    # (2, 0) touches the home island and the new one: one island, the lower number
    assert turn_up(2, 0, "forest") == home
    assert island(s, ["h", hx(game, 3, 0)]) == island(s, ["h", hx(game, 2, 1)]) == home
    assert len(s.game.board.islands[home]) == 8


def test_set_terrain_and_set_number_change_production(game):
    s = all_face_down(game)
    forest = ["h", hx(game, 0, 0)]
    put(s, 0, "settlement", corner_of(game, hx(game, 0, 0), hx(game, 1, 0), hx(game, 0, 1)))
    hexes.set_terrain(s, forest, "mountains")
    hexes.set_number(s, forest, 11)
    assert terrain(s, forest) == "mountains" and number(s, forest) == 11
    before = list(s.hands[0])
    produce(s, 11)
    assert s.hands[0][4] == before[4] + 1  # ore from the mountains it became
    produce(s, 8)
    assert s.hands[0][1] == before[1]  # no lumber on its old number: it is no forest now
    hexes.set_number(s, forest, 0)
    assert number(s, forest) == 0 and hx(game, 0, 0) not in s.game.board.number_hexes[11]
    with pytest.raises(EngineError, match="face-down"):
        hexes.set_terrain(s, ["h", hx(game, 3, 0)], "forest")
    with pytest.raises(EngineError, match="2..12 without 7"):
        hexes.set_number(s, forest, 7)


def test_changed_boards_are_made_once_per_set_of_changes(game):
    s = all_face_down(game)
    h = hx(game, 0, 0)
    hexes.set_number(s, ["h", h], 12)
    first = s.game
    t = s.clone()
    assert t.game is first  # a clone shares the game of its board
    hexes.set_number(s, ["h", h], 8)
    hexes.set_number(s, ["h", h], 12)
    assert s.game is first and first.base is game and game.base is game


def test_serialize_round_trip_keeps_the_hexes(game):
    s = all_face_down(game)
    act(s, Build("ship", ship_to(s, hx(game, 1, 1), hx(game, 2, 0))))
    act(s, RevealTile("forest"))
    text = s.serialize()  # between the tile and its number
    back = game.deserialize_state(text)
    assert back.serialize() == text
    act(back, RevealNumber(10))
    assert terrain(back, ["h", hx(game, 2, 0)]) == "forest" and number(back, ["h", hx(game, 2, 0)]) == 10
    again = game.deserialize_state(back.serialize())
    assert again.serialize() == back.serialize()
    assert again.game.board.hex_number[hx(game, 2, 0)] == 10
    assert again.game.board.terrain(hx(game, 2, 0)) == "forest"


@pytest.mark.parametrize("field, value, why", [
    ("hidden_tiles", [[0] * 20], "row of counts"),
    ("face_down", [0], "hexes of hidden pools"),
    ("hex_changes", [[0, 0, 7]], "hex, terrain, number"),
])
def test_a_state_whose_hexes_do_not_add_up_is_refused(game, field, value, why):
    s = all_face_down(game)
    data = json.loads(s.serialize())
    data[field] = value
    with pytest.raises(StateError, match=why):
        game.deserialize_state(json.dumps(data))


def test_a_revealed_tile_is_taken_from_the_stack_for_good(game):
    s = all_face_down(game)
    act(s, Build("ship", ship_to(s, hx(game, 1, 1), hx(game, 2, 0))))
    act(s, RevealTile("sea"))
    data = json.loads(s.serialize())
    data["hidden_tiles"][0][game.board.terrain_names.index("sea")] += 1  # put back: 4 tiles, 2 hexes down
    with pytest.raises(StateError, match="not conserved"):
        game.deserialize_state(json.dumps(data))


def test_a_producing_tile_with_no_numbers_left_lies_without_one(game):
    s = all_face_down(game)
    s.hidden_numbers = [[0] * 13]  # both tokens went to earlier discoveries
    act(s, Build("ship", ship_to(s, hx(game, 1, 1), hx(game, 2, 0))))
    act(s, RevealTile("forest"))
    assert not s.is_chance_node()
    assert terrain(s, ["h", hx(game, 2, 0)]) == "forest" and number(s, ["h", hx(game, 2, 0)]) == 0


def test_a_state_may_not_turn_a_hex_into_a_hub(tmp_path_factory):
    g = game_of(tmp_path_factory, SCENARIO.replace("uses seafarers", "uses seafarers\n  terrain fort { hub }"),
                players=2)
    s = all_face_down(g)
    data = json.loads(s.serialize())
    data["hex_changes"] = [[hx(g, 0, 0), g.board.terrain_names.index("fort"), 0]]
    with pytest.raises(StateError, match="hub"):
        g.deserialize_state(json.dumps(data))
    with pytest.raises(EngineError, match="hub terrain"):
        hexes.set_terrain(s, ["h", hx(g, 0, 0)], "fort")


# The pasture beside (2,0) shows a 6 here. The stack keeps 6 and 8 off gold and apart,
# and skips pastures: three numbered tiles (gold, two forests) for three tokens.
KEPT = (SCENARIO.replace("f8  p5  %   %", "f8  p6  %   %").replace("m6  w3  ~   ~", "m5  w3  ~   ~")
        .replace("pool fog hidden [forest x2, pasture, sea] cover sea",
                 "pool fog hidden [gold, forest x2, pasture] cover sea")
        .replace("numbers hidden [9, 10] onto [fog]",
                 "numbers hidden [6, 8, 5] onto [fog] skip [pasture] keep [6, 8] off [gold] avoid_adjacent [6, 8]"))


@pytest.fixture(scope="module")
def kept(tmp_path_factory):
    return game_of(tmp_path_factory, KEPT, players=2)


def numbers_offered(s):
    return {s.game.actions[a].number: p for a, p in s.chance_outcomes()}


def reveal_at(s, q, r, tile):
    """A rule reveals hex (q, r) for player 0, and the tile drawn is `tile`."""
    hexes.reveal(s, 0, ["h", hx(s.game, q, r)])
    s.changed()
    act(s, RevealTile(tile))


def test_a_hidden_number_is_drawn_where_keep_and_avoid_allow_it(kept):
    g = kept
    s = all_face_down(g)
    reveal_at(s, 2, 0, "forest")  # beside the pasture's 6: no 6, no 8
    assert numbers_offered(s) == {5: 1.0}
    act(s, RevealNumber(5))
    assert number(s, ["h", hx(g, 2, 0)]) == 5
    # the gold turns up where only 6 and 8 are left, both kept off gold: it lies without one
    reveal_at(s, 3, 0, "gold")
    assert not s.is_chance_node() and terrain(s, ["h", hx(g, 3, 0)]) == "gold"
    assert number(s, ["h", hx(g, 3, 0)]) == 0 and s.hidden_numbers[0][6] == s.hidden_numbers[0][8] == 1


def test_a_hidden_number_leaves_the_rest_of_the_stack_for_the_tiles_left(kept):
    g = kept
    s = all_face_down(g)
    # (3,0) touches no number: a forest there may take any token but the 5, which the
    # gold still in the stack needs (6 and 8 are kept off gold)
    reveal_at(s, 3, 0, "forest")
    assert numbers_offered(s) == pytest.approx({6: .5, 8: .5})
    act(s, RevealNumber(6))
    reveal_at(s, 2, 1, "gold")  # beside the 6, and gold: the 5
    assert numbers_offered(s) == {5: 1.0}


def test_a_skipped_terrain_draws_no_hidden_number(kept):
    g = kept
    s = all_face_down(g)
    reveal_at(s, 2, 0, "pasture")
    assert not s.is_chance_node() and number(s, ["h", hx(g, 2, 0)]) == 0
    assert sum(s.hidden_numbers[0]) == 3
