"""One of several travellers as a rule's target (catandsl/rules/traveller_picks.py):
`choose_traveller` offers the owner's travellers of a kind by the paths they stand on,
and the rule acts on the one picked (`add_travel_points_on`, `send_traveller`)."""

from __future__ import annotations

import pytest

from catandsl.engine import actions as A
from tests.conftest import compile_text, game_of, played_to_first_roll
from tests.engine.soundness import check_cheap

SOURCE = """
scenario caravans "Caravans" {
  uses base
  piece wagon {
    on path where land(at)
    limit 2
    travels { points 2; step_cost 1 }
  }
  rule ambush {         # on a 12 the roller sends one of the left player's wagons back
    on dice_rolled(12) {
      let w = choose_traveller(player, left_of(player), wagon)
      send_traveller(left_of(player), wagon, w, travellers(left_of(player), wagon)[0])
    }
  }
  rule tailwind {       # on a 2 the roller gives one of their own wagons 3 points
    on dice_rolled(2) {
      let w = choose_traveller(player, player, wagon)
      add_travel_points_on(player, wagon, w, 3)
    }
  }
  setup {
    round forward { place settlement; place road touching last; place wagon touching last }
    round backward { place settlement; place road touching last; place wagon touching last; collect last }
  }
  turn {
    phase roll { roll; play }
    phase main { trade; build; buy; play }
    phase move { travel }
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
def ready(tmp_path_factory):
    game = game_of(tmp_path_factory, SOURCE, name="caravans")
    return game, played_to_first_roll(game)


def _wagons(s, p):
    return [e.path for e in s.travellers if e.player == p]


def test_the_chooser_picks_one_of_the_owners_wagons(ready):
    game, s0 = ready
    s = s0.clone()
    me = s.turn_player
    victim = (me + 1) % game.num_players
    paths = _wagons(s, victim)
    assert len(paths) == 2 and paths[0] != paths[1]
    s.apply_action(game.action_id[A.Roll(12)])
    assert s.current_player() == me
    assert sorted(game.actions[a] for a in s.legal_actions()) == sorted(A.PickTraveller(k) for k in paths)
    s.apply_action(game.action_id[A.PickTraveller(paths[1])])
    assert _wagons(s, victim) == [paths[0], paths[0]]  # the second sent to where the first stands
    check_cheap(s)


def test_points_go_to_the_wagon_picked(ready):
    game, s0 = ready
    s = s0.clone()
    me = s.turn_player
    paths = _wagons(s, me)
    s.apply_action(game.action_id[A.Roll(2)])
    s.apply_action(game.action_id[A.PickTraveller(paths[1])])
    mine = [e for e in s.travellers if e.player == me]
    assert mine[1].left == 2 + 3 and mine[1].turn == s.turns  # its 2 points and 3 more
    assert mine[0].turn != s.turns  # the other has not started this turn


@pytest.mark.parametrize("old, new, code", [
    ("choose_traveller(player, left_of(player), wagon)", "choose_traveller(player, left_of(player), ore)", "E0504"),
    ("add_travel_points_on(player, wagon, w, 3)", "add_travel_points_on(player, wagon, w, 3000)", "E0511"),
])
def test_misuse_is_a_diagnostic(tmp_path, old, new, code):
    _, diags = compile_text(tmp_path, SOURCE.replace(old, new))
    assert [d.code for d in diags] == [code]


def test_a_choice_in_a_condition_is_a_diagnostic(tmp_path):
    pick = "choose_traveller(player, player, wagon)"
    text = SOURCE.replace("on dice_rolled(2) {", f"on dice_rolled(2) if {pick} == {pick} {{")
    _, diags = compile_text(tmp_path, text)
    assert "E0510" in [d.code for d in diags]
