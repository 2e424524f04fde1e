"""A bounded "roll again until": a `for` over a written list with a per-turn counter
that stops it, and `roll_dice` inside (no construct of its own: the list bounds the
tries, so the rule always ends)."""

from __future__ import annotations

import pytest

import catandsl
from catandsl.engine import actions as A
from catandsl.players import GreedyPlayer

SOURCE = """
scenario prospector "The prospector" {
  uses base
  counter struck { per turn }
  action prospect "Prospect" {
    cost grain
    on take {
      for attempt in [1, 2, 3] {  # roll again until a 6, three tries at most
        if counter(player, struck) == 0 {
          let r = roll_dice(1, 6)
          if r == 6 {
            set_counter(player, struck, 1)
            take_from_bank(player, ore, 2)
          }
        }
      }
    }
  }
  turn {
    phase roll { roll; play }
    phase main { trade; build; buy; play; prospect }
  }
  map {
    rows \"\"\"
      f8  p5  h4
        m10 g6
    \"\"\"
    legend { f forest; p pasture; h hills; m mountains; g fields }
  }
}
"""


@pytest.fixture
def main_phase(tmp_path):
    path = tmp_path / "prospector.catan"
    path.write_text(SOURCE, encoding="utf-8")
    game = catandsl.new_game(catandsl.load(path), 3, {}, 1)
    s = game.new_initial_state()
    bots = [GreedyPlayer(p) for p in range(3)]
    while s.stage == "setup" or s.is_chance_node() or s.pending:
        s.apply_action(s.sample_chance() if s.is_chance_node() else bots[s.current_player()].choose(s))
    me = s.current_player()
    grain = game.res_index["grain"]
    s.bank[grain] -= 1
    s.hands[me][grain] += 1
    s.apply_action(game.action_id[A.TakeAction("prospect")])
    return game, s, me


@pytest.mark.parametrize("faces, ore", [([6], 2), ([2, 6], 2), ([1, 2, 3], 0), ([5, 5, 6], 2)])
def test_the_rule_rolls_until_a_six_three_times_at_most(main_phase, faces, ore):
    game, s, me = main_phase
    before = s.hands[me][game.res_index["ore"]]
    for face in faces:
        assert s.is_chance_node()
        s.apply_action(game.action_id[A.RuleRoll(face)])
    assert not s.is_chance_node()  # no fourth try, and none after a six
    assert s.hands[me][game.res_index["ore"]] - before == ore
