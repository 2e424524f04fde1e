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
from functools import lru_cache

import pytest

import catandsl
from catandsl.engine import new_game
from catandsl.engine import actions as A
from catandsl.players import RandomPlayer
from catandsl.rules.placement import pieces_on_board
from catandsl.rules.sites import SiteTables
from tests.engine.helpers import check_resources
from tests.engine.soundness import check_live, round_trip
from tests.budget import count

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


@lru_cache(maxsize=None)
def scenario(name: str):
    return catandsl.load(f"scenarios/seafarers/{name}.catan")


def check_cheap(s) -> None:
    g = s.game
    n = g.num_players
    check_resources(s)
    # pieces within limits
    for p in range(n):
        for P in g.pieces:
            assert 0 <= s.placed[p][P.index] <= P.limit, (p, P.name)
    # VP = buildings + cards + awards + special VP tokens
    tokens = [0] * n
    for p, c, k in s.vp_tokens:
        assert k > 0
        tokens[p] += k
    # tokens conserved (sites + general supply + players = the declared supply), and
    # worth `points P per Q` to their holders
    supplies = [t.supply for t in g.ruleset.tokens.values()]
    for t, total in enumerate(supplies):
        on_sites = sum(stock[t] for stock in s.token_stock)
        held = sum(h[t] for h in s.tokens_held)
        assert on_sites + s.token_supply[t] + held == total
        assert min([s.token_supply[t]] + [h[t] for h in s.tokens_held]
                   + [stock[t] for stock in s.token_stock]) >= 0
    for p in range(n):
        vp = sum(s.placed[p][P.index] * P.points for P in g.pieces)
        vp += sum(s.cards[p][c.index] * c.points for c in g.cards)
        vp += sum(aw.points for k, aw in enumerate(g.awards) if s.award_holder[k] == p)
        if supplies:
            vp += sum(held // per * pts for held, (pts, per) in zip(s.tokens_held[p], g.table(SiteTables).token_points))
        # the stages built of the projects the player owns
        for project, level, owner in zip(g.ruleset.projects.values(), s.project_level, s.project_owner):
            if owner == p:
                vp += sum(stage.points for stage in project.stages[:level])
        # counters worth points (`points -1`: counted off)
        vp += sum(s.counters[p][k] * c.points for k, c in enumerate(g.ruleset.counters.values()))
        assert vp + tokens[p] == s.points(p)
    check_live(s)  # someone can act unless the game is over


def check_board(s) -> set[tuple[int, int]]:
    """The board checks; returns the path pieces not joined to their owner's network."""
    g = s.game
    b = g.board
    # the board agrees with the counts (a ship lifted for a move is off the board)
    assert pieces_on_board(s) == s.placed
    # special VP tokens lie under a building of their owner
    for p, c, _ in s.vp_tokens:
        assert s.corner_owner[c] == p
    # no two buildings adjacent (distance rule)
    for c, owner in enumerate(s.corner_owner):
        if owner >= 0:
            assert all(s.corner_owner[m] == -1 for m in b.corner_neighbours[c])
    return orphans(s)


def orphans(s) -> set[tuple[int, int]]:
    """(player, path) of every path piece not joined to one of its owner's buildings
    through own path pieces, kinds joining as their `connects` say (a road meets a ship
    only at an own building; an opponent's building between two pieces is passed over,
    as in the base game a road cut by one still counts)."""
    g = s.game
    b = g.board
    out = set()
    for p in range(g.num_players):
        mine = [x for x, o in enumerate(s.path_owner) if o == p]
        if not mine:
            continue
        reached = set()
        todo = []
        for x in mine:
            P = g.pieces[s.path_piece[x]]
            if any(s.corner_owner[c] == p and s.corner_piece[c] in P.connects
                   for c in b.path_ends[x]):
                reached.add(x)
                todo.append(x)
        while todo:
            x = todo.pop()
            P = g.pieces[s.path_piece[x]]
            for c in b.path_ends[x]:
                for y in b.corner_paths[c]:
                    if y in reached or s.path_owner[y] != p:
                        continue
                    if s.path_piece[y] in P.connects or s.corner_owner[c] == p:
                        reached.add(y)
                        todo.append(y)
        out.update((p, x) for x in mine if x not in reached)
    return out


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
                f"player {p} {g.site_name('path', x)}"
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
