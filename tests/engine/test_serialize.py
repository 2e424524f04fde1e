"""Serialized states: every reachable state (pending prompts included) comes back equal
and plays on the same; anything a game could not reach is refused with a StateError
naming the field, never a KeyError, a crash later in play, or a silent acceptance."""

from __future__ import annotations

import json

import pytest

from catandsl.engine import StateError
from catandsl.players import UniformPlayer
from tests.conftest import base_game


def _states(g, seed: int, every: int = 7):
    """States of one uniformly random game, every `every` actions."""
    seats = [UniformPlayer(seed * 10 + p) for p in range(g.num_players)]
    s = g.new_initial_state()
    n = 0
    while not s.is_terminal():
        if n % every == 0:
            yield s.clone()
        a = s.sample_chance() if s.is_chance_node() else seats[s.current_player()].choose(s)
        s.apply_action(a)
        n += 1
    yield s


def test_every_state_round_trips_and_plays_on_the_same():
    g = base_game(4, seed=5)
    kinds = set()
    for s in _states(g, 5):
        text = s.serialize()
        back = g.deserialize_state(text)
        assert back == s and back.serialize() == text
        assert back.legal_actions() == s.legal_actions() and back.current_player() == s.current_player()
        kinds.update(p.KIND for p in s.pending)
        if not s.is_terminal():  # the same next action gives the same state
            a = s.sample_chance() if s.is_chance_node() else s.legal_actions()[-1]
            s.apply_action(a)
            back.apply_action(a)
            assert back == s
    assert {"discard", "composing", "offer", "effects"} <= kinds  # prompts were serialized on the way


def _tampered(s, **fields) -> str:
    data = json.loads(s.serialize())
    data.update(fields)
    return json.dumps(data)


@pytest.fixture(scope="module")
def mid():
    g = base_game(4, seed=5)
    for k, s in enumerate(_states(g, 5, every=50)):
        if k == 4:
            return s
    raise AssertionError("the game was too short")


@pytest.mark.parametrize("text", ["{}", "null", "[]", "42", '"state"', "not json", "[" * 100_000 + "]" * 100_000])
def test_not_a_state(mid, text):
    with pytest.raises(StateError):
        mid.game.deserialize_state(text)


def test_tampered_states_are_refused_with_the_field(mid):
    g = mid.game
    data = json.loads(mid.serialize())
    hands = [h[:] for h in data["hands"]]
    hands[0][0] -= 5 + hands[0][0]
    cases = {
        "hands": _tampered(mid, hands=hands),
        "turn_player": _tampered(mid, turn_player=9),
        "format": _tampered(mid, format=1),
        "stage": _tampered(mid, stage="party"),
        "seed": _tampered(mid, seed=mid.seed + 1),
        "pending": _tampered(mid, pending=[{"kind": "discard", "owed": [[7, 1]]}]),
        "pending[0]": _tampered(mid, pending=[{"kind": "nonsense"}]),
    }
    settlement = g.piece_index["settlement"]
    placed = [p[:] for p in data["placed"]]
    placed[0][settlement] = 20
    cases["placed"] = _tampered(mid, placed=placed)
    cards = [c[:] for c in data["cards"]]
    cards[1][g.card_index["victory_point"]] += 50
    cases["cards"] = _tampered(mid, cards=cards)
    for field, text in cases.items():
        with pytest.raises(StateError) as refused:
            g.deserialize_state(text)
        assert str(refused.value).split(":")[0].startswith(field.split("[")[0]) or field in str(refused.value), \
            (field, str(refused.value))
    missing = json.loads(mid.serialize())
    del missing["bank"]
    with pytest.raises(StateError, match="missing fields: bank"):
        g.deserialize_state(json.dumps(missing))


def test_award_holders_are_recomputed_on_load(mid):
    g = mid.game
    data = json.loads(mid.serialize())
    road = [a.name for a in g.awards].index("longest_road")
    holder = data["award_holder"][road]
    data["award_holder"][road] = (holder + 1) % 4 if holder >= 0 else 0  # stale
    back = g.deserialize_state(json.dumps(data))
    assert back.award_holder == mid.award_holder and back == mid
