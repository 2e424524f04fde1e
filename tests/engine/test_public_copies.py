"""Nothing a public method of a State or a Game returns is the state's own: every list,
dict and set in a returned value (inside tuples, prompts and states too) is edited here,
and the state is unchanged: its serialization, legal actions, chance outcomes and a
seeded continuation of the game from it. A search that sorts, shuffles or clears what it
was given changes nothing but its own copy."""

from __future__ import annotations

import dataclasses
import random
from functools import cache

import pytest

import catandsl
from catandsl.engine import Game, State
from catandsl.engine.state import FIELDS
from catandsl.players import UniformPlayer
from tests.conftest import ROOT, tb_first_draw

# What each public method is called with here (s: the state, g: its game, p: a seat).
STATE_CALLS = {
    "is_terminal": [()], "is_chance_node": [()], "current_player": [()],
    "legal_actions": [(), ("p",)], "legal_now": [()], "chance_outcomes": [()], "sample_chance": [()],
    "clone": [()], "to_json": [()], "serialize": [()], "top": [()], "before_roll": [()],
    "scores": [()], "points": [("p",)], "public_points": [("p",)], "returns": [()],
    "observation": [("p",)], "action_to_string": [("a",)], "resample_from_infostate": [("p", "rng")],
}
# Methods that change the state by design (play, or the rules' own calls).
STATE_CHANGES = {"apply_action", "changed", "emit", "push", "forget_derived"}
GAME_CALLS = {
    "num_distinct_actions": [()], "max_game_length": [()], "new_initial_state": [()],
    "deserialize_state": [("text",)], "action": [("a",)], "action_id_of": [("action",)],
    "check_action_id": [("a",)], "check_seat": [("p", "what")], "action_to_string": [("a",)],
    "action_site": [("action",), ("a",)], "location_name": [("intersection", 0), ("path", 0), ("hex", 0)],
    "phase_for": [(0, "action")], "cost_vector": [((),)],
}
# Methods that hand out the game itself or a game of the same tables (read them, never
# edit them: docs/api.md), not a value of a state. (`Game.lookups`, a rule module's tables,
# is an attribute holding a lookup, not a method: it hands out parts of the game too.)
GAME_PARTS = {"with_hexes", "reseeded"}


def _public(cls) -> set[str]:
    return {n for n, v in vars(cls).items() if not n.startswith("_") and callable(v)}


def test_every_public_method_is_called_here():
    assert _public(State) == set(STATE_CALLS) | STATE_CHANGES
    assert _public(Game) == set(GAME_CALLS) | GAME_PARTS


def _edit(value, seen: set[int]) -> None:
    """Edit every list, dict and set in `value`, at any depth (a state's fields and
    prompts, a prompt's and a dataclass's fields, tuples' items)."""
    if id(value) in seen:
        return
    seen.add(id(value))
    if isinstance(value, State):
        for f in FIELDS:
            _edit(getattr(value, f), seen)
        _edit(value.pending, seen)
        return
    if isinstance(value, Game):
        return
    if isinstance(value, list):
        for x in value:
            _edit(x, seen)
        value.reverse()
        value.append(-7)
    elif isinstance(value, dict):
        for x in list(value.values()):
            _edit(x, seen)
        value["edited"] = -7
    elif isinstance(value, set):
        value.add(-7)
    elif isinstance(value, tuple):
        for x in value:
            _edit(x, seen)
    elif dataclasses.is_dataclass(value):
        for f in dataclasses.fields(value):
            _edit(getattr(value, f.name), seen)


def _fingerprint(s) -> tuple:
    """What must not change: the text, the decision, and 40 seeded actions from here."""
    c = s.clone()
    seats = [UniformPlayer(5 + p) for p in range(s.game.num_players)]
    for _ in range(40):
        if c.is_terminal():
            break
        c.apply_action(c.sample_chance() if c.is_chance_node() else seats[c.current_player()].choose(c))
    return s.serialize(), s.legal_actions(), s.chance_outcomes(), s.current_player(), c.serialize()


@cache
def _states():
    """A chance node (the dice), a decision of the turn, a prompt waiting (a discard or a
    rule's choice), a set-up placement, a rule's draw of a token kind."""
    g = catandsl.new_game(ROOT / "scenarios/base.catan", 4, {}, 5)
    seats = [UniformPlayer(p) for p in range(4)]
    s = g.new_initial_state()
    found: dict[str, State] = {}
    while not s.is_terminal() and len(found) < 4:
        kind = ("setup" if s.stage == "setup" else "chance" if s.is_chance_node()
                else "prompt" if s.pending else "turn")
        found.setdefault(kind, s.clone())
        s.apply_action(s.sample_chance() if s.is_chance_node() else seats[s.current_player()].choose(s))
    return [*found.values(), tb_first_draw("draw_from_site")]


def _args(s, spec: tuple) -> tuple:
    g = s.game
    a = (s.legal_actions() or [0])[0]
    table = {"p": 1, "a": a, "action": g.actions[a], "text": s.serialize(), "what": "test",
             "rng": random.Random(3)}
    return tuple(table.get(x, x) if isinstance(x, str) else x for x in spec)


@pytest.mark.parametrize("k", range(5))
def test_editing_what_a_method_returns_changes_nothing(k):
    s = _states()[k].clone()
    before = _fingerprint(s)
    for owner, calls in ((s, STATE_CALLS), (s.game, GAME_CALLS)):
        for name, specs in calls.items():
            for spec in specs:
                if name == "sample_chance" and not s.is_chance_node():
                    continue
                if name == "phase_for" and s.stage != "turn":
                    continue
                value = getattr(owner, name)(*_args(s, spec))
                _edit(value, set())
                assert _fingerprint(s) == before, f"editing what {type(owner).__name__}.{name}{spec} returned"


def test_a_clone_and_its_original_share_no_chance_outcomes():
    g = catandsl.new_game(ROOT / "scenarios/base.catan", 4, {}, 5)
    s = g.new_initial_state()
    assert s.is_chance_node()
    c = s.clone()
    s.chance_outcomes().clear()
    assert c.chance_outcomes() and c.sample_chance() == s.sample_chance()
    assert g.new_initial_state().chance_outcomes() == c.chance_outcomes()
