"""Queries on a state (catandsl.queries): each answered by the rule module the game
plays with, checked here on positions built by hand and on random games."""

from __future__ import annotations

from functools import cache
from pathlib import Path

import pytest

import catandsl
from catandsl import queries as Q
from catandsl.engine import ArgumentError
from catandsl.players import RandomPlayer, play_game

ROOT = Path(__file__).resolve().parents[2]


@cache
def scenario(path: str):
    return catandsl.load(ROOT / path)


def test_a_ship_route_closes_when_a_settlement_ends_it():
    g = catandsl.new_game(scenario("scenarios/seafarers/heading_for_new_shores.catan"), players=4, seed=1)
    pos = (catandsl.position(g).place(0, "settlement", (2, 0, "S"))
           .place(0, "ship", (2, 1, "NW")).place(0, "ship", (2, 1, "NE")))
    s = pos.state()
    ship = g.board.paths.index((2, 1, "NW"))
    assert not Q.on_closed_route(s, ship)
    assert Q.route_length(s, 0, ["ship"]) == 2 and Q.route_length(s, 0, ["road"]) == 0
    s = pos.place(0, "settlement", (3, 0, "S")).state()
    assert Q.on_closed_route(s, ship)
    with pytest.raises(ArgumentError):
        Q.on_closed_route(s, s.path_owner.index(-1))  # no piece there


def test_trade_relations_are_derived_on_request():
    g = catandsl.new_game(scenario("scenarios/seafarers/cloth_for_catan.catan"), players=3, seed=1)
    pos = (catandsl.position(g).place(1, "settlement", (1, 3, "N"))
           .place(1, "ship", (1, 3, "NE")).place(1, "ship", (2, 3, "W")))
    assert pos.state().partners == []  # put down without the rules: nothing derived yet
    s = pos.reach_sites().state()
    village = g.board.intersections.index((1, 4, "N"))
    assert [site for site, seat in s.partners if seat == 1] == [
        k for k, info in enumerate(g.sites) if info.corner == village]


def test_production_counts_each_total_and_leaves_the_state_alone():
    g = catandsl.new_game(scenario("scenarios/base.catan"), players=4, seed=1)
    b = g.board
    h = b.number_hexes[8][0]
    corner = next(c for c in b.hex_corners[h] if c in g.pieces[g.piece_index["city"]].allowed_set)
    s = catandsl.position(g).place(1, "settlement", corner).place(1, "city", corner).state()
    before = s.serialize()
    made = Q.production(s)
    assert s.serialize() == before
    resource = g.resources[g.hex_resource[h]]
    paying = [t for t in made if made[t][1]]
    assert made[8][1].get(resource, 0) >= 2  # a city takes two
    assert all(made[t][0] == {} for t in made)  # seat 0 has nothing on the board
    assert set(paying) == {n for n, hexes in enumerate(b.number_hexes)
                           for x in hexes if x in b.corner_hexes[corner] and g.hex_resource[x] >= 0}


def test_legal_places_are_the_build_actions_of_the_rules():
    g = catandsl.new_game(scenario("scenarios/base.catan"), players=4, seed=2)
    s, _ = play_game(g, [RandomPlayer(k) for k in range(4)], log=False)
    for p in range(4):
        roads = Q.legal_places(s, p, "road")
        assert all(s.path_owner[k] == -1 for k in roads)
        assert len(Q.legal_places(s, p, "settlement", "setup")) >= len(Q.legal_places(s, p, "settlement"))
    with pytest.raises(ArgumentError):
        Q.legal_places(s, 0, "robber")


@pytest.mark.parametrize("path, players", [("scenarios/base.catan", 4),
                                           ("scenarios/seafarers/four_islands.catan", 3),
                                           ("scenarios/traders_barbarians/traders_and_barbarians.catan", 4)])
def test_points_breakdown_sums_to_the_score_along_a_game(path, players):
    g = catandsl.new_game(scenario(path), players=players, seed=5)
    s = g.new_initial_state()
    bots = [RandomPlayer(k) for k in range(players)]
    while not s.is_terminal() and s.actions_applied < 1500:
        s.apply_action(s.sample_chance() if s.is_chance_node() else bots[s.current_player()].choose(s))
        if s.actions_applied % 50 == 0:
            for p in range(players):
                assert Q.points_breakdown(s, p)["total"] == s.points(p)  # raises if the parts differ
                nets = Q.networks(s, p)
                own = [k for k, o in enumerate(s.path_owner) if o == p]
                own += [e.path for e in s.travellers if e.player == p]
                assert sorted(k for n in nets for k in n) == sorted(set(own))  # a wagon may share a road's path
                assert Q.route_length(s, p) <= max((len(n) for n in nets), default=0)
