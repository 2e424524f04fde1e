"""The two example scenarios written with places, marks, `var` and `define`
(examples/scenarios/number_paths.catan, beacon_coast.catan): random bots play each to
its stated end, a player at 10 points on their turn, with the state checked after every
action (tests/engine/test_example_scenarios.py plays greedy bots to the end and random
games of 400 actions on every example, these two included); and each scenario's marks do
what its header says."""

from __future__ import annotations

import random

import pytest

import catandsl
from tests.conftest import ROOT
from tests.engine.soundness import check_board, check_cheap

PATHS = {name: ROOT / "examples" / "scenarios" / f"{name}.catan" for name in ("number_paths", "beacon_coast")}
TOKENS = [5, 2, 6, 3, 8, 10, 9, 12, 11, 4, 8, 10, 9, 4, 5, 6, 3, 11]


@pytest.mark.parametrize("name", sorted(PATHS))
@pytest.mark.parametrize("players, seed", [(3, 1), (4, 2)])
def test_random_bots_play_to_the_end(name, players, seed):
    s = catandsl.new_game(catandsl.load(PATHS[name]), players, {}, seed).new_initial_state()
    rng = random.Random(seed)
    while not s.is_terminal():
        s.apply_action(s.sample_chance() if s.is_chance_node() else rng.choice(s.legal_actions()))
        check_cheap(s)
    check_board(s)
    assert s.reason == "victory" and s.points(s.winner) >= 10


def test_the_tokens_lie_in_order_along_one_of_the_two_paths():
    scenario = catandsl.load(PATHS["number_paths"])
    marks = {m.name: [(q, r) for q, r, _ in m.places] for m in scenario_map(scenario).marks}
    starts = set()
    for seed in range(1, 17):
        b = catandsl.board_for(scenario, 4, {}, seed)
        laid = {h: b.hex_number[b.hex_index[h]] for h in b.hex_index}
        fits = [name for name, path in marks.items() if [laid[h] for h in path if laid[h]] == TOKENS]
        assert len(fits) >= 1, seed
        starts.update(fits)
    assert starts == {"from_north", "from_south"}


def test_the_storm_coast_keeps_its_hexes_free_of_6_and_8():
    scenario = catandsl.load(PATHS["beacon_coast"])
    coast = {(2, -2), (3, -2), (2, -1), (3, -1), (2, 0), (3, 0)}
    for seed in range(1, 17):
        b = catandsl.board_for(scenario, 3, {}, seed)
        assert all(b.hex_number[b.hex_index[h]] not in (6, 8) for h in coast if h in b.hex_index), seed


def scenario_map(scenario):
    from catandsl.ir import configure

    return configure(scenario, 4, {}).map
