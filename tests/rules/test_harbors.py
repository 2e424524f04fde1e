"""Harbors the players place (catandsl/rules/harbors.py): in the set-up
each player in turn draws a token at random and lays it on an empty spot; trade rates
follow what lies where; tokens are conserved; a placed harbor survives serialization."""

from __future__ import annotations

import json

import pytest

from catandsl.engine import IllegalAction, StateError
from catandsl.engine import actions as A
from catandsl.rules.harbors import HarborLookups, harbor_name
from catandsl.rules.trade import trade_rate
from tests.conftest import BEGINNER_ROWS, game_of
from tests.engine.helpers import BRICK, WOOL, act, legal

SCENARIO = '''
scenario "Harbors placed" {
  uses base
  setup {
    round forward { place harbor }
    round forward { place harbor }
    round forward { place settlement; place road touching last }
    round backward { place settlement; place road touching last; collect last }
  }
  map {''' + BEGINNER_ROWS + '''\
    harbors placed [3:1 x2, wool 2:1, brick 2:1] at [(0, -2) NW, (1, -2) NE, (2, -1) NE, (2, 0) E]
    start robber on desert
  }
}
'''


@pytest.fixture(scope="module")
def game(tmp_path_factory):
    return game_of(tmp_path_factory, SCENARIO, seed=5)


def test_the_board_leaves_the_spots_empty_and_the_tokens_in_a_supply(game):
    s = game.new_initial_state()
    t = game.lookups(HarborLookups)
    assert s.harbor_at == [-1] * 4
    assert sorted(harbor_name(k) for k, n in zip(t.types, s.harbor_supply) for _ in range(n)) == \
        ["3:1", "3:1", "brick 2:1", "wool 2:1"]


def test_players_draw_and_place_in_turn(game):
    s = game.new_initial_state()
    act(s, A.StartPlayer(0))
    placed_by = []
    while any(s.harbor_supply) or s.pending:
        assert s.is_chance_node()  # the draw: the tokens left, by their counts
        outcomes = dict(s.chance_outcomes())
        assert sum(outcomes.values()) == pytest.approx(1.0)
        s.apply_action(s.sample_chance())
        who = s.current_player()
        spots = legal(s)
        assert spots and all(isinstance(a, A.PlaceHarbor) for a in spots)
        assert len(spots) == s.harbor_at.count(-1)
        placed_by.append(who)
        act(s, spots[-1])
    assert placed_by == [0, 1, 2, 0]  # in turn, round after round, until none is left
    assert -1 not in s.harbor_at and not any(s.harbor_supply)
    assert s.stage == "setup" and isinstance(legal(s)[0], A.Build)  # the settlements follow
    back = game.deserialize_state(s.serialize())
    assert back == s


def test_a_placed_harbor_gives_its_rate(game):
    s = game.new_initial_state()
    t = game.lookups(HarborLookups)
    wool = next(k for k, x in enumerate(t.types) if harbor_name(x) == "wool 2:1")
    spot = 2  # the harbor spot on (2, -1) NE
    corner = game.board.path_ends[t.path_of_spot[spot]][0]
    s.harbor_at[spot] = wool
    s.harbor_supply[wool] -= 1
    s.corner_owner[corner], s.corner_piece[corner] = 0, game.piece_index["settlement"]
    s.placed[0][game.piece_index["settlement"]] += 1
    s.changed()
    assert trade_rate(s, 0, WOOL) == 2 and trade_rate(s, 0, BRICK) == 4


def test_a_spot_taken_or_a_token_conjured_is_refused(game):
    s = game.new_initial_state()
    act(s, A.StartPlayer(0))
    s.apply_action(s.sample_chance())
    taken = legal(s)[0]
    act(s, taken)
    s.apply_action(s.sample_chance())
    before = s.serialize()
    with pytest.raises(IllegalAction) as e:
        act(s, taken)
    assert e.value.code == "action/invalid_target" and s.serialize() == before
    data = json.loads(s.serialize())
    data["harbor_supply"][0] += 1
    with pytest.raises(StateError, match="harbor"):
        game.deserialize_state(json.dumps(data))


def test_more_spots_than_tokens_leave_the_players_a_choice(tmp_path_factory):
    """`harbors placed [...] at [...]` lists the spots a token may go on: at least one per
    token; the spots left over stay empty. Two tokens, four spots: each player who
    places one chooses among every empty spot."""
    g = game_of(tmp_path_factory, SCENARIO.replace("[3:1 x2, wool 2:1, brick 2:1]", "[3:1, wool 2:1]")
                .replace("    round forward { place harbor }\n    round forward { place harbor }\n",
                         "    round forward { place harbor }\n"), seed=5)
    s = g.new_initial_state()
    act(s, A.StartPlayer(0))
    offered = []
    while any(s.harbor_supply):
        s.apply_action(s.sample_chance())
        offered.append(len(legal(s)))
        act(s, legal(s)[0])
    assert offered == [4, 3]
    assert sorted(s.harbor_at).count(-1) == 2 and isinstance(legal(s)[0], A.Build)  # two stay empty
    # fewer spots than tokens is still E0413
    with pytest.raises(Exception, match="E0413"):
        game_of(tmp_path_factory, SCENARIO.replace(", (2, 0) E]", "]"))
