"""Whole random games, checked after every action."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from catandsl.engine import actions as A
from catandsl.players import GreedyPlayer, RandomPlayer, play_game
from tests.budget import count
from tests.conftest import base_game, base_scenario
from tests.engine.soundness import check_invariants, round_trip

# count(100) whole games (tests/budget.py): every 4th with 3 players; odd seats propose domestic trades now and
# then, and one seat in five plays greedily. The cheap invariants are checked after every
# action, the serialize/deserialize round trip every ROUND_TRIP actions and at the end.
GAMES = count(100)
ROUND_TRIP = 20


def _players(seed: int, n: int):
    return [GreedyPlayer(seed * 10 + k) if (seed + k) % 5 == 0
            else RandomPlayer(seed * 10 + k, offers=0.05 if k % 2 else 0.0)
            for k in range(n)]


@pytest.mark.slow
def test_random_games_keep_invariants():
    ended, trades, reasons = 0, 0, set()
    for seed in range(GAMES):
        n = 3 if seed % 4 == 0 else 4
        g = base_game(n, seed)
        players = _players(seed, n)
        s = g.new_initial_state()
        steps = 0
        while not s.is_terminal():
            a = s.sample_chance() if s.is_chance_node() else players[s.current_player()].choose(s)
            trades += isinstance(g.actions[a], A.TradeWith)
            s.apply_action(a)
            steps += 1
            assert steps < g.max_game_length(), "the game does not end"
            check_invariants(s)
            if steps % ROUND_TRIP == 0:
                round_trip(s)
        round_trip(s)
        assert s.reason in ("victory", "turn_limit")
        if s.reason == "victory":
            assert s.points(s.winner) >= g.victory and s.winner == s.turn_player
        reasons.add(s.reason)
        ended += 1
    assert ended == GAMES
    assert trades > 0 and reasons == {"victory", "turn_limit"}


@pytest.mark.parametrize("name, n", [("base.catan", 2), ("five_six.catan", 5), ("five_six.catan", 6)])
def test_games_of_two_five_and_six_keep_invariants(root, name, n):
    """Catan for Two and the 5-6 player island: whole games of random and greedy seats
    (count(3) each), checked after every action, ending in a victory."""
    import catandsl

    sc = catandsl.load(root / "scenarios" / name)
    between = 0
    for seed in range(count(3)):
        g = catandsl.new_game(sc, n, {}, seed)
        players = _players(seed, n)
        s = g.new_initial_state()
        steps = 0
        while not s.is_terminal():
            a = s.sample_chance() if s.is_chance_node() else players[s.current_player()].choose(s)
            between += s.current_player() not in (-1, s.turn_player) and s.stage == "turn"
            s.apply_action(a)
            steps += 1
            assert steps < g.max_game_length(), "the game does not end"
            check_invariants(s)
            if steps % ROUND_TRIP == 0:
                round_trip(s)
        round_trip(s)
        assert s.reason == "victory" and s.points(s.winner) >= g.victory and s.winner == s.turn_player
    assert between > 0  # someone acted outside their own turn (discards, and the 5-6 building phase)


def test_clone_is_independent():
    g = base_game(4, 5)
    s = g.new_initial_state()
    c = s.clone()
    c.apply_action(c.legal_actions()[0])
    assert s.serialize() == g.new_initial_state().serialize()
    assert c.serialize() != s.serialize()


def _lists_in(value, out: set[int]) -> set[int]:
    """The ids of every list inside a field's value, at any depth."""
    if isinstance(value, list):
        out.add(id(value))
        for item in value:
            _lists_in(item, out)
    return out


@pytest.mark.parametrize("name", ["base.catan", "seafarers/cloth_for_catan.catan",
                                  "traders_barbarians/traders_and_barbarians.catan"])
def test_a_clone_shares_no_list_with_its_original(root, name):
    """clone() copies each field by its declared shape: a list declared flat that held a
    list, or a new field of lists declared otherwise, would be shared (and a move in the
    clone would move the original)."""
    import catandsl
    from catandsl.engine.state import FIELDS

    g = catandsl.new_game(catandsl.load(root / "scenarios" / name), None, {}, 4)
    s = g.new_initial_state()
    seats = [RandomPlayer(40 + p) for p in range(g.num_players)]
    for n in range(400):
        if s.is_terminal():
            break
        if n % 5 == 0:
            c = s.clone()
            for f in FIELDS:
                assert getattr(c, f) == getattr(s, f), f
                assert not _lists_in(getattr(c, f), set()) & _lists_in(getattr(s, f), set()), f
        s.apply_action(s.sample_chance() if s.is_chance_node() else seats[s.current_player()].choose(s))


def _log(seed: int) -> list:
    g = base_game(4, seed)
    state, log = play_game(g, [RandomPlayer(k) for k in range(4)])
    return [e["action"] for e in log] + [state.winner]


def test_same_seed_same_game():
    assert _log(3) == _log(3)


def test_same_log_under_other_hash_seeds(root):
    code = (
        "from tests.engine.test_invariants import _log; print(_log(2))"
    )
    outs = set()
    for hs in ("0", "1", "12345"):
        env = dict(os.environ, PYTHONHASHSEED=hs, PYTHONPATH=str(root))
        outs.add(subprocess.run([sys.executable, "-c", code], cwd=root, env=env,
                                capture_output=True, text=True, check=True).stdout)
    assert len(outs) == 1


def test_three_players_play_to_the_end():
    g = base_game(3, 4)
    state, _ = play_game(g, [RandomPlayer(k) for k in range(3)], log=False)
    assert state.is_terminal()
    assert base_scenario().players_min == 2  # (Catan for Two plays the base game too)
