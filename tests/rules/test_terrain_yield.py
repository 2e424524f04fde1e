"""A yield per terrain written as a rule: `terrain_hexes`, `corners` and `piece_at`
(catandsl/rules/nearby.py) give a city at a pasture a wool of its own on the pasture's
roll, on top of what production pays."""

from __future__ import annotations

import catandsl
from catandsl.engine import actions as A
from catandsl.players import GreedyPlayer
from catandsl.rules.nearby import piece_at
from catandsl.rules.placement import place
from tests.conftest import compile_text

SOURCE = """
scenario shepherds "Shepherds" {
  uses base
  rule shepherds {    # a city at a pasture yields 1 wool more
    on dice_rolled {
      for h in terrain_hexes([pasture]) {
        if number(h) == roll {
          for c in corners(h) {
            if piece_at(c, [city]) { take_from_bank(owner(c), wool, 1) }
          }
        }
      }
    }
  }
  map {
    rows \"\"\"
      f8  p5  h4  m9
        m10 f6  h3
      f11 f2  h12 m4
    \"\"\"
    legend { f forest; p pasture; h hills; m mountains }
  }
}
"""


def _rolled(tmp_path, text: str, name: str):
    """Player 2's wool after a city of theirs is put at a pasture and its number rolled."""
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    game = catandsl.new_game(catandsl.load(path), 3, {}, 1)
    b = game.board
    s = game.new_initial_state()
    bots = [GreedyPlayer(p) for p in range(3)]
    while s.stage == "setup":
        s.apply_action(s.sample_chance() if s.is_chance_node() else bots[s.current_player()].choose(s))
    h = b.hex_id(1, 0)  # the pasture
    corner = next(c for c in sorted(b.hex_corners[h]) if s.corner_owner[c] == -1)
    place(s, 1, game.piece_index["settlement"], corner)
    place(s, 1, game.piece_index["city"], corner)
    assert piece_at(s, ["i", corner], ["city"]) and not piece_at(s, ["i", corner], ["settlement"])
    s.apply_action(game.action_id[A.Roll(b.hex_number[h])])
    return s.hands[1][game.res_index["wool"]]


def test_a_city_at_a_pasture_yields_one_wool_more(tmp_path):
    without = SOURCE.replace("take_from_bank(owner(c), wool, 1)", "take_from_bank(owner(c), wool, 0)")
    assert _rolled(tmp_path, SOURCE, "with.catan") == _rolled(tmp_path, without, "without.catan") + 1


def test_piece_at_takes_pieces(tmp_path):
    _, diags = compile_text(tmp_path, SOURCE.replace("piece_at(c, [city])", "piece_at(c, [wool])"))
    assert [d.code for d in diags] == ["E0504"]
