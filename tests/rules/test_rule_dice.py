"""Dice a rule rolls (`roll_dice(count, sides)`, catandsl/rules/dice.py): the rule waits
at a chance node whose outcomes are the totals with their odds, then runs on with the
total; the state serializes while it waits; a game whose rules roll nothing numbers no
such outcomes; a condition may not roll (E0510)."""

from __future__ import annotations

import pytest

import catandsl
from catandsl.engine import CHANCE, IllegalAction
from catandsl.rules.dice import RuleRoll
from tests.conftest import TWO_HEXES, compile_text, game_of
from tests.engine.helpers import ORE, act, blank, legal

DUEL = '''
scenario "Duel" {
  uses base
  action duel "Duel" {
    on take {
      let r = roll_dice(1, 6)
      if r >= 5 { take_from_bank(player, ore, 1) }
    }
  }
  action brawl "Brawl" {
    on take { take_from_bank(player, ore, roll_dice(2, 3) - 1) }
  }
  turn {
    phase roll { roll; play }
    phase main { trade; build; buy; play; duel; brawl }
  }
''' + TWO_HEXES


@pytest.fixture(scope="module")
def game(tmp_path_factory):
    return game_of(tmp_path_factory, DUEL)


def _main_phase(game):
    s = blank(game)
    act(s, catandsl.engine.actions.Roll(8))
    return s


def _take(s, name):
    act(s, next(a for a in legal(s) if getattr(a, "action", None) == name))


def test_a_rule_waits_at_a_chance_node_with_the_totals_and_their_odds(game):
    s = _main_phase(game)
    _take(s, "duel")
    assert s.is_chance_node() and s.current_player() == CHANCE
    outcomes = {game.actions[a].total: p for a, p in s.chance_outcomes()}
    assert outcomes == pytest.approx(dict.fromkeys(range(1, 7), 1 / 6))
    act(s, RuleRoll(5))
    assert s.hands[0][ORE] == 1 and not s.is_chance_node()  # a 5 wins the ore, the rule ran on
    s = _main_phase(game)
    _take(s, "duel")
    act(s, RuleRoll(4))
    assert s.hands[0][ORE] == 0


def test_two_dice_give_the_sum_with_its_weight(game):
    s = _main_phase(game)
    _take(s, "brawl")
    outcomes = {game.actions[a].total: p for a, p in s.chance_outcomes()}
    assert outcomes == pytest.approx({2: 1 / 9, 3: 2 / 9, 4: 3 / 9, 5: 2 / 9, 6: 1 / 9})
    act(s, RuleRoll(6))
    assert s.hands[0][ORE] == 5


def test_a_total_the_dice_cannot_show_is_refused_and_the_state_is_unchanged(game):
    s = _main_phase(game)
    _take(s, "duel")
    before = s.serialize()
    with pytest.raises(IllegalAction):
        act(s, RuleRoll(7))
    assert s.serialize() == before


def test_a_waiting_roll_serializes_and_sampling_is_deterministic(game):
    s = _main_phase(game)
    _take(s, "duel")
    back = game.deserialize_state(s.serialize())
    assert back == s and back.is_chance_node()
    assert back.sample_chance() == s.sample_chance()


def test_a_game_whose_rules_roll_nothing_has_no_rule_roll_outcomes():
    g = catandsl.new_game(catandsl.load("scenarios/base.catan"), 4, {}, 1)
    assert not any(isinstance(a, RuleRoll) for a in g.actions)


def test_a_condition_may_not_roll(tmp_path):
    text = DUEL.replace("on take {\n      let r", "on take if roll_dice(1, 6) > 3 {\n      let r")
    _, diags = compile_text(tmp_path, text)
    assert [d.code for d in diags if d.is_error] == ["E0510"]


def test_the_ranges_of_count_and_sides_are_checked(tmp_path):
    _, diags = compile_text(tmp_path, DUEL.replace("roll_dice(1, 6)", "roll_dice(5, 6)"))
    assert [d.code for d in diags if d.is_error] == ["E0511"]  # out of range
