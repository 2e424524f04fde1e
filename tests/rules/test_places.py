"""Board queries (catandsl/rules/places.py), from a small fixed map."""

from __future__ import annotations

import pytest

import catandsl
from catandsl.engine import actions as A
from catandsl.rules.places import hexes_around
from tests.conftest import THREE_HEXES, game_of

MAP = """
scenario "Places" {
  uses base
  rule count_forests {
    on built(settlement) {
      for h in hexes_around(at) {
        if terrain(h) == forest { take_from_bank(player, lumber, 1) }
      }
    }
  }
""" + THREE_HEXES


@pytest.fixture(scope="module")
def game(tmp_path_factory):
    return game_of(tmp_path_factory, MAP)


def test_hexes_around_an_intersection_a_path_and_a_hex(game):
    b = game.board
    s = game.new_initial_state()
    middle = b.intersection_id(0, 0, "SE")  # where the two forests and the hills meet
    assert sorted(k for _, k in hexes_around(s, ["i", middle])) == [b.hex_id(0, 0), b.hex_id(1, 0), b.hex_id(0, 1)]
    between = b.path_id(0, 0, "E")  # between the two forests
    assert sorted(k for _, k in hexes_around(s, ["p", between])) == [b.hex_id(0, 0), b.hex_id(1, 0)]
    assert hexes_around(s, ["h", b.hex_id(0, 1)]) == [["h", b.hex_id(0, 1)]]
    edge = b.intersection_id(0, 0, "N")  # at the edge of the board: one hex only
    assert hexes_around(s, ["i", edge]) == [["h", b.hex_id(0, 0)]]


def test_a_rule_reads_the_hexes_around_a_new_settlement(game):
    b = game.board
    s = game.new_initial_state()
    s.apply_action(A.StartPlayer(0))
    lumber = game.res_index["lumber"]
    s.apply_action(A.Build("settlement", b.intersection_id(0, 0, "SE")))
    assert s.hands[0][lumber] == 2  # two forests around it, one card each


# `owner(at)` is -1 where nobody's piece stands, `project_owner` before the first
# stage, `island(at)` on no island: a rule compares them with -1 as the docs say.
NOBODY = """
scenario "Nobody" {
  uses base
  rule empty_corners {
    on built(road) {
      for c in ends(at) {
        if owner(c) == -1 and -1 == owner(c) and island(c) != -1 { take_from_bank(player, wool, 1) }
      }
    }
  }
""" + THREE_HEXES


def test_a_rule_compares_owner_with_minus_one_for_nobody(tmp_path):
    path = tmp_path / "nobody.catan"
    path.write_text(NOBODY, encoding="utf-8")
    game = catandsl.new_game(catandsl.load(path), 3, {}, 1)
    b = game.board
    corner, road = b.intersection_id(0, 0, "SE"), b.path_id(0, 0, "E")  # the road's lower end
    state = catandsl.position(game).place(0, "settlement", corner).place(0, "road", road, rules=True).state()
    assert state.hands[0][game.res_index["wool"]] == 1  # one end empty, the other the settlement
    # -1 is the one number a seat, a player or an island compares with
    bad = NOBODY.replace("owner(c) == -1 and", "owner(c) == 2 and")
    path.write_text(bad, encoding="utf-8")
    with pytest.raises(catandsl.CatanError) as refused:
        catandsl.load(path)
    assert [d.code for d in refused.value.diagnostics] == ["E0504"]


def test_players_around_counts_any_piece_on_an_intersection(tmp_path):
    """Not only settlements and cities: a scenario's own piece on an intersection too
    (the engine knows no piece by name)."""
    from catandsl.rules.places import players_around

    path = tmp_path / "towers.catan"
    path.write_text(NOBODY.replace("  rule empty_corners", "  piece tower {\n    on intersection\n    limit 2\n  }\n"
                                   "  rule empty_corners"), encoding="utf-8")
    game = catandsl.new_game(catandsl.load(path), 3, {}, 1)
    b = game.board
    state = catandsl.position(game).place(1, "tower", b.intersection_id(0, 0, "N")) \
        .place(2, "settlement", b.intersection_id(0, 0, "S")).state()
    assert players_around(state, ["h", b.hex_id(0, 0)]) == [1, 2]
