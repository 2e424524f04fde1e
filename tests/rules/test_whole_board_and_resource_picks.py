"""The whole board as lists (`board_hexes`, `board_intersections`, `board_paths` in
catandsl/rules/board_lists.py) and a pick among listed resources
(`choose_resource_among` in picks.py)."""

from __future__ import annotations

import pytest

from catandsl.engine import actions as A
from tests.conftest import compile_text, game_of, played_to_first_roll
from tests.engine.soundness import check_cheap

SOURCE = """
scenario survey "The survey" {
  uses base
  counter hexes_seen { shared }
  counter corners_seen { shared }
  counter paths_seen { shared }
  rule survey {
    on dice_rolled(12) {
      for h in board_hexes() { add_to_counter(player, hexes_seen, 1) }
      for c in board_intersections() { add_to_counter(player, corners_seen, 1) }
      for x in board_paths() { add_to_counter(player, paths_seen, 1) }
    }
  }
  rule tribute {
    on dice_rolled(2) {
      let r = choose_resource_among(player, [ore, wool, ore])
      take_from_bank(player, r, 1)
    }
  }
  map {
    rows \"\"\"
      f8  p5  h4
        m10 f6
    \"\"\"
    legend { f forest; p pasture; h hills; m mountains }
  }
}
"""


@pytest.fixture(scope="module")
def ready(tmp_path_factory):
    game = game_of(tmp_path_factory, SOURCE, name="survey")
    return game, played_to_first_roll(game)


def _shared(game, s, name):
    return s.counters[0][game.counter_index[name]]


def test_the_whole_board_is_listed_each_site_once(ready):
    game, s0 = ready
    s = s0.clone()
    s.apply_action(game.action_id[A.Roll(12)])
    b = game.board
    corners = {c for h in range(len(b.hexes)) for c in b.hex_corners[h]}
    paths = {x for h in range(len(b.hexes)) for x in b.hex_paths[h]}
    assert _shared(game, s, "hexes_seen") == len(b.hexes)
    assert _shared(game, s, "corners_seen") == len(b.intersections) == len(corners)
    assert _shared(game, s, "paths_seen") == len(b.paths) == len(paths)
    assert len(b.hexes) >= 5  # five land hexes at least, so the counts say something
    check_cheap(s)


def test_choose_resource_among_offers_the_listed_resources_once_each(ready):
    game, s0 = ready
    s = s0.clone()
    s.apply_action(game.action_id[A.Roll(2)])
    me = s.turn_player
    assert s.current_player() == me
    offered = sorted(game.actions[a] for a in s.legal_actions())
    assert offered == [A.ChooseResource("ore"), A.ChooseResource("wool")]
    wool = game.resources.index("wool")
    before = s.hands[me][wool]
    s.apply_action(game.action_id[A.ChooseResource("wool")])
    assert s.hands[me][wool] == before + 1
    check_cheap(s)


@pytest.mark.parametrize("old, new, code", [
    ("choose_resource_among(player, [ore, wool, ore])", "choose_resource_among(player, [forest])", "E0504"),
    ("for h in board_hexes()", "for h in board_hexes(player)", "E0503"),
])
def test_misuse_is_a_diagnostic(tmp_path, old, new, code):
    _, diags = compile_text(tmp_path, SOURCE.replace(old, new))
    assert [d.code for d in diags] == [code]
