"""The invented example scenarios (examples/scenarios/*.catan), each built around two or
more of the language's newer constructs: they check clean, greedy bots finish their games
with a winner, and random games keep the invariants after every action."""

from __future__ import annotations

import random

import pytest

import catandsl
from catandsl.checks import check_path
from catandsl.players import GreedyPlayer
from catandsl.rules.play import NO_ANSWERS
from tests.conftest import ROOT
from tests.engine.soundness import check_board, check_cheap

EXAMPLES = sorted((ROOT / "examples" / "scenarios").glob("*.catan"))
GAMES, ACTIONS = 20, 400  # random games per example, actions each


def test_there_are_examples():
    assert len(EXAMPLES) >= 2


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_the_example_checks_clean(path):
    scenario, diags, _ = check_path(path)
    assert scenario is not None and not diags, [(d.code, d.message) for d in diags]


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_greedy_bots_finish_the_example(path):
    scenario = catandsl.load(path)
    for players, seed in ((scenario.players_min, 1), (scenario.players_max, 2)):
        g = catandsl.new_game(scenario, players, {}, seed)
        bots = [GreedyPlayer(100 * seed + p) for p in range(players)]
        s = g.new_initial_state()
        while not s.is_terminal():
            s.apply_action(s.sample_chance() if s.is_chance_node() else bots[s.current_player()].choose(s))
            check_cheap(s)  # points include projects' stages, damaged roads stay counted
        assert s.reason == "victory", (path.name, players, s.reason)
        assert s.points(s.winner) >= g.victory or any(
            g.interp.program(v.condition, v.source).run({"player": s.winner}, s, NO_ANSWERS)
            for v in g.ruleset.victories)


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_random_games_keep_the_invariants(path):
    scenario = catandsl.load(path)
    for seed in range(GAMES):
        players = scenario.players_min + seed % (scenario.players_max - scenario.players_min + 1)
        s = catandsl.new_game(scenario, players, {}, seed).new_initial_state()
        rng = random.Random(seed)
        for _ in range(ACTIONS):
            if s.is_terminal():
                break
            s.apply_action(s.sample_chance() if s.is_chance_node() else rng.choice(s.legal_actions()))
            check_cheap(s)
        check_board(s)
