"""Counters (`counter NAME`, `counter NAME { per turn }`, rules/counters.py): a number
each player keeps, set and read by rules; a `per turn` one goes back to 0 when a turn
begins. Here: one limit a turn shared by two actions, and a count kept all game."""

from __future__ import annotations

import json

import pytest

from catandsl.engine import StateError
from catandsl.engine import actions as A
from tests.conftest import compile_text, game_of
from tests.engine.helpers import act, blank, legal

SCENARIO = '''
scenario favours "Favours" {
  uses base
  counter favours_asked { per turn }
  counter favours_ever
  action ask_grain "Ask for grain" {
    on take if counter(player, favours_asked) == 0 {
      add_to_counter(player, favours_asked, 1)
      add_to_counter(player, favours_ever, 1)
      take_from_bank(player, grain, 1)
    }
  }
  action ask_ore "Ask for ore" {
    on take if counter(player, favours_asked) == 0 and counter(player, favours_ever) < 2 {
      set_counter(player, favours_asked, 1)
      add_to_counter(player, favours_ever, 1)
      take_from_bank(player, ore, 1)
    }
  }
  turn {
    phase roll { roll; play }
    phase main { trade; build; buy; play; ask_grain; ask_ore }
  }
  map { hex (0, 0) forest 8 }
}
'''


@pytest.fixture
def g(tmp_path_factory):
    return game_of(tmp_path_factory, SCENARIO)


def _turn(s, p):
    while s.turn_player != p or s.is_chance_node() or A.Roll(8) in legal(s):
        if s.is_chance_node():
            act(s, A.Roll(8))
        elif A.EndTurn() in legal(s):
            act(s, A.EndTurn())
        else:
            act(s, A.RollDice())


def test_one_limit_a_turn_shared_by_two_actions_and_a_count_kept_all_game(g):
    asked, ever = g.counter_index["favours_asked"], g.counter_index["favours_ever"]
    s = blank(g)
    act(s, A.Roll(8))
    act(s, A.TakeAction("ask_grain"))
    assert s.counters[0][asked] == 1 and s.counters[0][ever] == 1
    assert A.TakeAction("ask_ore") not in legal(s)  # the shared limit
    act(s, A.EndTurn())
    assert s.counters[0][asked] == 0 and s.counters[0][ever] == 1  # per turn: back to 0
    _turn(s, 0)
    act(s, A.TakeAction("ask_ore"))
    _turn(s, 1)
    _turn(s, 0)
    assert A.TakeAction("ask_ore") not in legal(s)  # asked twice in the game
    assert A.TakeAction("ask_grain") in legal(s)
    back = g.deserialize_state(s.serialize())
    assert back.counters == s.counters
    data = json.loads(s.serialize())
    data["counters"][0][ever] = -1
    with pytest.raises(StateError):
        g.deserialize_state(json.dumps(data))


@pytest.mark.parametrize("text, code", [
    ("counter favours_asked { per round }", "E0304"),
    ("counter favours_asked\n  counter favours_asked", "E0303"),
])
def test_a_malformed_counter_is_a_located_diagnostic(tmp_path, text, code):
    _, diags = compile_text(tmp_path, SCENARIO.replace("counter favours_asked { per turn }", text))
    assert code in {d.code for d in diags}


def test_an_unknown_counter_is_an_unknown_name(tmp_path):
    _, diags = compile_text(tmp_path, SCENARIO.replace("counter(player, favours_ever) < 2",
                                                       "counter(player, favors_ever) < 2"))
    assert "E0505" in {d.code for d in diags}
