"""New games made from a template (engine/game.py `Templates`, kept by the scenario): a game whose map is
dealt as an earlier game's was is that game's copy with its own seed. Such a game must
be the game built from scratch, action for action, and its own: its seed, board record,
limits and changed boards are not the template's."""

from __future__ import annotations

from pathlib import Path

import pytest

import catandsl
from catandsl.engine.game import Game
from catandsl.players import RandomPlayer
from catandsl.rules.sites import SiteLookups

ROOT = Path(__file__).resolve().parents[2]
CASES = [  # (file, options): a fixed map, a shuffled one, hexes that change in play
    ("scenarios/base.catan", {}),
    ("scenarios/base.catan", {"layout": "random"}),
    ("scenarios/seafarers/heading_for_new_shores.catan", {}),
    ("examples/fog_bank.catan", {}),
]
ACTIONS = 600


def log(game: Game, seed: int) -> tuple[list[int], str, dict]:
    """The actions of a random game (offers made too), its last state and its board."""
    seats = [RandomPlayer(seed * 10 + p, offers=0.3) for p in range(game.num_players)]
    s = game.new_initial_state()
    out = []
    while not s.is_terminal() and len(out) < ACTIONS:
        a = s.sample_chance() if s.is_chance_node() else seats[s.current_player()].choose(s)
        s.apply_action(a)
        out.append(a)
    return out, s.serialize(), s.game.board.to_json()


@pytest.mark.parametrize("path, options", CASES)
def test_a_game_from_a_template_is_the_game_built_from_scratch(path, options):
    scenario = catandsl.load(ROOT / path)
    players = scenario.players_max
    for seed in range(1, 5):
        made = catandsl.new_game(scenario, players, options, seed)  # (a template's copy after the first)
        scratch = Game(scenario, players, options, seed)
        assert made.seed == made.board.seed == seed
        assert made.actions == scratch.actions
        assert log(made, seed) == log(scratch, seed)


def test_a_fixed_map_is_built_once_and_each_copy_is_its_own():
    scenario = catandsl.load(ROOT / "scenarios/base.catan")
    first, second = (catandsl.new_game(scenario, 4, {}, seed) for seed in (11, 12))
    assert second is not first and second.base is second
    assert second.lookups(SiteLookups) is first.lookups(SiteLookups)  # shared, not built again
    assert (first.seed, first.board.seed, second.seed, second.board.seed) == (11, 11, 12, 12)
    assert second.board.hex_terrain == first.board.hex_terrain
    limit = first.max_actions
    first.max_actions = second.max_actions = 5  # (what the OpenSpiel adapter does with max_game_length)
    third = catandsl.new_game(scenario, 4, {}, 13)
    assert third.max_actions == limit != 5  # (neither the first game nor a copy is the template)
    assert third._variants is not second._variants


def test_a_shuffled_map_gives_each_seed_its_own_board():
    scenario = catandsl.load(ROOT / "scenarios/base.catan")
    boards = {tuple(catandsl.new_game(scenario, 4, {"layout": "random"}, seed).board.hex_terrain)
              for seed in range(1, 9)}
    assert len(boards) == 8


def test_a_copy_changes_hexes_on_its_own_boards():
    """fog_bank's hexes turn up in play (rules/hexes.py: `with_hexes`); its map is
    shuffled, so the copy here is of the game for the same deal."""
    scenario = catandsl.load(ROOT / "examples/fog_bank.catan")
    game = Game(scenario, 3, {}, 2)
    copy = game.reseeded(2, game._dealt)
    played = log(copy, 2)
    assert copy._variants and not game._variants  # the copy's changed boards are its own
    assert played == log(Game(scenario, 3, {}, 2), 2)


def test_the_templates_and_action_tables_belong_to_their_scenario():
    import copy
    import pickle

    scenario = catandsl.load(ROOT / "scenarios/base.catan")
    scenario.kept.clear()
    first = catandsl.new_game(scenario, 4, {}, 1)
    assert first.kept is scenario.kept
    assert list(scenario.kept.templates) == [(4, ())] and len(scenario.kept.action_tables) == 1
    # another scenario of the same text keeps its own: nothing is found by a scenario's id
    other = copy.deepcopy(scenario)
    assert other == scenario and not other.kept.templates and not other.kept.action_tables
    assert catandsl.new_game(other, 4, {}, 1).actions == first.actions
    assert other.kept.templates and len(scenario.kept.templates) == 1
    # what a scenario keeps is no part of its value: not serialized, pickled or compared
    assert "kept" not in scenario.to_json()
    assert not pickle.loads(pickle.dumps(scenario)).kept.templates
