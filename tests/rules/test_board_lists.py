"""The board and hands as data a rule iterates over and counts: `terrain_hexes`,
`corners`, `sides` (catandsl/rules/board_lists.py), `cards_of` (hand_counts.py), and a
per-player hand limit written with them and `pay_to_bank`."""

from __future__ import annotations

import random

import pytest

import catandsl
from catandsl.engine import actions as A
from catandsl.rules.board_lists import corners, sides, terrain_hexes
from catandsl.rules.hand_counts import cards_of
from tests.conftest import compile_text
from tests.engine.soundness import check_cheap

SOURCE = """
scenario forest_tax "Forest tax" {
  uses base
  rule forest_tax {
    on dice_rolled(12) {
      for h in terrain_hexes([forest]) {
        for p in players_around(h) {
          if p != player and cards_of(p, lumber) > 0 { give_resource(p, player, lumber, 1) }
        }
      }
    }
  }
  rule hand_limit {
    on turn_ended {
      for p in players() {
        if resource_cards(p) > 9 { pay_to_bank(p, resource_cards(p) - 9) }
      }
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
def game(tmp_path_factory):
    path = tmp_path_factory.mktemp("lists") / "forest_tax.catan"
    path.write_text(SOURCE, encoding="utf-8")
    return catandsl.new_game(catandsl.load(path), 3, {}, 1)


def test_terrain_hexes_corners_and_sides(game):
    b = game.board
    s = game.new_initial_state()
    assert sorted(k for _, k in terrain_hexes(s, ["forest"])) == sorted([b.hex_id(0, 0), b.hex_id(1, 1)])
    assert [k for _, k in terrain_hexes(s, ["forest"])] == sorted(k for _, k in terrain_hexes(s, ["forest"]))
    assert terrain_hexes(s, ["desert"]) == []
    h = ["h", b.hex_id(1, 0)]
    assert sorted(k for _, k in corners(s, h)) == sorted(b.hex_corners[h[1]]) and len(corners(s, h)) == 6
    assert sorted(k for _, k in sides(s, h)) == sorted(b.hex_paths[h[1]]) and len(sides(s, h)) == 6


def test_cards_of_counts_one_resource(game):
    s = game.new_initial_state()
    s.hands[1][game.res_index["ore"]] = 3
    assert cards_of(s, 1, "ore") == 3 and cards_of(s, 1, "wool") == 0


def test_the_hand_limit_rule_brings_every_hand_down_to_nine(game):
    s = game.new_initial_state()
    rng = random.Random(3)
    wool = game.res_index["wool"]
    limited = 0
    for _ in range(3000):
        if s.is_terminal():
            break
        a = s.sample_chance() if s.is_chance_node() else rng.choice(s.legal_actions())
        if not s.is_chance_node() and game.actions[a] == A.EndTurn() and s.bank[wool] >= 12:
            s.bank[wool] -= 12  # a fat hand at the end of the turn
            s.hands[1][wool] += 12
            s.apply_action(a)
            while s.pending and s.top().KIND == "discard":  # each player over 9 chooses what to pay
                s.apply_action(rng.choice(s.legal_actions()))
            assert sum(s.hands[1]) == 9 and all(sum(h) <= 9 for h in s.hands)
            limited += 1
        else:
            s.apply_action(a)
        check_cheap(s)
    assert limited > 5


@pytest.mark.parametrize("old, new, code", [
    ("terrain_hexes([forest])", "terrain_hexes([lumber])", "E0504"),
    ("cards_of(p, lumber)", "cards_of(p, forest)", "E0504"),
])
def test_a_bad_argument_is_a_diagnostic(tmp_path, old, new, code):
    _, diags = compile_text(tmp_path, SOURCE.replace(old, new))
    assert [d.code for d in diags] == [code]
