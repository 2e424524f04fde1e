"""Whole games of the example with face-down hexes (examples/fog_bank.catan): bots play
it to the end, and random games are checked after every action, the face-down stacks
included (tiles left + tiles turned up = the pool as declared)."""

from __future__ import annotations

import random
from collections import Counter
from pathlib import Path

import pytest

import catandsl
from catandsl.players import GreedyPlayer, UniformPlayer, play_game
from catandsl.rules.hexes import HexLookups, Revealing
from tests.engine.soundness import check_invariants

ROOT = Path(__file__).resolve().parents[2]
GAMES, ACTIONS, ROUND_TRIP = 30, 400, 50


@pytest.fixture(scope="module")
def scenario():
    return catandsl.load(ROOT / "examples" / "fog_bank.catan")


def check_stacks(s) -> None:
    """Per hidden pool and terrain: the tiles left, the tiles lying on revealed hexes and
    a tile drawn for a hex whose number is still to come add up to the declared pool (no
    rule of the example changes a revealed hex); the number tokens likewise."""
    g = s.game
    t = g.lookups(HexLookups)
    names = g.board.terrain_names
    drawn = [p for p in s.pending if isinstance(p, Revealing) and p.terrain >= 0]
    for k in range(len(t.pools)):
        seen = Counter(names[s.game.board.hex_terrain[h]] for h in t.pool_of
                       if t.pool_of[h] == k and h not in s.face_down)
        seen.update(names[p.terrain] for p in drawn if t.pool_of[p.hex] == k)
        assert all(s.hidden_tiles[k][i] + seen[n] == t.tiles[k][i] for i, n in enumerate(names))
        numbers = Counter(s.game.board.hex_number[h] for h in t.pool_of
                          if t.pool_of[h] == k and h not in s.face_down)
        assert all(s.hidden_numbers[k][v] + numbers[v] == t.numbers[k][v] for v in range(2, 13))
    for h in s.face_down:  # a face-down hex shows its cover and no number
        assert g.board.hex_water[h] and g.board.hex_number[h] == 0


def test_random_games_keep_the_invariants(scenario):
    revealed = 0
    for seed in range(GAMES):
        g = catandsl.new_game(scenario, 3 + seed % 2, {}, seed)
        seats = [UniformPlayer(seed * 10 + p) for p in range(g.num_players)]
        s = g.new_initial_state()
        rng = random.Random(seed)
        for n in range(ACTIONS):
            if s.is_terminal():
                break
            a = s.sample_chance() if s.is_chance_node() else seats[s.current_player()].choose(s)
            s.apply_action(a)
            check_invariants(s)
            check_stacks(s)
            if n % ROUND_TRIP == 0 or rng.random() < 0.01:
                assert g.deserialize_state(s.serialize()).serialize() == s.serialize()
        revealed += len(s.hex_changes)
    assert revealed > GAMES  # the games do turn hexes up


@pytest.mark.parametrize("players", [3, 4])
def test_bots_play_the_fog_bank_to_the_end(scenario, players):
    g = catandsl.new_game(scenario, players, {}, 7)
    s, _ = play_game(g, [GreedyPlayer(p) for p in range(players)], log=False)
    assert s.reason == "victory"
    check_stacks(s)
