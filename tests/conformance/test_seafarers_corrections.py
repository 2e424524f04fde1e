"""Seafarers rules as the rulebook states them, from fixed positions
(`catandsl.position`): the players draw and lay the harbor tokens unless the harbors are
chosen shuffled; a line of ships between two of the owner's settlements is closed,
whatever else branches off it."""

from __future__ import annotations

import pytest

import catandsl
from catandsl.engine import actions as A

NEW_SHORES = "scenarios/seafarers/heading_for_new_shores.catan"
FOUR_ISLANDS = "scenarios/seafarers/four_islands.catan"


def legal(s):
    return [s.game.actions[a] for a in s.legal_actions()]


@pytest.mark.parametrize("path", [NEW_SHORES, FOUR_ISLANDS])
@pytest.mark.parametrize("players", [3, 4])
def test_seafarers_harbors_drafted_by_default(path, players):
    """Without options, the set-up opens with the players drawing harbor tokens in turn
    and laying each on a marked spot; `harbor_setup=shuffled` deals them instead."""
    g = catandsl.new_game(path, players, {}, 1)
    s = g.new_initial_state()
    act = legal(s)
    s.apply_action(g.action_id[act[0]])  # who starts
    first = legal(s)
    assert first and all(isinstance(x, A.DrawHarbor) for x in first) and s.is_chance_node()
    shuffled = catandsl.new_game(path, players, {"harbor_setup": "shuffled"}, 1)
    s = shuffled.new_initial_state()
    s.apply_action(shuffled.action_id[legal(s)[0]])
    assert all(isinstance(x, A.Build) and x.piece == "settlement" for x in legal(s))
