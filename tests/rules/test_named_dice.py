"""Named dice (`dice 2d6 { named red, white }`, catandsl/rules/dice.py): the roll is each
die's face, so a rule reads one die with `die(red)`; the total still produces. Tested on a
small board with forced throws: the chance outcomes are every throw, equally likely (a
rerolled total left out); the faces serialize and are checked on load; the log says each
die; a name no die has is E0513; `named` must name every die once."""

from __future__ import annotations

import json

import pytest

import catandsl
from catandsl.engine import IllegalAction
from catandsl.engine.errors import StateError
from catandsl.players.base import play_game
from catandsl.players.random_player import RandomPlayer
from catandsl.rules.dice import Roll, RollFaces
from tests.conftest import TWO_HEXES, compile_text, game_of
from tests.engine.helpers import BRICK, ORE, act, blank

# a red die higher than the white pays one ore; a double pays one brick more
SCENARIO = '''
scenario "Red and white" {
  uses base
  dice 2d6 {
    named red, white
    reroll 12
  }
  rule red_wins {
    on dice_rolled if die(red) > die(white) { take_from_bank(player, ore, 1) }
  }
  rule doubles {
    on dice_rolled if die(red) == die(white) { take_from_bank(player, brick, 1) }
  }
''' + TWO_HEXES


@pytest.fixture(scope="module")
def game(tmp_path_factory):
    return game_of(tmp_path_factory, SCENARIO)


def test_the_roll_is_every_throw_equally_likely_with_rerolled_totals_left_out(game):
    s = blank(game)
    assert s.is_chance_node()
    outcomes = {game.actions[a].faces: p for a, p in s.chance_outcomes()}
    assert len(outcomes) == 35 and (6, 6) not in outcomes  # 36 throws, the double six rolled again
    assert list(outcomes.values()) == pytest.approx([1 / 35] * 35)
    assert all(type(game.actions[a]) is RollFaces for a, _ in s.chance_outcomes())


def test_a_rule_reads_each_die(game):
    s = blank(game)
    act(s, RollFaces((5, 3)))
    assert s.last_roll == 8 and s.last_faces == [5, 3]
    assert s.hands[0][ORE] == 1 and s.hands[0][BRICK] == 0
    s = blank(game)
    act(s, RollFaces((3, 5)))  # the same total, the white die higher: nothing
    assert s.last_roll == 8 and s.hands[0][ORE] == 0 and s.hands[0][BRICK] == 0
    s = blank(game)
    act(s, RollFaces((3, 3)))
    assert s.hands[0][BRICK] == 1 and s.hands[0][ORE] == 0


def test_a_throw_out_of_turn_is_refused_and_the_state_is_unchanged(game):
    s = blank(game)
    act(s, RollFaces((4, 4)))
    before = s.serialize()
    with pytest.raises(IllegalAction):
        act(s, RollFaces((1, 2)))  # the dice were rolled: no chance node now
    assert s.serialize() == before
    assert RollFaces((6, 6)) not in game.action_id  # rerolled: never an outcome
    assert Roll(7) not in game.action_id  # named dice roll faces, never a bare total


def test_faces_serialize_and_a_tampered_throw_is_refused_on_load(game):
    s = blank(game)
    act(s, RollFaces((4, 1)))
    again = game.deserialize_state(s.serialize())
    assert again.last_faces == [4, 1] and again.serialize() == s.serialize()
    tampered = json.loads(s.serialize())
    for faces in ([6, 1], [0, 5], [4, 1, 1]):  # not the roll of 5; half a throw; a third die
        tampered["last_faces"] = faces
        with pytest.raises(StateError, match="last_faces"):
            game.deserialize_state(json.dumps(tampered))


def test_the_log_says_each_die(game):
    s = blank(game)
    text = game.action_to_string(game.action_id[RollFaces((3, 4))])
    assert text == "roll 7 (red 3, white 4)"
    _, entries = play_game(game, [RandomPlayer(seed=k) for k in range(3)], seed=3)
    rolls = [e["text"] for e in entries if e["kind"] == "roll_faces"]
    assert rolls and all("(red " in t and ", white " in t for t in rolls)
    assert s.last_faces == [0, 0]  # no roll yet


def test_whole_games_keep_faces_and_total_together(game):
    for seed in range(5):
        g = catandsl.new_game(game.scenario, 3, {}, seed)
        s = g.new_initial_state()
        steps = 0
        while not s.is_terminal() and steps < 600:
            s.apply_action(s.sample_chance() if s.is_chance_node() else s.legal_actions()[seed % 2 - 1])
            steps += 1
            if any(s.last_faces):
                assert sum(s.last_faces) == s.last_roll and sorted(s.last_faces) != [6, 6]


def test_a_die_no_one_named_is_E0513_with_a_suggestion(tmp_path):
    _, diags = compile_text(tmp_path, SCENARIO.replace("die(red) > die(white)", "die(redd) > die(white)"))
    [d] = [d for d in diags if d.severity == "error"]
    assert d.code == "E0513" and "`redd`" in d.message and "red" in (d.help or "")


def test_reading_a_die_when_the_dice_have_no_names_says_how_to_name_them(tmp_path):
    text = SCENARIO.replace("    named red, white\n", "")
    _, diags = compile_text(tmp_path, text)
    codes = {d.code for d in diags if d.severity == "error"}
    assert codes == {"E0513"}
    assert all("named red, white" in (d.help or "") for d in diags if d.code == "E0513")


@pytest.mark.parametrize("named, message", [
    ("named red", "2 dice, but `named` names 1"),
    ("named red, red", "two dice are named `red`"),
    ("named red, 3", "one name per die"),
])
def test_named_must_name_every_die_once(tmp_path, named, message):
    _, diags = compile_text(tmp_path, SCENARIO.replace("named red, white", named))
    assert any(message in d.message for d in diags if d.severity == "error"), [d.message for d in diags]


def test_every_player_sees_the_faces_in_the_observation_and_its_tensor(game):
    from catandsl.engine.observer import Observer

    s = blank(game)
    act(s, RollFaces((2, 6)))
    obs = Observer(game)
    a, z = obs.slices["last_faces"]
    for p in range(game.num_players):
        assert s.observation(p)["last_faces"] == [2, 6]
        assert obs.tensor(s, p)[a:z] == [2.0, 6.0]
