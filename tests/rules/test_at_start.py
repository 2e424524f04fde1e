"""`at_start(pieces)` (catandsl/rules/neutral.py): whether neutral pieces stand where the
map started them, so an action that sends the robber home is offered only while it is
away; a player's piece given to it (or to `return_to_start`) is E0504."""

from __future__ import annotations

import pytest

import catandsl
from catandsl.engine import actions as A
from tests.conftest import compile_text, game_of

SCENARIO = '''
scenario "Homeward" {
  uses base
  action send_home "Send the robber back to the desert" {
    cost wool
    on take if not at_start([robber]) {
      return_to_start([robber])
    }
  }
  turn {
    phase roll { roll; play }
    phase main { trade; build; buy; play; send_home }
  }
  map {
    rows """
      f8  d   h5
        m6  w9
    """
    legend { f forest; d desert; h hills; m mountains; w fields }
    start robber on desert
  }
}
'''


@pytest.fixture(scope="module")
def game(tmp_path_factory):
    return game_of(tmp_path_factory, SCENARIO)


def robber_at(game, hex_at, wool: int = 1):
    pos = catandsl.position(game).neutral("robber", hex_at).hand(0, wool=wool)
    return pos.turn(0, phase="main", rolled=True).state()


def test_the_action_waits_until_the_robber_leaves_its_start(game):
    home = game.board.hex_id(1, 0)
    s = robber_at(game, (1, 0))
    assert A.TakeAction("send_home") not in [game.actions[a] for a in s.legal_actions()]
    s = robber_at(game, (0, 0))
    s.apply_action(A.TakeAction("send_home"))
    robber = game.piece_index["robber"]
    assert [s.neutral_at[u] for u in game.neutral_slots[robber]] == [home]
    assert s.hands[0][game.res_index["wool"]] == 0


@pytest.mark.parametrize("call", ["at_start([settlement])", "return_to_start([road])"])
def test_a_players_piece_is_refused(tmp_path, call):
    text = SCENARIO.replace("not at_start([robber])", f"not {call}" if call.startswith("at") else "true")
    if call.startswith("return"):
        text = text.replace("return_to_start([robber])", call)
    _, diags = compile_text(tmp_path, text)
    found = [d for d in diags if d.code == "E0504"]
    assert found and "takes neutral pieces" in found[0].message
