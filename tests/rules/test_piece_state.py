"""State on a piece (catandsl/rules/piece_state.py): a level per piece on the board
(`set_piece_level`, `piece_level`), which leaves with the piece, and where a player's
pieces stand (`piece_sites`)."""

from __future__ import annotations

import pytest

from catandsl.engine import actions as A
from catandsl.rules.base import location
from catandsl.rules.piece_state import piece_level, piece_sites, set_piece_level
from tests.conftest import compile_text, game_of
from tests.engine.helpers import act, blank, give, put, to_main
from tests.engine.soundness import check_cheap

SOURCE = """
scenario knights "Knights" {
  uses base
  piece knight {
    on intersection
    cost wool + ore
    limit 2
    connects road
  }
  rule raise {                  # a knight built stands active, at strength 1
    on built(knight) { set_piece_level(at, 1) }
  }
  rule drill {                  # on a 12 each of the roller's knights grows stronger
    on dice_rolled(12) {
      for k in piece_sites(player, [knight]) { set_piece_level(k, piece_level(k) + 1) }
    }
  }
  rule ambush {                 # on a 2 the roller's weakest... any knight is taken off
    on dice_rolled(2) { remove_piece(player, player, [knight]) }
  }
  map {
    rows \"\"\"
      f8  p5  h4
        m6  w9
    \"\"\"
    legend { f forest; p pasture; h hills; m mountains; w fields }
  }
}
"""


@pytest.fixture(scope="module")
def game(tmp_path_factory):
    return game_of(tmp_path_factory, SOURCE, players=3, name="knights")


def _road_and_spot(g):
    """A path and an intersection at one of its ends, with no other building near."""
    b = g.board
    k = 0
    return k, b.path_ends[k][0]


def test_a_level_is_given_read_raised_and_leaves_with_the_piece(game):
    s = blank(game)
    road, spot = _road_and_spot(game)
    put(s, 0, "road", road)
    give(s, 0, 0, 0, 1, 0, 1)  # wool and ore
    to_main(s, 8)
    act(s, A.Build("knight", spot))
    at = location("intersection", spot)
    assert piece_level(s, at) == 1
    assert piece_sites(s, 0, ["knight"]) == [at]
    assert piece_sites(s, 0, ["road"]) == [location("path", road)]
    check_cheap(s)
    act(s, A.EndTurn())
    for _ in range(2):  # around the table to player 0 again
        act(s, A.Roll(8))
        act(s, A.EndTurn())
    act(s, A.Roll(12))
    assert piece_level(s, at) == 2
    copy = game.deserialize_state(s.serialize())
    assert copy.piece_levels == s.piece_levels == [[0, spot, 0, game.piece_index["knight"], 2]]
    act(s, A.EndTurn())
    for _ in range(2):
        act(s, A.Roll(8))
        act(s, A.EndTurn())
    act(s, A.Roll(2))
    act(s, A.RemoveFromIntersection(spot))
    assert piece_level(s, at) == 0 and s.piece_levels == []
    check_cheap(s)


def test_a_level_on_an_empty_site_or_zero_is_not_kept(game):
    s = blank(game)
    set_piece_level(s, location("intersection", 3), 4)
    set_piece_level(s, location("hex", 0), 4)
    assert s.piece_levels == []
    road, _ = _road_and_spot(game)
    put(s, 1, "road", road)
    set_piece_level(s, location("path", road), 3)
    assert piece_level(s, location("path", road)) == 3
    set_piece_level(s, location("path", road), 0)
    assert s.piece_levels == []


@pytest.mark.parametrize("old, new, code", [
    ("set_piece_level(at, 1)", "set_piece_level(at, 5000)", "E0511"),
    ("set_piece_level(at, 1)", "set_piece_level(ore, 1)", "E0504"),
])
def test_misuse_is_a_diagnostic(tmp_path, old, new, code):
    _, diags = compile_text(tmp_path, SOURCE.replace(old, new))
    assert [d.code for d in diags] == [code]
