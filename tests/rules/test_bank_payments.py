"""A cost that depends on a value (catandsl/rules/bank_payments.py): `return_to_bank`
with a computed count, behind a condition that the player can pay it."""

from __future__ import annotations

import catandsl
from catandsl.engine import actions as A
from catandsl.players import GreedyPlayer
from catandsl.rules.bank_payments import return_to_bank
from tests.conftest import compile_text

SOURCE = """
scenario library "The library" {
  uses base
  counter level
  action study "Study" {
    per_turn 4
    on take if cards_of(player, grain) >= counter(player, level) + 1 and counter(player, level) < 4 {
      return_to_bank(player, grain, counter(player, level) + 1)
      add_to_counter(player, level, 1)
    }
  }
  turn {
    phase roll { roll; play }
    phase main { trade; build; buy; play; study }
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


def test_each_level_costs_one_grain_more(tmp_path):
    path = tmp_path / "library.catan"
    path.write_text(SOURCE, encoding="utf-8")
    game = catandsl.new_game(catandsl.load(path), 3, {}, 1)
    grain = game.res_index["grain"]
    s = game.new_initial_state()
    bots = [GreedyPlayer(p) for p in range(3)]
    while s.stage == "setup" or s.is_chance_node() or s.pending:
        s.apply_action(s.sample_chance() if s.is_chance_node() else bots[s.current_player()].choose(s))
    me = s.current_player()
    s.bank[grain] -= 10 - s.hands[me][grain]
    s.hands[me][grain] = 10
    study = game.action_id[A.TakeAction("study")]
    paid = []
    while study in s.legal_actions():
        before = s.hands[me][grain]
        s.apply_action(study)
        paid.append(before - s.hands[me][grain])
    assert paid == [1, 2, 3, 4]  # then the level is 4: no more study
    assert s.hands[me][grain] == 0


def test_return_to_bank_pays_what_the_player_holds_at_most(tmp_path):
    path = tmp_path / "library.catan"
    path.write_text(SOURCE, encoding="utf-8")
    game = catandsl.new_game(catandsl.load(path), 3, {}, 1)
    s = game.new_initial_state()
    ore = game.res_index["ore"]
    s.hands[0][ore], s.bank[ore] = 2, s.bank[ore] - 2
    return_to_bank(s, 0, "ore", 5)
    assert s.hands[0][ore] == 0 and s.bank[ore] == 19


def test_a_count_out_of_range_is_a_diagnostic(tmp_path):
    _, diags = compile_text(tmp_path, SOURCE.replace("return_to_bank(player, grain, counter(player, level) + 1)",
                                                     "return_to_bank(player, grain, -1)"))
    assert [d.code for d in diags] == ["E0511"]
