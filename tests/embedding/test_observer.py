"""The Observer: a fixed-size tensor per player with named slices that shows what that
player may see and nothing more, and a legal-action mask over the action table."""

from __future__ import annotations

from pathlib import Path

import catandsl
from catandsl.engine.observer import Observer
from catandsl.players import RandomPlayer

ROOT = Path(__file__).resolve().parents[2]


def test_slices_tile_the_tensor_and_the_size_never_changes():
    g = catandsl.new_game(catandsl.load(ROOT / "scenarios/seafarers/four_islands.catan"), players=3, seed=4)
    obs = Observer(g)
    spans = sorted(obs.slices.values())
    assert spans[0][0] == 0 and spans[-1][1] == obs.size
    assert all(a[1] == b[0] for a, b in zip(spans, spans[1:]))
    s = g.new_initial_state()
    bots = [RandomPlayer(k) for k in range(3)]
    while not s.is_terminal() and s.actions_applied < 600:
        for p in range(3):
            assert len(obs.tensor(s, p)) == obs.size
        mask = obs.legal_mask(s)
        assert [a for a, m in enumerate(mask) if m] == ([] if s.is_chance_node() else s.legal_actions())
        s.apply_action(s.sample_chance() if s.is_chance_node() else bots[s.current_player()].choose(s))


def test_an_opponents_hand_shows_as_a_count_only():
    g = catandsl.new_game(catandsl.load(ROOT / "scenarios/base.catan"), players=4, seed=1)
    obs = Observer(g)
    # seats 0 and 2 swap hands: the bank is the same, seat 1 sees 3 cards in each hand
    one = catandsl.position(g).hand(0, brick=2, ore=1).hand(2, wool=3).state()
    other = catandsl.position(g).hand(0, wool=3).hand(2, brick=2, ore=1).state()
    assert obs.tensor(one, 1) == obs.tensor(other, 1)
    assert obs.tensor(one, 0) != obs.tensor(other, 0)  # seat 0 sees its own cards
    a, z = obs.slices["hands#count"]
    assert obs.tensor(one, 1)[a:z] == [3.0, 0.0, 3.0, 0.0]
    assert obs.string(one, 1) == obs.string(other, 1)
    a, z = obs.slices["seat"]
    assert obs.tensor(one, 2)[a:z] == [0.0, 0.0, 1.0, 0.0]
