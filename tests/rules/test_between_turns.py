"""`phase NAME between turns { ... }`: once a turn ends, each other player in turn order
(from the active player's left) may take the phase's activities, then passes; a player
with nothing to do there is skipped; then the next turn starts. From fixed positions on a
small board."""

from __future__ import annotations

import json

import pytest

import catandsl
from catandsl.checks import check_path
from catandsl.engine import actions as A
from catandsl.engine.errors import IllegalAction, StateError
from tests.conftest import FIVE_HEX_ROWS, game_of

SCENARIO = """
scenario between "Building between turns" {
  uses base
  players 3
  turn {
    phase roll { roll; play }
    phase main { trade; build; buy; play; move }
    phase special_build between turns { build; buy; trade bank }
  }
  rule payday {                     # the turn's own hooks run before the phase between turns
    on turn_ended { take_from_bank(left_of(player), brick, 1) }
  }
  map {""" + FIVE_HEX_ROWS + """  }
}
"""


@pytest.fixture(scope="module")
def game(tmp_path_factory):
    return game_of(tmp_path_factory, SCENARIO)


def ended(game, *, lumber=1):
    """Seat 0 has ended its turn. Seat 1 has a settlement, `lumber` lumber and no brick
    (the turn's hook gives it one); seat 2 has a settlement and nothing in hand."""
    pos = catandsl.position(game)
    pos.place(0, "settlement", (0, 0, "N"))
    pos.place(1, "settlement", (1, 0, "N"))
    pos.place(2, "settlement", (2, 0, "N"))
    pos.hand(1, lumber=lumber)
    s = pos.turn(0, phase="main", rolled=True).state()
    s.apply_action(A.EndTurn())
    return s


def kinds(game, s):
    return sorted({type(game.actions[a]).__name__ for a in s.legal_actions()})


def test_the_next_player_builds_between_turns_after_the_turns_own_hooks(game):
    s = ended(game)
    assert s.current_player() == 1 and s.turn_player == 0
    brick = game.res_index["brick"]
    assert s.hands[1][brick] == 1  # the turn_ended hook ran first
    assert kinds(game, s) == ["Build", "Pass"]  # no dice, no card played, no offers
    road = next(a for a in s.legal_actions() if isinstance(game.actions[a], A.Build))
    s.apply_action(road)
    assert s.placed[1][game.piece_index["road"]] == 1 and s.hands[1] == [0] * len(game.resources)


def test_a_player_with_nothing_to_do_is_skipped_and_the_next_turn_follows(game):
    s = ended(game, lumber=0)  # seat 1 has a brick only, seat 2 nothing: nobody can build
    assert s.turn_player == 1 and s.is_chance_node()  # seat 1's turn, at the dice


def test_pass_hands_the_phase_on_and_then_the_next_turn_starts(game):
    s = ended(game)
    s.apply_action(A.Pass())
    # seat 2 can do nothing: skipped; seat 1's own turn starts at the dice
    assert s.turn_player == 1 and s.turns == 2 and s.is_chance_node()
    assert s.placed[1][game.piece_index["road"]] == 0


def test_what_the_phase_does_not_allow_is_refused_and_the_state_is_unchanged(game):
    s = ended(game)
    before = s.serialize()
    with pytest.raises(IllegalAction) as e:
        s.apply_action(A.EndTurn())
    assert e.value.code == "action/not_legal"
    with pytest.raises(IllegalAction) as e:
        s.apply_action(A.Pass(), player=2)
    assert e.value.code == "action/not_your_turn"
    assert s.serialize() == before


def test_the_phase_between_turns_survives_serialization_and_is_checked_on_load(game):
    s = ended(game)
    text = s.serialize()
    back = game.deserialize_state(text)
    assert back.current_player() == 1 and back.legal_actions() == s.legal_actions()
    data = json.loads(text)
    prompt = next(p for p in data["pending"] if p["kind"] == "between_turns")
    prompt["players"] = [7]
    with pytest.raises(StateError):
        game.deserialize_state(json.dumps(data))


def test_bots_play_a_whole_game_with_a_phase_between_turns(game):
    from catandsl.players import GreedyPlayer, play_game

    state, log = play_game(game, [GreedyPlayer(p) for p in range(3)], log=True)
    assert state.is_terminal()
    assert any(e["text"].endswith("between turns") for e in log)


@pytest.mark.parametrize("phase, message", [
    ("phase extra between turns { roll }", "may not `roll`"),
    ("phase extra between turns { build; play }", "may not `play`"),
    ("phase extra between turns { trade }", "with the bank only"),
    ("phase extra between { build }", "between turns"),
    ("phase extra between turns { build }\n    phase more between turns { buy }", "only one phase"),
])
def test_a_phase_between_turns_that_cannot_be_is_located(tmp_path, phase, message):
    path = tmp_path / "bad.catan"
    path.write_text(SCENARIO.replace("phase special_build between turns { build; buy; trade bank }", phase),
                    encoding="utf-8")
    _, diags, _ = check_path(path)
    hits = [d for d in diags if d.code == "E0304" and message in d.message]
    assert hits and hits[0].span.line >= 6, [(d.code, d.message) for d in diags]
