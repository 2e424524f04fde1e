"""Pieces that travel path by path with points (catandsl/rules/travel.py): the points of
a turn, step costs, `enter` and `stop` (a stopped piece stays stopped for the turn),
points added by an action, unused points lost, travellers placed in the set-up,
serialization, and random games that keep the piece counts."""

from __future__ import annotations

import json
import random

import pytest

import catandsl
from catandsl.engine import IllegalAction, StateError
from catandsl.rules.play import Traveller
from catandsl.rules.travel import (
    STOPPED,
    Travel,
    add_travel_points,
    restart_travel,
    stopped_this_turn,
    travel_points,
)
from tests.conftest import BEGINNER_ROWS, game_of
from tests.engine.helpers import GRAIN, act, blank, give, legal, put, to_main

SCENARIO = '''
scenario "Wagons" {
  uses base
  token gold { supply 40 }
  token level { supply 20 }
  piece wagon {
    on path where land(at)
    limit 1
    travels {
      points nth([4, 5, 6, 7, 7], tokens(player, level))
      step_cost sum_of([if_else(occupied(at), 1, 2), if_else(travellers_on(at) > 0, 1, 0)])
      enter where not occupied(at) or owner(at) == player or tokens(player, gold) > 0
      stop where travellers_on(at) > 1
    }
  }
  rule toll {
    on traveled(wagon) if occupied(at) and owner(at) != player {
      give_tokens(owner(at), gold, 1)
    }
  }
  action boost "Boost" {
    cost grain
    on take { add_travel_points(player, wagon, 2) }
  }
  setup {
    round forward { place settlement; place road touching last; place wagon touching last }
    round backward { place settlement; place road touching last; collect last }
  }
  turn {
    phase roll { roll; play }
    phase main { trade; build; buy; play; boost }
    phase move { travel }
  }
  map {''' + BEGINNER_ROWS + '''    start robber on desert
  }
}
'''


@pytest.fixture(scope="module")
def game(tmp_path_factory):
    return game_of(tmp_path_factory, SCENARIO)


def _path(g, q, r, side):
    return g.board.path_index[(q, r, side)]


def _start(g, at: int):
    """Turn 1, player 0 in the main phase, player 0's wagon on path `at`."""
    s = blank(g)
    s.travellers = [Traveller(0, g.piece_index["wagon"], at, 0, -1, -1)]
    s.placed[0][g.piece_index["wagon"]] = 1
    s.changed()
    to_main(s, 8)
    return s


def _steps(s):
    return sorted((a.at, a.to) for a in legal(s) if isinstance(a, Travel))


def _chain(g):
    """Three paths in a row on land: a, b (sharing an end with a), c (sharing the other
    end of b), with a, c not adjacent."""
    b = g.board
    wagon = g.pieces[g.piece_index["wagon"]]
    for a in wagon.allowed:
        for end in b.path_ends[a]:
            for x in b.corner_paths[end]:
                if x == a or x not in wagon.allowed_set:
                    continue
                far = [c for c in b.path_ends[x] if c != end][0]
                for y in b.corner_paths[far]:
                    if y != x and y in wagon.allowed_set and not set(b.path_ends[y]) & set(b.path_ends[a]):
                        return a, x, y
    raise AssertionError("no three paths in a row")


def test_a_turns_points_pay_steps_of_two_on_empty_paths_and_one_on_own_roads(game):
    a, b, c = _chain(game)
    s = _start(game, a)
    assert (a, b) in _steps(s)
    act(s, Travel("wagon", a, b))
    assert (s.travellers[0].path, s.travellers[0].left) == (b, 2)
    assert game.phases[s.phase].name == "move"  # travelling moved the turn on: no more building
    put(s, 0, "road", c)
    act(s, Travel("wagon", b, c))  # own road: 1
    assert s.travellers[0].left == 1
    assert _steps(s) == []  # 1 point left; every path around costs 2
    before = s.serialize()
    with pytest.raises(IllegalAction) as refused:
        act(s, Travel("wagon", c, b))  # no road on b: 2 points, 1 left
    assert refused.value.code == "action/cannot_afford" and s.serialize() == before


def test_a_step_between_paths_that_do_not_touch_says_so(game):
    """A step named by its paths (not its id) that the game cannot take says why: the paths
    share no end, or there is no such path."""
    a, _, c = _chain(game)
    s = _start(game, a)
    before = s.serialize()
    with pytest.raises(IllegalAction) as refused:
        s.apply_action(Travel("wagon", a, c))
    assert refused.value.code == "action/invalid_target" and s.serialize() == before
    assert "share no intersection" in str(refused.value) and "never stands" not in str(refused.value)
    with pytest.raises(IllegalAction) as refused:
        s.apply_action(Travel("wagon", a, len(game.board.paths)))
    assert "no path" in str(refused.value)


def test_another_players_road_needs_gold_and_pays_its_owner(game):
    a, b, _ = _chain(game)
    s = _start(game, a)
    put(s, 1, "road", b)
    assert (a, b) not in _steps(s)  # no gold: may not enter
    with pytest.raises(IllegalAction) as refused:
        act(s, Travel("wagon", a, b))
    assert refused.value.code == "action/invalid_target"
    gold = game.token_index["gold"]
    s.tokens_held[0][gold] = 1
    s.token_supply[gold] -= 1
    s.changed()
    act(s, Travel("wagon", a, b))
    assert s.travellers[0].left == 3 and s.tokens_held[1][gold] == 1  # 1 point, the toll to its owner


def test_an_action_adds_points_for_this_turn_and_unused_points_are_lost(game):
    a, b, _ = _chain(game)
    s = _start(game, a)
    give(s, 0, 0, 0, 0, 1, 0)
    act(s, next(x for x in legal(s) if getattr(x, "action", None) == "boost"))
    wagon = s.travellers[0]
    assert (wagon.left, wagon.turn, wagon.moved) == (6, s.turns, -1) and s.hands[0][GRAIN] == 0  # points, not a step
    act(s, Travel("wagon", a, b))
    assert s.travellers[0].left == 4
    for _ in range(3):  # every player's turn passes: the next turn starts afresh
        act(s, next(x for x in legal(s) if x.KIND == "end_turn"))
        to_main(s, 8)
    assert s.turn_player == 0
    assert travel_points(s, 0, "wagon") == 4


def test_stepping_onto_a_path_where_stop_holds_ends_the_travel_for_the_turn(game):
    a, b, c = _chain(game)
    s = _start(game, a)
    s.travellers.append(Traveller(1, game.piece_index["wagon"], b, 0, -1, -1))
    s.placed[1][game.piece_index["wagon"]] = 1
    s.changed()
    act(s, Travel("wagon", a, b))  # 2 for the path and 1 for the wagon on it; two there: stop
    assert s.travellers[0].left == STOPPED and not _steps(s)
    with pytest.raises(IllegalAction) as refused:
        act(s, Travel("wagon", b, c))
    assert refused.value.code == "action/not_legal"


def test_a_stopped_piece_stays_stopped_until_the_next_turn(game):
    """`stopped_this_turn` holds once `stop where` held, and neither `add_travel_points`
    nor `restart_travel` moves the piece on; a piece that merely spent its points is not
    stopped, and restarts."""
    a, b, c = _chain(game)
    s = _start(game, a)
    act(s, Travel("wagon", a, b))
    act(s, Travel("wagon", b, c))
    assert travel_points(s, 0, "wagon") == 0 and not stopped_this_turn(s, 0, "wagon")
    restart_travel(s, 0, "wagon")
    assert travel_points(s, 0, "wagon") == 4  # spent, not stopped: a second journey
    s = _start(game, a)
    s.travellers.append(Traveller(1, game.piece_index["wagon"], b, 0, -1, -1))
    s.placed[1][game.piece_index["wagon"]] = 1
    s.changed()
    act(s, Travel("wagon", a, b))  # two wagons there: stop
    assert stopped_this_turn(s, 0, "wagon") and not stopped_this_turn(s, 1, "wagon")
    add_travel_points(s, 0, "wagon", 2)
    restart_travel(s, 0, "wagon")
    assert stopped_this_turn(s, 0, "wagon") and travel_points(s, 0, "wagon") == 0 and not _steps(s)
    for _ in range(3):  # the next turn of player 0: it travels again
        act(s, next(x for x in legal(s) if x.KIND == "end_turn"))
        to_main(s, 8)
    assert not stopped_this_turn(s, 0, "wagon") and travel_points(s, 0, "wagon") == 4


def test_the_set_up_places_a_wagon_at_the_players_last_building(game):
    s = game.new_initial_state()
    act(s, catandsl.engine.actions.StartPlayer(0))
    act(s, legal(s)[0])  # settlement
    act(s, legal(s)[0])  # road
    corner = s.last_corner[0]
    spots = [x for x in legal(s) if x.KIND == "build" and x.piece == "wagon"]
    assert spots and all(corner in game.board.path_ends[x.at] for x in spots)
    road = s.last_path[0]
    assert any(x.at == road for x in spots)  # beside the road just built
    act(s, spots[0])
    assert [e[:3] for e in s.travellers] == [(0, game.piece_index["wagon"], spots[0].at)]


def test_travellers_serialize_and_a_tampered_one_is_refused(game):
    a, b, _ = _chain(game)
    s = _start(game, a)
    act(s, Travel("wagon", a, b))
    back = game.deserialize_state(s.serialize())
    assert back == s
    data = json.loads(s.serialize())
    data["travellers"][0][1] = game.piece_index["road"]
    with pytest.raises(StateError):
        game.deserialize_state(json.dumps(data))


@pytest.mark.parametrize("seed", range(6))
def test_random_games_keep_the_piece_counts(game, seed):
    rng = random.Random(seed)
    s = game.new_initial_state()
    for _ in range(3000):
        if s.is_terminal():
            break
        if s.is_chance_node():
            s.apply_action(s.sample_chance())
        else:
            s.apply_action(rng.choice(s.legal_actions()))
        for e in s.travellers:
            assert e.path in game.pieces[e.piece].allowed_set
    game.deserialize_state(s.serialize())  # validates piece counts, travellers and all
    assert len(s.travellers) == 3
