"""`phase NAME between rolls { ... }`: with the dice rolled twice a turn (`rolls 2`), the
active player may take the phase's activities between one roll and the next, then asks
for the next roll; a player with nothing to do there rolls at once. Without such a phase
the next roll follows at once. From fixed positions on a small board of its own."""

from __future__ import annotations

import json

import pytest

import catandsl
from catandsl.checks import check_path
from catandsl.engine import actions as A
from tests.conftest import FIVE_HEX_ROWS, game_of

SCENARIO = """
scenario twice "Two rolls a turn" {
  uses base
  players 3
  dice 2d6 { rolls 2 distinct }
  action feast "Hold a feast" {
    cost grain
    on take { take_from_bank(player, wool, 1) }
  }
  turn {
    phase roll { roll; play }
    phase pause between rolls { play; feast }
    phase main { trade; build; buy; play; move }
  }
  map {""" + FIVE_HEX_ROWS + """    start robber on forest
  }
}
"""


@pytest.fixture(scope="module")
def game(tmp_path_factory):
    return game_of(tmp_path_factory, SCENARIO, name="twice")


@pytest.fixture(scope="module")
def at_once(tmp_path_factory):
    once = SCENARIO.replace("    phase pause between rolls { play; feast }\n", "")
    return game_of(tmp_path_factory, once, name="once")


def legal(s):
    return {s.game.actions[a] for a in s.legal_actions()}


def roll(s, total: int) -> None:
    """The dice come up `total` (asked for first where the player could do something else)."""
    if not s.is_chance_node():
        s.apply_action(A.RollDice())
    s.apply_action(A.Roll(total))


def start(game, **hand):
    """Seat 0 about to roll, a Knight in hand and these cards."""
    return catandsl.position(game).cards(0, held={"knight": 1}).hand(0, **hand).state()


def test_between_the_rolls_the_player_may_act_then_asks_for_the_next_roll(game):
    s = start(game, grain=1)
    roll(s, 6)
    assert not s.is_chance_node() and s.current_player() == 0
    assert legal(s) == {A.PlayCard("knight"), A.TakeAction("feast"), A.RollDice()}
    s.apply_action(A.TakeAction("feast"))
    assert s.hands[0][game.res_index["wool"]] == 1
    s.apply_action(A.RollDice())
    assert s.is_chance_node() and {game.actions[a].total for a, _ in s.chance_outcomes()} == set(range(2, 13)) - {6}
    s.apply_action(A.Roll(8))
    assert s.turn_rolls == [6, 8] and game.phases[s.phase].name == "main"
    assert A.TakeAction("feast") not in legal(s) and A.EndTurn() in legal(s)


def test_with_nothing_to_do_between_the_rolls_the_next_one_comes_at_once(game):
    s = catandsl.position(game).state()
    s.apply_action(A.Roll(6))
    assert s.is_chance_node()


def test_without_a_phase_between_the_next_roll_follows_at_once(at_once):
    s = start(at_once, grain=1)
    roll(s, 6)
    assert s.is_chance_node()


def test_the_first_roll_is_resolved_before_the_phase_between(game):
    s = start(game, grain=1, ore=8)
    roll(s, 7)
    assert A.RollDice() not in legal(s)  # the discards and the robber first
    while A.RollDice() not in legal(s):
        s.apply_action(s.legal_actions()[0])
    assert sum(s.hands[0]) <= 6 and not s.is_chance_node()


def test_the_phase_between_comes_once_a_turn_for_two_rolls(game):
    s = start(game)
    roll(s, 6)
    s.apply_action(A.PlayCard("knight"))
    s.apply_action(next(a for a in legal(s) if isinstance(a, A.Move)))
    assert s.is_chance_node()  # the card played, nothing left to do: the second roll
    s.apply_action(A.Roll(8))
    assert not s.is_chance_node() and game.phases[s.phase].name == "main"


def test_a_state_between_the_rolls_reads_back(game):
    s = start(game, grain=1)
    roll(s, 6)
    back = game.deserialize_state(s.serialize())
    assert back.legal_actions() == s.legal_actions() and back.turn_rolls == [6]
    data = json.loads(s.serialize())
    assert game.phases[data["phase"]].name == "pause"


def test_bots_play_whole_games_with_a_phase_between_the_rolls(game):
    from catandsl.players import GreedyPlayer, play_game

    state, _ = play_game(game, [GreedyPlayer(p) for p in range(3)])
    assert state.is_terminal()


@pytest.mark.parametrize("phase, message", [
    ("phase pause between rolls { roll; play }", "does not allow `roll`"),
    ("phase pause between rolls { play }\n    phase wait between rolls { feast }", "only one phase"),
    ("phase pause between dice { play }", "between rolls"),
])
def test_a_phase_between_rolls_that_cannot_be_is_located(tmp_path, phase, message):
    path = tmp_path / "bad.catan"
    path.write_text(SCENARIO.replace("phase pause between rolls { play; feast }", phase), encoding="utf-8")
    _, diags, _ = check_path(path)
    hits = [d for d in diags if d.code == "E0304" and message in d.message]
    assert hits and hits[0].span.line >= 12, [(d.code, d.message) for d in diags]
