"""Fixing the dice before a roll (catandsl/rules/fixed_dice.py): the next roll's chance
node has one outcome, then the dice are dice again."""

from __future__ import annotations

import pytest

import catandsl
from catandsl.engine import actions as A
from catandsl.players import GreedyPlayer
from catandsl.rules.base import EngineError
from catandsl.rules.fixed_dice import fix_dice
from tests.conftest import compile_text

SOURCE = """
scenario alchemy "Alchemy" {
  uses base
  action alchemy "The alchemist" {
    cost ore
    on take { fix_dice(8) }
  }
  turn {
    phase roll { roll; play; alchemy }
    phase main { trade; build; buy; play }
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


def _end_turn(game, s) -> None:
    """Play on (the first legal answer to any prompt) until the turn ends."""
    end = game.action_id[A.EndTurn()]
    turn = s.turns
    while s.turns == turn:
        if s.is_chance_node():
            s.apply_action(s.sample_chance())
            continue
        legal = s.legal_actions()
        s.apply_action(end if end in legal else legal[0])


@pytest.fixture
def at_roll(tmp_path):
    """The second turn's player, before the roll, holding an ore for the alchemist."""
    path = tmp_path / "alchemy.catan"
    path.write_text(SOURCE, encoding="utf-8")
    game = catandsl.new_game(catandsl.load(path), 3, {}, 1)
    s = game.new_initial_state()
    bots = [GreedyPlayer(p) for p in range(3)]
    while s.stage == "setup":
        s.apply_action(s.sample_chance() if s.is_chance_node() else bots[s.current_player()].choose(s))
    s.apply_action(s.sample_chance())
    ore = game.res_index["ore"]
    for p in range(3):  # everybody can pay the alchemist
        s.bank[ore] -= 1
        s.hands[p][ore] += 1
    _end_turn(game, s)
    return game, s


def test_the_fixed_roll_is_the_only_outcome_once(at_roll):
    game, s = at_roll
    assert not s.is_chance_node()
    s.apply_action(game.action_id[A.TakeAction("alchemy")])
    if not s.is_chance_node():
        s.apply_action(game.action_id[A.RollDice()])
    assert s.chance_outcomes() == [(game.action_id[A.Roll(8)], 1.0)]
    s.apply_action(s.sample_chance())
    assert s.last_roll == 8 and s.fixed_roll == 0
    _end_turn(game, s)  # the next roll is the dice's again
    if not s.is_chance_node():
        s.apply_action(game.action_id[A.RollDice()])
    assert len(s.chance_outcomes()) == 11


def test_a_total_the_dice_never_roll_stops_the_rule(at_roll):
    _, s = at_roll
    with pytest.raises(EngineError, match="the dice never roll 13"):
        fix_dice(s, 13)


def test_a_total_out_of_range_is_a_diagnostic(tmp_path):
    _, diags = compile_text(tmp_path, SOURCE.replace("fix_dice(8)", "fix_dice(0)"))
    assert [d.code for d in diags] == ["E0511"]
