"""Whole random Seafarers games ("Heading for New Shores", "The Four Islands", "Cloth for
Catan"; 3 and 4 players), checked after every action: the base game's invariants
(resources conserved, pieces within limits, no two buildings adjacent, someone can act)
plus ships (limits, every path piece joined to its owner's network through pieces it
connects to), special victory points (`vp_tokens`) and token points in the VP sum, and
tokens conserved (sites + general supply + players = the declared supply).

Cost: the scenarios' turn cap (500 turns) is fixed and random players often reach it,
so a game is ~3000 actions. The cheap checks (bank + hands, VP, piece counts, a legal
action, chance probabilities) run after every action; the board checks (counts against
the board, distance rule, connection) only read the board, so they run after every
action that changes it (Build, Move, PickUp, PutDown) and after every BOARD_EVERY-th
action, which is the same as after every action. The serialize round trip runs every
ROUND_TRIP actions and at the end. GAMES is the count.
"""

from __future__ import annotations

import multiprocessing as mp
import os
from functools import cache

import pytest

import catandsl
from catandsl.engine import actions as A
from catandsl.engine import new_game
from catandsl.players import RandomPlayer
from tests.budget import count
from tests.engine.soundness import check_board, check_cheap, round_trip

SCENARIOS = ("heading_for_new_shores", "four_islands", "cloth_for_catan")
# How each scenario's games may end besides victory and the turn cap, and which of its
# parts random games must have exercised: special VP tokens, or tokens held (cloth).
ENDS = {"cloth_for_catan": {"villages_depleted"}}
EXERCISED = {"heading_for_new_shores": "special_vp", "four_islands": "special_vp",
             "cloth_for_catan": "tokens_held"}
GAMES = count(30)  # per scenario and player count (tests/budget.py)
ROUND_TRIP = 200
BOARD_EVERY = 50
WORKERS = min(2, os.cpu_count() or 1)
BOARD_ACTIONS = (A.Build, A.Move, A.PickUp, A.PutDown)


@cache
def scenario(name: str):
    return catandsl.load(f"scenarios/seafarers/{name}.catan")


def play_checked(name: str, n: int, seed: int) -> dict:
    g = new_game(scenario(name), players=n, seed=seed)
    players = [RandomPlayer(seed * 10 + k) for k in range(n)]
    s = g.new_initial_state()
    steps = 0
    moves = 0
    check_cheap(s)
    assert not check_board(s)
    while not s.is_terminal():
        a = s.sample_chance() if s.is_chance_node() else players[s.current_player()].choose(s)
        act = g.actions[a]
        s.apply_action(a)
        steps += 1
        assert steps < g.max_game_length(), "the game does not end"
        check_cheap(s)
        if isinstance(act, BOARD_ACTIONS) or steps % BOARD_EVERY == 0:
            lost = check_board(s)
            assert not lost, "path pieces not joined to a building: " + ", ".join(
                f"player {p} {g.location_name('path', x)}"
                for p, x in sorted(lost))
        moves += isinstance(act, A.PutDown)
        if steps % ROUND_TRIP == 0:
            round_trip(s)
    assert not check_board(s)
    round_trip(s)
    assert s.reason in {"victory", "turn_limit"} | ENDS.get(name, set())
    if s.reason == "victory":
        assert s.points(s.winner) >= g.victory and s.winner == s.turn_player
    elif s.reason == "turn_limit":
        assert s.turns >= g.turn_limit
    else:  # an end declared by the scenario: the winners rank first by points
        best = max(s.scores())
        assert all(s.points(w) == best for w in (s.winners or [s.winner]))
    return {"reason": s.reason, "steps": steps, "moves": moves,
            "special_vp": sum(k for _, _, k in s.vp_tokens),
            "tokens_held": sum(sum(h) for h in s.tokens_held)}


def _play(task):
    name, n, seed = task
    try:
        return play_checked(name, n, seed)
    except AssertionError as e:  # name the game: the traceback stays in the worker
        raise AssertionError(f"{name}, {n} players, seed {seed}: {e}") from None


def _run_all(tasks):
    """Play the games on up to WORKERS processes (forked: the compiled scenarios are
    inherited), in order; a failing game's AssertionError comes back here."""
    for name in SCENARIOS:
        scenario(name)
    if WORKERS > 1 and len(tasks) > 1:
        with mp.get_context("fork").Pool(WORKERS) as pool:
            return pool.map(_play, tasks, chunksize=4)
    return [_play(t) for t in tasks]


@pytest.mark.slow
@pytest.mark.parametrize("players", (3, 4))
@pytest.mark.parametrize("name", SCENARIOS)
def test_random_seafarers_games_keep_invariants(name, players):
    results = _run_all([(name, players, seed) for seed in range(1, GAMES + 1)])
    assert len(results) == GAMES  # every game ended: at the target, the turn cap or its own end
    reasons = {r["reason"] for r in results}
    assert reasons <= {"victory", "turn_limit"} | ENDS.get(name, set())
    assert "victory" in reasons
    # the Seafarers parts were exercised: ships moved; special VP earned or tokens taken
    assert sum(r["moves"] for r in results) > 0
    assert sum(r[EXERCISED[name]] for r in results) > 0


def _split_route_game():
    """Four Islands, 3 players, seed 2: player 2 settles between two of player 1's ships.
    The ship on the near side is not an open end (an opponent's building does not open
    an end), so it cannot move away and strand the ship beyond it."""
    g = new_game(scenario("four_islands"), players=3, seed=2)
    players = [RandomPlayer(20 + k) for k in range(3)]
    s = g.new_initial_state()
    while not s.is_terminal():
        a = s.sample_chance() if s.is_chance_node() else players[s.current_player()].choose(s)
        s.apply_action(a)
        assert not check_board(s)


def test_a_route_split_by_an_opponent_keeps_its_ships_joined():
    _split_route_game()
