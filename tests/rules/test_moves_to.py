"""`moves_to where COND` on a neutral piece: where a mover may take it, judged when it
moves (`at` the destination, `player` the mover), with `players_around(at)` and the
measure filters `at_most` / `at_least`. A friendly robber on a small board."""

from __future__ import annotations

import pytest

import catandsl
from catandsl.checks import check_path
from catandsl.engine import actions as A
from catandsl.engine.errors import IllegalAction
from catandsl.rules.places import players_around
from catandsl.rules.standings import at_least, at_most
from tests.conftest import game_of

FRIENDLY = """
scenario friendly "Friendly robber" {
  uses base
  players 2
  measure shown public_points(player)
  piece robber {
    neutral
    on hex where land(at)
    blocks production
    steals from settlement, city
    moves_to where count(at_most(players_around(at), shown, 2)) == 0
  }
  map {
    rows \"\"\"
      f8  h5  m4
        w6  d
    \"\"\"
    legend { f forest; h hills; m mountains; w pasture; d desert }
    start robber on desert
  }
}
"""


@pytest.fixture(scope="module")
def game(tmp_path_factory):
    return game_of(tmp_path_factory, FRIENDLY, players=2)


def seven(game, *, city=False):
    """Seat 0 moves the robber after a 7. Seat 0 (2 points) has settlements on the
    forest's top and the desert's bottom; seat 1 on the mountains' top and the hills'
    bottom (hills, pasture, desert), the first a city when `city` (3 points)."""
    pos = catandsl.position(game)
    pos.place(0, "settlement", (0, 0, "N"))
    pos.place(0, "settlement", (1, 1, "S"))
    pos.place(1, "settlement", (1, 0, "S"))
    pos.place(1, "city" if city else "settlement", (2, 0, "N"))
    s = pos.turn(0, phase="roll").state()
    assert s.is_chance_node()  # nothing to do before the dice
    s.apply_action(A.Roll(7))
    return s


def destinations(game, s):
    """The hexes the robber may move to now, as (q, r)."""
    b = game.board
    acts = [game.actions[a] for a in s.legal_actions()]
    return sorted(tuple(b.hexes[a.at]) for a in acts if isinstance(a, A.Move))


def test_the_robber_keeps_off_every_hex_next_to_a_player_with_two_points_or_fewer(game):
    s = seven(game, city=True)
    assert s.current_player() == 0
    # the forest and the desert touch seat 0 (2 points); seat 1 has 3
    assert destinations(game, s) == [(0, 1), (1, 0), (2, 0)]


def test_a_refused_destination_names_the_condition_and_leaves_the_state_as_it_was(game):
    s = seven(game, city=True)
    before = s.serialize()
    forest = game.board.hex_id(0, 0)
    with pytest.raises(IllegalAction) as e:
        s.apply_action(A.Move("robber", forest))
    assert e.value.code == "action/invalid_target"
    assert "moves_to" in str(e.value)
    assert s.serialize() == before


def test_with_nowhere_to_go_the_move_lapses_and_the_robber_stays(game):
    s = seven(game, city=False)  # both seats at 2 points: every land hex touches one
    b = game.board
    assert not any(isinstance(game.actions[a], A.Move) for a in s.legal_actions())
    assert s.current_player() == 0 and not s.is_chance_node()
    robber = game.piece_index["robber"]
    assert b.hexes[s.neutral_at[robber]] == (1, 1)  # still on the desert


def test_the_condition_is_judged_at_the_time_of_the_move(game):
    # the same board; the first position refuses the mountains' hex, the second allows it
    low = seven(game, city=False)
    high = seven(game, city=True)
    mountains = (2, 0)
    assert mountains not in destinations(game, low) and mountains in destinations(game, high)


def test_players_around_and_the_measure_filters(game):
    s = seven(game, city=True)
    b = game.board
    assert players_around(s, ["h", b.hex_id(1, 1)]) == [0, 1]   # the desert
    assert players_around(s, ["h", b.hex_id(2, 0)]) == [1]
    assert players_around(s, ["i", b.intersection_id(0, 0, "N")]) == [0]
    assert players_around(s, ["p", b.path_id(0, 0, "NE")]) == [0]
    assert at_most(s, [0, 1], "shown", 2) == [0]
    assert at_least(s, [1, 0, 1], "shown", 3) == [1]


def test_moves_to_on_a_players_piece_is_an_error(tmp_path):
    path = tmp_path / "bad.catan"
    path.write_text(FRIENDLY.replace("piece robber {\n    neutral\n", "piece robber {\n"), encoding="utf-8")
    _, diags, _ = check_path(path)
    assert any(d.code == "E0304" and "moves_to" in d.message for d in diags), diags
