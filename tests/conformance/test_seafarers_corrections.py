"""Seafarers rules as the rulebook states them, from fixed positions
(`catandsl.position`): the players draw and lay the harbor tokens unless the harbors are
chosen shuffled; a line of ships between two of the owner's settlements is closed,
whatever else branches off it."""

from __future__ import annotations

import pytest

import catandsl
from catandsl import queries as Q
from catandsl.engine import actions as A
from catandsl.rules import movement

NEW_SHORES = "scenarios/seafarers/heading_for_new_shores.catan"
FOUR_ISLANDS = "scenarios/seafarers/four_islands.catan"


def legal(s):
    return [s.game.actions[a] for a in s.legal_actions()]


@pytest.mark.parametrize("path", [NEW_SHORES, FOUR_ISLANDS])
@pytest.mark.parametrize("players", [3, 4])
def test_seafarers_harbors_drafted_by_default(path, players):
    """Without options, the set-up opens with the players drawing harbor tokens in turn
    and laying each on a marked spot."""
    g = catandsl.new_game(path, players, {}, 1)
    s = g.new_initial_state()
    act = legal(s)
    s.apply_action(g.action_id[act[0]])  # who starts
    first = legal(s)
    assert first and all(isinstance(x, A.DrawHarbor) for x in first) and s.is_chance_node()


@pytest.mark.parametrize("path", [NEW_SHORES, FOUR_ISLANDS])
@pytest.mark.parametrize("players", [3, 4])
def test_seafarers_harbors_shuffled_by_option(path, players):
    """With `harbor_setup=shuffled` the harbors are dealt onto the marked spots: the set-up
    opens with the first settlement."""
    shuffled = catandsl.new_game(path, players, {"harbor_setup": "shuffled"}, 1)
    s = shuffled.new_initial_state()
    s.apply_action(shuffled.action_id[legal(s)[0]])
    assert all(isinstance(x, A.Build) and x.piece == "settlement" for x in legal(s))


def test_seafarers_closed_route_ignores_open_branch():
    """Two ships between two of the owner's settlements form a closed route; a third
    ship branching off the intersection between them is an open route of its own and
    opens nothing: the two stay closed, the branch is open (and may move)."""
    g = catandsl.new_game(NEW_SHORES, 4, {}, 1)
    b = g.board
    trunk = [b.path_id(2, 1, "NW"), b.path_id(2, 1, "NE")]  # meet at (2, 1) N
    branch = b.path_id(3, 0, "W")  # from (2, 1) N out to sea
    pos = (catandsl.position(g).place(0, "settlement", (2, 0, "S")).place(0, "settlement", (3, 0, "S"))
           .place(0, "ship", trunk[0]).place(0, "ship", trunk[1]))
    s = pos.state()
    assert all(Q.on_closed_route(s, k) for k in trunk)
    s = pos.place(0, "ship", branch).state()
    assert all(Q.on_closed_route(s, k) for k in trunk)
    assert not Q.on_closed_route(s, branch)


def test_seafarers_a_line_from_one_settlement_is_open():
    """A line of ships from one settlement, branching or not, links no second settlement:
    open."""
    g = catandsl.new_game(NEW_SHORES, 4, {}, 1)
    b = g.board
    ships = [b.path_id(2, 1, "NW"), b.path_id(2, 1, "NE"), b.path_id(3, 0, "W")]
    pos = catandsl.position(g).place(0, "settlement", (2, 0, "S"))
    for k in ships:
        pos.place(0, "ship", k)
    s = pos.state()
    assert not any(Q.on_closed_route(s, k) for k in ships)


def test_seafarers_another_players_settlement_closes_no_route():
    """An opponent's settlement at the far end of the line closes nothing for its owner."""
    g = catandsl.new_game(NEW_SHORES, 4, {}, 1)
    b = g.board
    trunk = [b.path_id(2, 1, "NW"), b.path_id(2, 1, "NE")]
    s = (catandsl.position(g).place(0, "settlement", (2, 0, "S")).place(1, "settlement", (3, 0, "S"))
         .place(0, "ship", trunk[0]).place(0, "ship", trunk[1]).state())
    assert not any(Q.on_closed_route(s, k) for k in trunk)



def test_seafarers_a_ring_of_ships_is_closed_between_two_settlements():
    """Ships round a whole sea hex: with two of the owner's settlements on it, both ways
    between them are closed routes; with one, the ring links no second settlement and
    nothing is closed (and no ship of it is an open end either, so none moves)."""
    g = catandsl.new_game(NEW_SHORES, 4, {}, 1)
    b = g.board
    ring = list(b.hex_paths[b.hex_index[(3, 0)]])
    first, second = b.intersection_id(3, 1, "N"), b.intersection_id(2, 1, "N")
    assert not set(b.corner_paths[first]) & set(b.corner_paths[second])  # not neighbours
    pos = catandsl.position(g).place(0, "settlement", first)
    for k in ring:
        pos.place(0, "ship", k)
    s = pos.state()
    assert not any(Q.on_closed_route(s, k) for k in ring)
    assert not any(movement.open_end(s, 0, k) for k in ring)
    s = pos.place(0, "settlement", second).state()
    assert all(Q.on_closed_route(s, k) for k in ring)
