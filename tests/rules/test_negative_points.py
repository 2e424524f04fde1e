"""Points that count off and points that switch off: a token worth -1 (`token curse {
points -1 }`), a counter worth points for each 1 of it (`counter conquered { points -1 }`),
set and cleared by rules (catandsl/rules/scoring.py)."""

from __future__ import annotations

import pytest

import catandsl
from catandsl.players import GreedyPlayer
from catandsl.rules.counters import add_to_counter, set_counter
from catandsl.rules.sites import give_tokens
from tests.conftest import compile_text
from tests.engine.soundness import check_cheap

SOURCE = """
scenario curses "Curses" {
  uses base
  token curse { supply 10; points -1 }
  counter conquered { points -1 }
  map {
    rows \"\"\"
      f8  p5  h4
        m10 f6
    \"\"\"
    legend { f forest; p pasture; h hills; m mountains }
  }
}
"""


@pytest.fixture(scope="module")
def after_setup(tmp_path_factory):
    path = tmp_path_factory.mktemp("curses") / "curses.catan"
    path.write_text(SOURCE, encoding="utf-8")
    game = catandsl.new_game(catandsl.load(path), 3, {}, 1)
    s = game.new_initial_state()
    bots = [GreedyPlayer(p) for p in range(3)]
    while s.stage == "setup":
        s.apply_action(s.sample_chance() if s.is_chance_node() else bots[s.current_player()].choose(s))
    return game, s


def test_a_token_worth_minus_one_counts_off(after_setup):
    _, s0 = after_setup
    s = s0.clone()
    before = s.points(0)
    give_tokens(s, 0, "curse", 3)
    assert s.points(0) == before - 3 and s.points(1) == s0.points(1)
    check_cheap(s)


def test_a_counter_worth_minus_one_switches_a_building_s_point_off_and_on(after_setup):
    _, s0 = after_setup
    s = s0.clone()
    before = s.points(1)
    add_to_counter(s, 1, "conquered", 1)  # one settlement conquered: worth nothing
    assert s.points(1) == before - 1
    check_cheap(s)
    set_counter(s, 1, "conquered", 0)  # freed: worth its point again
    assert s.points(1) == before


def test_points_may_go_below_zero(after_setup):
    _, s0 = after_setup
    s = s0.clone()
    add_to_counter(s, 2, "conquered", 5)
    assert s.points(2) == s0.points(2) - 5 < 0


@pytest.mark.parametrize("old, new, message", [
    ("points -1 }\n  counter", "points -101 }\n  counter", "a token's points is -100 to 100, not -101"),
    ("counter conquered { points -1 }", "counter conquered { points many }", "expected the points"),
    ("counter conquered { points -1 }", "counter conquered { point -1 }", "`points P`"),
])
def test_bad_points_are_a_diagnostic(tmp_path, old, new, message):
    _, diags = compile_text(tmp_path, SOURCE.replace(old, new))
    assert [d.code for d in diags] == ["E0304"]
    assert message in diags[0].message
