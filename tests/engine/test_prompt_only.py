"""Actions that change their prompt alone (Action.PROMPT_ONLY: a trade's draft, the
answers to an offer): when the engine counts one as no write (State._writes unchanged),
no field of the state but the count of actions applied has changed, on random games of
every shipped scenario. The observers rely on it to skip reading the fields."""

from __future__ import annotations

import random

import pytest

import catandsl
from catandsl import resources
from catandsl.players import RandomPlayer

SHIPPED = resources.shipped_scenarios()


def _fields(s) -> dict:
    """The state's fields but the count of actions applied (and the prompts, which such an
    action changes)."""
    out = s.to_json()
    del out["actions_applied"], out["pending"]
    return out


@pytest.mark.parametrize("shipped", SHIPPED, ids=lambda s: s.name)
def test_an_action_counted_as_no_write_changes_no_field_but_the_count_of_actions(shipped):
    scenario = catandsl.load(shipped.path)
    players = scenario.players_max
    g = catandsl.new_game(scenario, players=players, seed=3)
    bots = [RandomPlayer(30 + p, offers=0.5) for p in range(players)]
    s = g.new_initial_state()
    rng = random.Random(3)
    while not s.is_terminal() and s.actions_applied < 600:
        if s.is_chance_node():
            s.apply_action(s.sample_chance())
            continue
        action = bots[s.current_player()].choose(s) if rng.random() < 0.9 else rng.choice(s.legal_now())
        before, writes, applied = _fields(s), s._writes, s.actions_applied
        kind = type(g.actions[action])
        s.apply_action(action)
        if s._writes == writes:
            assert kind.PROMPT_ONLY, kind
            assert s.actions_applied == applied + 1
            assert _fields(s) == before, (shipped.name, kind.KIND)
        else:
            assert s._writes == writes + 1


def test_some_trade_steps_count_as_no_write_and_the_others_as_one():
    g = catandsl.new_game(catandsl.load(resources.scenarios_dir() / "base.catan"), players=3, seed=1)
    bots = [RandomPlayer(p, offers=0.5) for p in range(3)]
    s = g.new_initial_state()
    alone = written = 0
    while not s.is_terminal() and s.actions_applied < 2000:
        writes = s._writes
        s.apply_action(s.sample_chance() if s.is_chance_node() else bots[s.current_player()].choose(s))
        alone += s._writes == writes
        written += s._writes == writes + 1
    assert alone > 50 and written > 50 and alone + written == s.actions_applied
    clone = s.clone()
    clone.changed()  # a hand edit counts as a write
    assert clone._writes == 1
