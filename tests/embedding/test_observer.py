"""The Observer: a fixed-size tensor per player with named slices that shows what that
player may see and nothing more, and a legal-action mask over the action table. Its
kept tensors (rewritten where the state changed) equal the straightforward reference
(`Observer.reference`, from `state.observation(player)`) on thousands of positions of
every shipped scenario, as lists and as numpy arrays, bit for bit."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

import catandsl
from catandsl import resources
from catandsl.engine.observer import Observer, layout_of
from catandsl.players import RandomPlayer

ROOT = Path(__file__).resolve().parents[2]
SHIPPED = resources.shipped_scenarios()
POSITIONS = 1000  # positions checked per scenario, at least


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


def test_the_layout_is_planned_once_for_the_games_of_a_scenario_and_player_count():
    scenario = catandsl.load(ROOT / "scenarios/base.catan")
    games = [catandsl.new_game(scenario, players=3, seed=s, options={"layout": "random"}) for s in (1, 2)]
    assert games[0].board.hex_terrain != games[1].board.hex_terrain  # two deals...
    assert layout_of(games[0]) is layout_of(games[1]) is Observer(games[1]).layout  # ...one layout
    assert layout_of(catandsl.new_game(scenario, players=4, seed=1)) is not layout_of(games[0])


def _configs(scenario):
    """Each player count the scenario allows at its ends, with its options' defaults and
    with every option at its last item."""
    other = {o.name: o.items[-1].name for o in scenario.options}
    for players in sorted({scenario.players_min, scenario.players_max}):
        yield players, None
        if other:
            yield players, other


@pytest.mark.parametrize("shipped", SHIPPED, ids=lambda s: s.name)
def test_kept_tensors_equal_the_reference_on_every_shipped_scenario(shipped):
    np = pytest.importorskip("numpy")
    from catandsl.adapters.arrays import ArrayObserver

    scenario = catandsl.load(shipped.path)
    positions = 0
    for players, options in _configs(scenario):
        for seed in (1, 2):
            g = catandsl.new_game(scenario, players=players, options=options, seed=seed)
            obs = Observer(g)
            arrays = ArrayObserver(obs)
            bots = [RandomPlayer(seed * 10 + p, offers=0.2) for p in range(players)]
            rng = random.Random(seed)
            s = g.new_initial_state()
            while not s.is_terminal() and s.actions_applied < 450:
                # a seat at random (so a kept tensor skips the positions others saw), all now and then
                for p in range(players) if rng.random() < 0.2 else [rng.randrange(players)]:
                    want = obs.reference(s, p)
                    assert obs.tensor(s, p) == want, (shipped.name, s.actions_applied, p)
                    got = arrays.tensor(s, p)
                    assert got.dtype == np.float32 and got.tobytes() == np.asarray(want, np.float32).tobytes()
                assert arrays.mask(s).tolist() == obs.legal_mask(s)
                positions += 1
                s.apply_action(s.sample_chance() if s.is_chance_node() else bots[s.current_player()].choose(s))
    assert positions >= POSITIONS


def test_a_kept_tensor_follows_any_state_it_is_shown():
    """Clones, an earlier point of the game, another game's state, a position edited by
    hand: what was written last is compared, not tracked, so each shows as itself."""
    scenario = catandsl.load(ROOT / "scenarios/base.catan")
    g, h = (catandsl.new_game(scenario, players=3, seed=s, options={"layout": "random"}) for s in (5, 6))
    obs = Observer(g)
    bots = [RandomPlayer(k) for k in range(3)]
    s = g.new_initial_state()
    kept = []
    while not s.is_terminal() and s.actions_applied < 300:
        if s.actions_applied % 50 == 0:
            kept.append(s.clone())
        s.apply_action(s.sample_chance() if s.is_chance_node() else bots[s.current_player()].choose(s))
    other = h.new_initial_state()
    edited = catandsl.position(g).hand(1, ore=3).place(1, "settlement", (0, 0, "N")).state()
    for state in [s, *kept, other, s, edited, kept[0], other]:
        for p in range(3):
            assert obs.tensor(state, p) == obs.reference(state, p)


def test_scores_follow_a_change_the_tensor_did_not_need_to_write():
    """A victory point card in the hand counts in the seat's own score, not in the
    others' view of it: the kept scores are counted again when the cards change."""
    g = catandsl.new_game(catandsl.load(ROOT / "scenarios/base.catan"), players=3, seed=1)
    obs = Observer(g)
    a, _ = obs.slices["scores"]
    blank = catandsl.position(g).state()
    assert obs.tensor(blank, 0)[a] == 0.0 and obs.tensor(blank, 1)[a] == 0.0
    s = catandsl.position(g).cards(0, held={"victory_point": 1}).state()
    assert obs.tensor(s, 0)[a] == 1.0 and obs.tensor(s, 1)[a] == 0.0
    assert obs.tensor(blank, 0)[a] == 0.0


def test_a_kept_tensor_after_trade_steps_and_hand_edits():
    """Steps of a trade's draft leave the fields as they were (the tensor reads them no
    more); a hand edit between them, with changed() called, or with no action since, is
    seen."""
    g = catandsl.new_game(catandsl.load(ROOT / "scenarios/base.catan"), players=3, seed=1)
    obs = Observer(g)
    bots = [RandomPlayer(k, offers=0.5) for k in range(3)]
    s = g.new_initial_state()
    steps = edits = 0
    while not s.is_terminal() and s.actions_applied < 1500:
        if s.is_chance_node():
            s.apply_action(s.sample_chance())
            continue
        p = s.current_player()
        assert obs.tensor(s, p) == obs.reference(s, p)
        writes = s._writes
        s.apply_action(bots[p].choose(s))
        if s._writes == writes and s.current_player() == p:  # a step of p's draft: p looks again
            steps += 1
            assert obs.tensor(s, p) == obs.reference(s, p)
            s.hands[p][0] += 1  # an edit by hand
            if steps % 2:
                assert obs.tensor(s, p) == obs.reference(s, p)  # seen with no action since
            else:  # seen after one more step of the draft: changed() says the fields moved
                s.changed()
                s.apply_action(bots[p].choose(s))
            edits += 1
    assert steps > 20 and edits == steps
