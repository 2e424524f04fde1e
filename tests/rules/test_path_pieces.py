"""Several neutral pieces of one kind, standing on paths (catandsl/rules/neutral.py):
`count`, `on path`, starts on paths, one piece of a kind per path, `blocks road`,
`steals from road`, moving one of them with Move(piece, at, src), the state's slots,
and drawing them. From a small fixed map with forced dice."""

from __future__ import annotations

import json
import random

import pytest

import catandsl
from catandsl.checks import check_path
from catandsl.engine import IllegalAction, StateError
from catandsl.engine import actions as A
from catandsl.render.state_svg import render_map, render_state
from catandsl.rules import neutral
from catandsl.rules.neutral import Moving, Robbing, Stealing
from tests.conftest import scenario_of
from tests.engine.helpers import act, blank, give, legal, put, to_main

SCENARIO = """
scenario paths "Pieces on paths" {
  uses base
  without robber
  turn_limit 40
  piece barbarian {
    neutral
    count 3
    on path where land(at)
    blocks road
    steals from road
  }
  rule seven {
    on dice_rolled if roll == 7 {
      discard_half(7)
      move_piece(player, [barbarian])
    }
  }
  deck development {
    cost ore + wool + grain
    play 1 per turn, not the turn bought
    card knight 14 { on play { move_piece(player, [barbarian]) } }
    card victory_point 5 { points 1; hidden }
  }
  map {
    rows \"\"\"
      f8  h5  p4
        m6  g3
    \"\"\"
    legend { f forest; h hills; p pasture; m mountains; g fields }
    start barbarian at [(0, 0) E, (1, 0) SE, (0, 1) W]
  }
}
"""

BRICK, LUMBER, WOOL, GRAIN, ORE = range(5)


@pytest.fixture(scope="module")
def scenario(tmp_path_factory):
    return scenario_of(tmp_path_factory, SCENARIO)


@pytest.fixture(scope="module")
def g(scenario):
    return catandsl.new_game(scenario, 3, {}, 1)


def path(g, q, r, side):
    return g.board.path_id(q, r, side)


def barbarians(s):
    return neutral.sites_of(s, s.game.piece_index["barbarian"])


def starts(g):
    return sorted(path(g, *p) for p in ((0, 0, "E"), (1, 0, "SE"), (0, 1, "W")))


# ---- the map's start and the state ---------------------------------------------------------


def test_the_pieces_start_on_their_paths_one_slot_each(g):
    pi = g.piece_index["barbarian"]
    assert g.pieces[pi].count == 3 and g.pieces[pi].site == "path"
    assert len(g.neutral_slots[pi]) == 3 and g.neutral_slots[pi][0] == pi  # the first at its kind
    s = g.new_initial_state()
    assert barbarians(s) == starts(g)
    assert len(s.neutral_at) == len(g.pieces) + 2  # two more pieces after the kinds


def test_the_start_sites_are_on_the_board(g):
    assert g.board.start_sites["barbarian"] == tuple(
        g.board.path_id(q, r, side) for q, r, side in ((0, 0, "E"), (1, 0, "SE"), (0, 1, "W")))
    assert "start_sites" in g.board.to_json()


# ---- blocking ---------------------------------------------------------------------------------


def test_no_road_under_a_piece_and_the_state_is_unchanged(g):
    s = blank(g)
    a = path(g, 0, 0, "E")  # a barbarian stands here
    end = g.board.path_ends[a][0]
    put(s, 0, "settlement", end)
    give(s, 0, 2, 2, 0, 0, 0)
    to_main(s, 4)
    assert A.Build("road", a) not in legal(s)
    free = [x for x in g.board.corner_paths[end] if x != a and x in g.pieces[0].allowed_set]
    assert free and all(A.Build("road", x) in legal(s) for x in free)  # beside it: allowed
    before = s.serialize()
    with pytest.raises(IllegalAction) as e:
        act(s, A.Build("road", a))
    assert e.value.code == "action/invalid_target" and "barbarian" in e.value.message
    assert s.serialize() == before


def test_a_road_already_there_stays(g):
    s = blank(g)
    d = path(g, 1, 0, "E")
    put(s, 1, "road", d)
    act(s, A.Roll(7))
    src = starts(g)[0]
    act(s, A.Move("barbarian", d, src))
    assert s.path_owner[d] == 1 and s.path_piece[d] == g.piece_index["road"]
    assert d in barbarians(s)


# ---- moving one of them ------------------------------------------------------------------------


def test_a_seven_moves_one_piece_and_steals_from_the_road_owner(g):
    s = blank(g)
    d = path(g, 1, 0, "E")  # between the hills and the pasture
    put(s, 1, "settlement", g.board.path_ends[d][0])
    put(s, 1, "road", d)
    give(s, 1, 0, 0, 2, 0, 0)  # two wool
    act(s, A.Roll(7))
    assert isinstance(s.top(), Moving) and s.current_player() == 0
    moves = legal(s)
    assert moves and all(isinstance(m, A.Move) and m.piece == "barbarian" for m in moves)
    here = starts(g)
    # every move lifts a piece that stands somewhere and puts it on a free path
    assert {m.src for m in moves} == set(here)
    assert all(m.at not in here for m in moves)
    free = [k for k in g.pieces[g.piece_index["barbarian"]].allowed if k not in here]
    assert len(moves) == 3 * len(free)
    act(s, A.Move("barbarian", d, here[1]))
    assert barbarians(s) == sorted([here[0], here[2], d])  # only that one moved
    assert [g.actions[a] for a in s.legal_actions()] == [A.Steal(1)]
    act(s, A.Steal(1))
    assert isinstance(s.top(), Robbing) and s.is_chance_node()
    assert {g.actions[a] for a, _ in s.chance_outcomes()} == {A.Stolen("wool")}
    act(s, A.Stolen("wool"))
    assert s.hands[0][WOOL] == 1 and s.hands[1][WOOL] == 1


def test_no_steal_from_an_own_road_or_an_empty_path(g):
    s = blank(g)
    d = path(g, 1, 0, "E")
    put(s, 0, "road", d)
    give(s, 0, 0, 0, 1, 0, 0)
    act(s, A.Roll(7))
    act(s, A.Move("barbarian", d, starts(g)[0]))
    assert not s.pending and A.EndTurn() in legal(s)  # own road: nobody to rob


def test_a_knight_moves_one_piece_and_steals(g):
    s = blank(g)
    d = path(g, 2, 0, "SW")  # between the pasture and the fields
    put(s, 2, "road", d)
    give(s, 2, 0, 0, 0, 0, 1)
    k = g.card_index["knight"]
    s.cards[0][k] = 1
    s.deck[k] -= 1
    s.changed()
    act(s, A.PlayCard("knight"))  # before the roll
    assert isinstance(s.top(), Moving)
    src = starts(g)[2]
    act(s, A.Move("barbarian", d, src))
    assert isinstance(s.top(), Stealing)
    act(s, A.Steal(2))
    act(s, A.Stolen("ore"))
    assert s.hands[0][ORE] == 1 and s.hands[2][ORE] == 0
    assert src not in barbarians(s) and d in barbarians(s)
    assert s.is_chance_node()  # now the dice


def test_no_two_on_one_path(g):
    s = blank(g)
    act(s, A.Roll(7))
    here = starts(g)
    moves = legal(s)
    assert not any(m.at in here for m in moves)
    before = s.serialize()
    with pytest.raises(IllegalAction) as e:
        act(s, A.Move("barbarian", here[0], here[1]))  # onto another barbarian
    assert e.value.code == "action/invalid_target" and "already stands there" in e.value.message
    assert s.serialize() == before
    free = next(m.at for m in moves)
    elsewhere = next(k for k in g.pieces[g.piece_index["barbarian"]].allowed if k not in here and k != free)
    with pytest.raises(IllegalAction) as e:
        act(s, A.Move("barbarian", free, elsewhere))  # lifts a piece that is not there
    assert e.value.code == "action/invalid_target" and "no barbarian stands there" in e.value.message
    assert s.serialize() == before


def test_the_action_names_the_piece_it_lifts(g):
    here = starts(g)
    to = path(g, 1, 0, "E")
    text = g.action_to_string(g.action_id[A.Move("barbarian", to, here[0])])
    assert text == f"move barbarian from {g.location_name('path', here[0])} at {g.location_name('path', to)}"
    assert A.action_from_json({"kind": "move", "piece": "barbarian", "at": to, "src": here[0]}) == \
        A.Move("barbarian", to, here[0])
    assert A.action_from_json({"kind": "move", "piece": "robber", "at": 3}) == A.Move("robber", 3)


# ---- serialization -------------------------------------------------------------------------------


def test_serialization_round_trip_and_validation(g):
    s = blank(g)
    act(s, A.Roll(7))
    act(s, A.Move("barbarian", path(g, 1, 0, "E"), starts(g)[0]))
    text = s.serialize()
    back = g.deserialize_state(text)
    assert back.serialize() == text and neutral.sites_of(back, g.piece_index["barbarian"]) == barbarians(s)
    slots = g.neutral_slots[g.piece_index["barbarian"]]
    for broken in (
        lambda d: d["neutral_at"].__setitem__(slots[1], d["neutral_at"][slots[0]]),  # two on one path
        lambda d: d["neutral_at"].reverse(),  # out of order
        lambda d: d["neutral_at"].pop(),  # a piece missing
        lambda d: d["neutral_at"].__setitem__(slots[0], 10_000),  # not a path
        lambda d: d["neutral_at"].__setitem__(0, 1),  # a player's kind on the board
    ):
        data = json.loads(text)
        broken(data)
        with pytest.raises(StateError):
            g.deserialize_state(json.dumps(data))


# ---- random games --------------------------------------------------------------------------------


def test_random_games_keep_at_most_one_per_path(g):
    pi = g.piece_index["barbarian"]
    moved = 0
    for seed in range(6):
        rng = random.Random(seed)
        s = g.new_initial_state()
        while not s.is_terminal():
            if s.is_chance_node():
                ids, ps = zip(*s.chance_outcomes())
                a = rng.choices(ids, ps)[0]
            else:
                a = rng.choice(s.legal_actions())
            moved += isinstance(g.actions[a], A.Move)
            s.apply_action(a)
            here = neutral.sites_of(s, pi)
            assert len(set(here)) == 3 and all(k >= 0 for k in here)
            assert here == sorted(here)
        assert g.deserialize_state(s.serialize()).serialize() == s.serialize()
    assert moved > 0


# ---- drawing -------------------------------------------------------------------------------------


def test_render_draws_the_pieces_on_their_paths(g):
    s = blank(g)
    svg = render_state(g, s)
    drawn = sorted(int(x.split('"')[0]) for x in svg.split('class="piece barbarian neutral" data-piece="barbarian" '
                                                           'data-owner="-1" data-at="')[1:])
    assert drawn == starts(g)
    svg = render_map(g.board, g.ruleset)
    assert svg.count('class="piece barbarian neutral"') == 3 and "off the board" not in svg


# ---- the language's checks -------------------------------------------------------------------------


def _check(tmp_path, piece: str, start: str):
    text = SCENARIO.replace("""  piece barbarian {
    neutral
    count 3
    on path where land(at)
    blocks road
    steals from road
  }""", piece).replace("start barbarian at [(0, 0) E, (1, 0) SE, (0, 1) W]", start)
    p = tmp_path / "x.catan"
    p.write_text(text, encoding="utf-8")
    _, diags, _ = check_path(p)
    return [(d.code, d.message) for d in diags]


def test_checks_of_counts_and_starts(tmp_path):
    on_path = "  piece barbarian { neutral; count 2; on path }"
    assert _check(tmp_path, on_path, "start barbarian at [(0, 0) E, (1, 0) SE]") == []
    assert _check(tmp_path, on_path, "start barbarian off board") == []
    codes = _check(tmp_path, on_path, "start barbarian at (0, 0)")
    assert [c for c, _ in codes] == ["E0411"] and "stands on paths" in codes[0][1]
    codes = _check(tmp_path, "  piece barbarian { neutral; on hex }", "start barbarian at (0, 0) E")
    assert [c for c, _ in codes] == ["E0411"]
    assert [c for c, _ in _check(tmp_path, on_path, "start barbarian at (0, 0) E")] == ["E0430"]
    assert [c for c, _ in _check(tmp_path, on_path, "start barbarian at [(0, 0) E, (1, 0) W]")] == ["E0431"]
    assert [c for c, _ in _check(tmp_path, on_path, "start barbarian at [(0, 0) E, (0, 0) up]")] == ["E0405"]
    codes = _check(tmp_path, "  piece barbarian { count 2; on path }", "start barbarian off board")
    assert "E0304" in [c for c, _ in codes]
    codes = _check(tmp_path, "  piece barbarian { neutral; on intersection }", "start barbarian off board")
    assert "E0304" in [c for c, _ in codes]
    codes = _check(tmp_path, "  piece barbarian { neutral; on path; blocks production }", "start barbarian off board")
    assert "E0304" in [c for c, _ in codes]


def test_pieces_off_the_board_enter_one_at_a_time(scenario, tmp_path):
    p = tmp_path / "off.catan"
    p.write_text(SCENARIO.replace("start barbarian at [(0, 0) E, (1, 0) SE, (0, 1) W]",
                                  "start barbarian off board"), encoding="utf-8")
    g = catandsl.new_game(catandsl.load(p), 3, {}, 1)
    s = blank(g)
    assert barbarians(s) == [-1, -1, -1]
    act(s, A.Roll(7))
    moves = legal(s)
    assert {m.src for m in moves} == {-1}  # which of the three does not matter
    act(s, moves[0])
    assert barbarians(s) == [-1, -1, moves[0].at]
    assert "off the board" in render_map(g.board, g.ruleset)
