"""A choice among named options (catandsl/rules/options.py): `choose_option(player,
["Wealth", "Wisdom", "Peace"])` and a rule that runs on with the word picked."""

from __future__ import annotations

import pytest

import catandsl
from catandsl.engine import actions as A
from catandsl.players import GreedyPlayer
from catandsl.rules.base import EngineError
from tests.conftest import compile_text

SOURCE = """
scenario oracle "The oracle" {
  uses base
  rule oracle {
    on dice_rolled(12) {
      let o = choose_option(player, ["Wealth", "Wisdom", "Peace", "Wealth"])
      if o == "Wealth" { take_from_bank(player, ore, 2) }
      if o == "Wisdom" { take_card(player, knight) }
      if o == "Peace" { for p in opponents(player) { take_from_bank(p, grain, 1) } }
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


def _at_first_roll(tmp_path, text: str):
    path = tmp_path / "oracle.catan"
    path.write_text(text, encoding="utf-8")
    game = catandsl.new_game(catandsl.load(path), 3, {}, 1)
    s = game.new_initial_state()
    bots = [GreedyPlayer(p) for p in range(3)]
    while s.stage == "setup" or not s.is_chance_node():
        s.apply_action(s.sample_chance() if s.is_chance_node() else bots[s.current_player()].choose(s))
    return game, s


def test_the_player_picks_a_written_option_and_the_rule_runs_on(tmp_path):
    game, s = _at_first_roll(tmp_path, SOURCE)
    s.apply_action(game.action_id[A.Roll(12)])
    me = s.turn_player
    offered = sorted(game.actions[a] for a in s.legal_actions())
    assert offered == [A.PickOption("Peace"), A.PickOption("Wealth"), A.PickOption("Wisdom")]
    grain = game.res_index["grain"]
    before = [s.hands[p][grain] for p in range(3)]
    s.apply_action(game.action_id[A.PickOption("Peace")])
    assert [s.hands[p][grain] - before[p] for p in range(3)] == [0 if p == me else 1 for p in range(3)]


def test_a_computed_list_of_options_stops_the_rule(tmp_path):
    text = SOURCE.replace('let o = choose_option(player, ["Wealth", "Wisdom", "Peace", "Wealth"])',
                          'let words = ["Wealth", "Peace"]\n      let o = choose_option(player, words)')
    game, s = _at_first_roll(tmp_path, text)
    assert not any(a.KIND == "pick_option" for a in game.actions)
    with pytest.raises(EngineError, match="offers the options written in its list"):
        s.apply_action(game.action_id[A.Roll(12)])


def test_options_that_are_not_words_are_a_diagnostic(tmp_path):
    _, diags = compile_text(tmp_path, SOURCE.replace('["Wealth", "Wisdom", "Peace", "Wealth"]', "[1, 2]"))
    assert [d.code for d in diags] == ["E0504"]
