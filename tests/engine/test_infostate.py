"""Determinizing (`State.resample_from_infostate`): the resample keeps what the seat
observes, draws what it cannot see, and reads nothing it cannot see."""

from __future__ import annotations

import random
from collections import Counter
from functools import cache
from pathlib import Path

import pytest

import catandsl
from catandsl.engine import ArgumentError
from catandsl.engine.validate import StateError
from catandsl.players import RandomPlayer
from tests.budget import count
from tests.conftest import swap_hidden

ROOT = Path(__file__).resolve().parents[2]
# every shipped scenario, at its player counts and with its options (T&B: Catan for Two,
# the event cards and the harbormaster)
CONFIGS = (
    ("base.catan", 3, {}), ("base.catan", 4, {}),
    ("seafarers/heading_for_new_shores.catan", 4, {}), ("seafarers/four_islands.catan", 3, {}),
    ("seafarers/cloth_for_catan.catan", 4, {}),
    ("traders_barbarians/traders_and_barbarians.catan", 2, {}),
    ("traders_barbarians/traders_and_barbarians.catan", 4, {"event_cards": "on", "harbormaster": "on"}),
)
POSITIONS = count(400)  # per configuration, each resampled for every seat


@cache
def scenario(name: str):
    return catandsl.load(ROOT / "scenarios" / name)


def positions(name: str, players: int, options: dict, n: int, seed: int = 0):
    """n positions of random games (the bots propose a trade now and then), every third
    decision."""
    out = []
    game = 0
    while len(out) < n:
        g = catandsl.new_game(scenario(name), players, options, seed + game)
        bots = [RandomPlayer(100 * game + p, offers=0.05) for p in range(players)]
        s = g.new_initial_state()
        k = 0
        while not s.is_terminal() and len(out) < n:
            a = s.sample_chance() if s.is_chance_node() else bots[s.current_player()].choose(s)
            s.apply_action(a)
            k += 1
            if k % 3 == 0:
                out.append(s.clone())
        game += 1
    return out


@pytest.mark.parametrize("name,players,options", CONFIGS)
def test_the_resample_keeps_the_observation_and_conserves_everything(name, players, options):
    hidden_changed = 0
    for k, s in enumerate(positions(name, players, options, POSITIONS)):
        for seat in range(players):
            r = s.resample_from_infostate(seat, random.Random(k * 10 + seat))
            assert r.observation(seat) == s.observation(seat)
            g = r.game
            for res in range(len(g.resources)):
                assert r.bank[res] + sum(h[res] for h in r.hands) == g.bank_start[res]
            for c in g.cards:
                held = sum(row[c.index] for row in r.cards) + sum(row[c.index] for row in r.played)
                assert held + r.deck[c.index] + r.discarded[c.index] == c.count
                assert r.new_cards[c.index] <= r.cards[r.turn_player][c.index]
            assert r.seed != s.seed
            hidden_changed += r.hands != s.hands or r.cards != s.cards or r.deck != s.deck
            # the resample plays on: its legal actions are the original's for the seat to act
            if r.current_player() == seat:
                assert r.legal_actions() == s.legal_actions()
            if not r.is_terminal():
                a = r.chance_outcomes()[0][0] if r.is_chance_node() else r.legal_actions()[0]
                r.apply_action(a)
    # it does draw: many resamples differ from the truth (with one opponent, their hand is
    # all the unseen resources: only their cards and the deck may differ)
    assert hidden_changed > (POSITIONS // 4 if players > 2 else 0)


@pytest.mark.parametrize("name,players,options", [c for c in CONFIGS if c[1] > 2])
def test_the_resample_reads_nothing_the_seat_cannot_see(name, players, options):
    """Two states that differ only in opponents' hands and the deck's order give the very
    same resamples for the same RNG: the true hidden values cannot leak into them."""
    tried = 0
    for k, s in enumerate(positions(name, players, options, count(120), seed=50)):
        seat = k % players
        t = swap_hidden(s, seat)
        if t is None:
            continue
        assert t.observation(seat) == s.observation(seat)
        assert t.hands != s.hands or t.cards != s.cards  # the truth differs
        for j in range(5):
            a = s.resample_from_infostate(seat, random.Random(j))
            b = t.resample_from_infostate(seat, random.Random(j))
            assert a.serialize() == b.serialize()
        tried += 1
    assert tried >= 5  # (positions where both swaps are possible: some of them)


def test_an_opponents_hand_is_drawn_as_the_unseen_cards_allow():
    """Over many resamples, an opponent's hand follows the hypergeometric split of the
    unseen cards: each unseen card is theirs with probability their share of the hidden
    hands."""
    g = catandsl.new_game(scenario("base.catan"), 3, {}, 1)
    pos = catandsl.position(g)
    pos.hand(0, brick=2).hand(1, ore=3, wool=1).hand(2, grain=4)
    s = pos.state()
    draws = 4000
    seen = Counter()
    for j in range(draws):
        r = s.resample_from_infostate(0, random.Random(j))
        assert sum(r.hands[1]) == 4 and sum(r.hands[2]) == 4 and r.hands[0] == s.hands[0]
        seen.update({res: n for res, n in zip(g.resources, r.hands[1]) if n})
    # unseen: 3 ore, 1 wool, 4 grain; seat 1 holds half of the hidden cards
    for res, unseen in (("ore", 3), ("wool", 1), ("grain", 4)):
        mean = seen[res] / draws
        assert abs(mean - unseen / 2) < 0.06, (res, mean)
    assert seen["brick"] == seen["lumber"] == 0  # never a card that is not unseen


def test_a_resample_of_a_state_that_loses_cards_is_refused():
    g = catandsl.new_game(scenario("base.catan"), 3, {}, 1)
    s = g.new_initial_state()
    s.hands[1][0] = 2  # two brick from nowhere
    with pytest.raises(StateError):
        s.resample_from_infostate(0, random.Random(1))


def test_a_resample_needs_a_seat_and_an_rng():
    s = catandsl.new_game(scenario("base.catan"), 3, {}, 1).new_initial_state()
    with pytest.raises(ArgumentError):
        s.resample_from_infostate(5, random.Random(1))
    with pytest.raises(ArgumentError):
        s.resample_from_infostate(0, 7)


def test_the_same_rng_gives_the_same_resample():
    s = positions("base.catan", 4, {}, 60)[-1]
    a = s.resample_from_infostate(2, random.Random(7))
    b = s.resample_from_infostate(2, random.Random(7))
    assert a.serialize() == b.serialize()
