"""No dead states: a state read back or built by hand is over, a chance node, or a seat
has a legal action, and it waits where the engine would wait; anything else is a
StateError (`state/dead`) naming the field that holds the decision, never a state whose
`current_player()` raises or whose seat to act can do nothing."""

from __future__ import annotations

import json

import pytest

import catandsl
from catandsl.engine import StateError
from catandsl.engine import actions as A
from catandsl.engine.flow import BetweenTurns, Effects
from tests.conftest import base_game
from tests.engine.helpers import act
from tests.engine.soundness import check_live


def _setup_state(placements: int):
    """A base game in its set-up: the start player drawn (seat 1), `placements` pieces placed."""
    g = base_game(4, seed=3)
    s = g.new_initial_state()
    act(s, A.StartPlayer(1))
    for _ in range(placements):
        s.apply_action(s.legal_actions()[0])
    return s


def _edited(s, **fields) -> str:
    data = json.loads(s.serialize())
    data.update(fields)
    return json.dumps(data)


def _refused(g, text: str, field: str) -> StateError:
    with pytest.raises(StateError) as e:
        g.deserialize_state(text)
    assert e.value.code == "state/dead" and str(e.value).startswith(field + ":"), (e.value.code, str(e.value))
    assert e.value.field == field.split("[")[0]
    return e.value


def test_a_setup_state_with_another_start_player_is_refused():
    s = _setup_state(1)  # seat 1 placed a settlement: its road is next, touching it
    assert s.current_player() == 1 and s.legal_actions()
    for other in (0, 2, 3):  # none of these has a settlement for the road to touch
        e = _refused(s.game, _edited(s, start_player=other), "setup_pos")
        assert f"the start player is {other}" in str(e)


def test_setup_pos_past_the_setup_script_is_refused():
    s = _setup_state(2)
    _refused(s.game, _edited(s, setup_pos=len(s.game.setup_script)), "setup_pos")


def test_a_set_up_before_the_start_player_is_drawn_is_refused():
    s = _setup_state(2)
    _refused(s.game, _edited(s, start_player=-1), "start_player")


def _pending(s, prompt) -> str:
    data = json.loads(s.serialize())
    data["pending"] = [prompt.to_json()]
    return json.dumps(data)


def test_a_prompt_that_settles_by_itself_is_refused():
    s = _setup_state(16)  # the set-up done: the first turn
    assert s.stage == "turn"
    g = s.game
    _refused(g, _pending(s, Effects([], {}, [], None)), "pending[0]")  # no statement left to run
    _refused(g, _pending(s, Effects([0], {}, [], None)), "pending[0]")  # a statement to run, not a wait


def test_nobody_left_to_act_between_turns_is_refused(root):
    g = catandsl.new_game(root / "examples/fan_maps/six_players.catan", 6, {}, 2)
    s = catandsl.position(g).hand(1, wool=1, grain=1, ore=1).turn(0, rolled=True).state()  # seat 1 may buy
    s.apply_action(g.end_turn_id)
    assert isinstance(s.top(), BetweenTurns)
    check_live(g.deserialize_state(s.serialize()))
    _refused(g, _pending(s, BetweenTurns([])), "pending[0]")


def test_a_position_built_dead_is_refused():
    g = base_game(4, seed=3)
    pos = catandsl.position(g).edit(stage="setup", setup_pos=len(g.setup_script))
    with pytest.raises(StateError) as e:
        pos.state()
    assert e.value.code == "state/dead" and e.value.field == "setup_pos"


def test_positions_at_every_phase_are_live():
    g = base_game(4, seed=3)
    for seat in range(4):
        for phase in range(len(g.phases)):
            s = catandsl.position(g).turn(seat, phase=phase).state()
            check_live(s)
            assert s.current_player() in (seat, catandsl.engine.CHANCE)


def test_every_state_of_a_set_up_reads_back_live():
    s = _setup_state(0)
    while s.stage == "setup":
        check_live(s.game.deserialize_state(s.serialize()))
        s.apply_action(s.legal_actions()[-1])
