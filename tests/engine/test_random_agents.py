"""Games always end: a uniformly random agent over `legal_actions()` (offers, answers
and all; not the bots, which never propose a trade) plays every shipped scenario at
every player count, and every game ends within `max_game_length()` with a stated
reason, live after every action. bench/soak.py plays a thousand games per scenario at its
largest player count, checked (and saved and read back) before every action."""

from __future__ import annotations

from functools import cache
from pathlib import Path

import pytest

import catandsl
from catandsl.players import UniformPlayer
from catandsl.rules.placement import pieces_on_board
from tests.budget import count
from tests.engine.helpers import check_resources
from tests.engine.soundness import check_live

ROOT = Path(__file__).resolve().parents[2]
SCENARIOS = ("base.catan", "seafarers/heading_for_new_shores.catan", "seafarers/four_islands.catan",
             "seafarers/cloth_for_catan.catan")
# Each scenario at 3 and 4 players, and the boards for other counts at theirs.
GAMES_PLAYED = ([(name, n) for name in SCENARIOS for n in (3, 4)]
                + [("base.catan", 2), ("five_six.catan", 5), ("five_six.catan", 6)])
GAMES = count(10)  # per scenario and player count (tests/budget.py)
ENDS = {"victory", "turn_limit", "action_limit", "villages_depleted"}


@cache
def scenario(name: str):
    return catandsl.load(ROOT / "scenarios" / name)


def play_uniformly(game, seed: int):
    """One game with uniformly random agents; returns the final state and its length."""
    seats = [UniformPlayer(seed * 10 + p) for p in range(game.num_players)]
    s = game.new_initial_state()
    n = 0
    while not s.is_terminal():
        assert n < game.max_game_length(), "the game ran past its bound"
        a = s.sample_chance() if s.is_chance_node() else seats[s.current_player()].choose(s)
        s.apply_action(a)
        n += 1
        check_live(s)
    return s, n


@pytest.mark.parametrize("name, players", GAMES_PLAYED)
def test_uniformly_random_games_end_within_the_bound(name, players):
    sc = scenario(name)
    lengths = []
    for i in range(GAMES):
        g = catandsl.new_game(sc, players, {}, 1000 + i)
        s, n = play_uniformly(g, i)
        lengths.append(n)
        assert s.is_terminal() and s.reason in ENDS, s.reason
        assert n == s.actions_applied <= g.max_game_length()
        assert s.legal_actions() == [] and s.pending == []
        check_resources(s)
        assert pieces_on_board(s) == s.placed
        if s.reason == "victory":
            assert s.winner >= 0 and s.points(s.winner) >= g.victory
    assert max(lengths) < g.max_game_length()


def test_the_action_limit_ends_a_game_with_its_reason(tmp_path):
    f = tmp_path / "short.catan"
    text = (ROOT / "scenarios" / "base.catan").read_text(encoding="utf-8")
    f.write_text(text.replace("uses base", "uses base\n  action_limit 60", 1), encoding="utf-8")
    g = catandsl.new_game(catandsl.load(f), 4, {}, 3)
    assert g.max_game_length() == 60
    s, n = play_uniformly(g, 3)
    assert n == 60 and s.reason == "action_limit" and s.winner == -1
    assert s.returns() == [0.0] * 4


def test_the_bound_is_derived_from_the_turn_limit_by_default():
    g = catandsl.new_game(scenario("base.catan"), 4, {}, 1)
    assert g.max_game_length() >= g.turn_limit * 100  # room for long turns, still a bound
