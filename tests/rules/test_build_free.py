"""`build_free` with nowhere to build (catandsl/rules/placement.py, Interpreter.unable):
a card whose rule places a piece for free, or a scenario's action that does, is refused
before anything is spent when no piece of those kinds can be placed (a travelling piece
already on the board, no building to put it at, no free road spot), with a typed
reason; where one can be placed it is played as before."""

from __future__ import annotations

import pytest

import catandsl
from catandsl.engine import IllegalAction
from catandsl.engine.actions import Build, PlayCard
from catandsl.rules.custom import TakeAction
from tests.conftest import BEGINNER_ROWS, game_of

SCENARIO = '''
scenario "Free wagons" {
  uses base
  piece wagon {
    on path where land(at)
    limit 1
    travels {
      points 4
      step_cost 1
    }
  }
  deck wagons {
    cost ore
    play 1 per turn
    card new_wagon 4 { on play { build_free(player, [wagon], 1) } }
  }
  action hire "A wagon for a grain" {
    cost grain
    on take { build_free(player, [wagon], 1) }
  }
  turn {
    phase roll { roll; play }
    phase main { trade; build; buy; play; hire; travel }
  }
  map {''' + BEGINNER_ROWS + '''    start robber on desert
  }
}
'''


@pytest.fixture(scope="module")
def game(tmp_path_factory):
    return game_of(tmp_path_factory, SCENARIO)


def at_home(game, **edits):
    """Player 0 in the main phase with a settlement, its road, two wagon cards and a grain."""
    corner = game.board.intersection_id(0, 0, "N")
    road = game.board.corner_paths[corner][0]
    pos = catandsl.position(game).place(0, "settlement", corner).place(0, "road", road)
    for name, args in edits.items():
        getattr(pos, name)(*args)
    return pos.cards(0, held={"new_wagon": 2}).hand(0, grain=1).turn(0, phase="main").state()


def legal(state):
    return [state.game.actions[a] for a in state.legal_actions()]


def test_a_free_wagon_is_played_where_one_can_stand(game):
    s = at_home(game)
    assert PlayCard("new_wagon") in legal(s)
    s.apply_action(game.action_id[PlayCard("new_wagon")])
    build = next(a for a in legal(s) if isinstance(a, Build))
    s.apply_action(game.action_id[build])
    assert [e[:3] for e in s.travellers] == [(0, game.piece_index["wagon"], build.at)]
    assert s.cards[0][game.card_index["new_wagon"]] == 1


@pytest.mark.parametrize("where", ["wagon on the board", "no building"])
def test_nowhere_for_the_wagon_refuses_the_card_and_the_action_before_anything_is_spent(game, where):
    if where == "wagon on the board":  # its one wagon (limit 1) already stands
        s = at_home(game, place=(0, "wagon", game.board.corner_paths[game.board.intersection_id(0, 0, "N")][0]))
    else:  # a wagon goes on a path at an own building: player 0 has none
        s = catandsl.position(game).cards(0, held={"new_wagon": 2}).hand(0, grain=1).turn(0, phase="main").state()
    assert PlayCard("new_wagon") not in legal(s) and TakeAction("hire") not in legal(s)
    before = s.serialize()
    with pytest.raises(IllegalAction) as refused:
        s.apply_action(game.action_id[PlayCard("new_wagon")])
    assert refused.value.code == "action/not_legal"
    assert refused.value.message == "play_card new_wagon: no wagon can be placed"
    with pytest.raises(IllegalAction) as refused:
        s.apply_action(game.action_id[TakeAction("hire")])
    assert (refused.value.code, refused.value.message) == (
        "action/not_legal", "take_action hire: no wagon can be placed")
    assert s.serialize() == before  # the cards and the grain are still held


def test_road_building_with_no_road_to_place_stays_in_the_hand(game):
    """The same holds for any piece: the base game's Road Building when no road joins the
    player's pieces."""
    s = catandsl.position(game).cards(0, held={"road_building": 1}).turn(0, phase="main").state()
    assert PlayCard("road_building") not in legal(s)  # no building, so no road joins one
    with pytest.raises(IllegalAction, match="play_card road_building: no road can be placed"):
        s.apply_action(game.action_id[PlayCard("road_building")])
