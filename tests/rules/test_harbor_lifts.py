"""A harbor lifted off the board by a rule (catandsl/rules/harbor_lifts.py): the token
goes back to the supply, its spot is empty again, and `place_harbor` lays it anew."""

from __future__ import annotations

import pytest

from catandsl.engine import actions as A
from catandsl.rules.base import location
from catandsl.rules.harbor_lifts import lift_harbor
from catandsl.rules.harbors import HarborLookups
from tests.conftest import BEGINNER_ROWS, compile_text, game_of, played_to_first_roll
from tests.engine.soundness import check_cheap

SCENARIO = '''
scenario "Storm" {
  uses base
  rule storm {
    on dice_rolled(12) {
      for x in [(0, -2) NW, (1, -2) NE, (2, -1) NE, (2, 0) E] { lift_harbor(x) }
      place_harbor(player)
    }
  }
  setup {
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
def ready(tmp_path_factory):
    game = game_of(tmp_path_factory, SCENARIO, seed=5)
    return game, played_to_first_roll(game)


def test_lifted_harbors_go_back_to_the_supply_and_one_is_laid_anew(ready):
    game, s0 = ready
    s = s0.clone()
    assert sorted(s.harbor_at).count(-1) == 1 and sum(s.harbor_supply) == 1  # three laid, one left
    s.apply_action(game.action_id[A.Roll(12)])
    assert s.harbor_at == [-1, -1, -1, -1] and sum(s.harbor_supply) == 4
    assert s.is_chance_node()  # place_harbor draws a token, then the roller lays it
    s.apply_action(s.sample_chance())
    assert len(s.legal_actions()) == 4  # every spot is empty again
    s.apply_action(s.legal_actions()[0])
    assert sorted(s.harbor_at).count(-1) == 3 and sum(s.harbor_supply) == 3
    check_cheap(s)


def test_an_empty_spot_and_a_path_off_the_spots_stay(ready):
    game, s0 = ready
    s = s0.clone()
    t = game.lookups(HarborLookups)
    before = (list(s.harbor_at), list(s.harbor_supply))
    empty = s.harbor_at.index(-1)
    lift_harbor(s, location("path", t.path_of_spot[empty]))
    other = next(k for k in range(len(game.board.paths)) if k not in t.spot_of_path)
    lift_harbor(s, location("path", other))
    assert (s.harbor_at, s.harbor_supply) == before


def test_a_hex_where_a_path_is_asked_is_a_diagnostic(tmp_path):
    _, diags = compile_text(tmp_path, SCENARIO.replace("lift_harbor(x)", "lift_harbor((0, -2))"))
    assert [d.code for d in diags] == ["E0504"]


def test_a_harbor_the_map_laid_stays(tmp_path_factory):
    fixed = "harbors fixed [3:1 at (0, -2) NW, wool 2:1 at (1, -2) NE]\n    harbors placed [3:1 x2] at"
    text = (SCENARIO.replace("harbors placed [3:1 x2, wool 2:1, brick 2:1] at", fixed)
            .replace("at [(0, -2) NW, (1, -2) NE, (2, -1) NE, (2, 0) E]", "at [(2, -1) NE, (2, 0) E]"))
    game = game_of(tmp_path_factory, text, seed=5, name="laid")
    s = played_to_first_roll(game)
    t = game.lookups(HarborLookups)
    laid = [k for k, v in enumerate(t.start) if v >= 0]
    assert len(laid) == 2
    before = [s.harbor_at[k] for k in laid]
    s.apply_action(game.action_id[A.Roll(12)])
    assert [s.harbor_at[k] for k in laid] == before
    check_cheap(s)
