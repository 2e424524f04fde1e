"""What every state of every game must be, checked from outside the engine: live (over,
a chance node with its outcomes, or the seat to act has a legal action) and saved and
loaded back equal (the same text, the same decision, the same views, the same game from
there on). The random-game tests check it after every action, and bench/soak.py over
thousands of games."""

from __future__ import annotations

import json

from catandsl.engine import CHANCE, TERMINAL


def check_live(s) -> None:
    """Play can go on from `s`: the game is over, or chance acts with outcomes whose
    probabilities add up to 1, or a seat acts and has a legal action."""
    p = s.current_player()
    if s.is_terminal():
        assert p == TERMINAL and s.legal_actions() == [], "a game over with someone to act"
        return
    if s.is_chance_node():
        outcomes = s.chance_outcomes()
        assert p == CHANCE and outcomes, "a chance node without outcomes"
        assert abs(sum(pr for _, pr in outcomes) - 1) < 1e-9, "chance probabilities do not add up to 1"
        assert s.legal_actions() == [a for a, _ in outcomes]
        return
    assert 0 <= p < s.game.num_players, f"{p} is to act: not a seat"
    assert s.legal_actions(p), f"player {p} is to act and has no legal action: a dead state"


def round_trip(s, text: str | None = None, seen: int | None = None, copies: bool = True):
    """`s` saved and loaded back is `s`: the same text (`text`, its serialization, if the
    caller has it), the same decision (who acts, the legal actions, the chance
    outcomes), the same points for every seat and the same observation for every seat
    (only seat `seen`'s if given: the rest of an observation is the text's, and a
    game's checks take the seats in turn); with `copies`, a clone and `to_json()` too.
    Returns the state read back, so the caller can play on both and compare
    (`play_checked`)."""
    g = s.game
    text = s.serialize() if text is None else text
    back = g.deserialize_state(text)
    assert back.serialize() == text, "the state read back serializes differently"
    if copies:
        assert s.clone().serialize() == text, "a clone serializes differently"
        assert s.to_json() == json.loads(text), "to_json() is not what serialize() writes"
    assert back.is_terminal() == s.is_terminal() and back.is_chance_node() == s.is_chance_node()
    assert back.current_player() == s.current_player()
    assert back.legal_actions() == s.legal_actions()
    assert back.chance_outcomes() == s.chance_outcomes()
    assert back.scores() == s.scores()
    assert [back.public_points(p) for p in range(g.num_players)] == [s.public_points(p) for p in range(g.num_players)]
    for p in range(g.num_players) if seen is None else (seen,):
        assert back.observation(p) == s.observation(p), f"seat {p} sees another game after loading"
    return back


COPIES = 8  # actions between the checks of clone() and to_json() in a checked game


def play_checked(game, seats, check=None):
    """Play one game to its end: chance samples, `seats[p].choose(state)` decides.
    Before every action the state is live and round-trips (the seats' observations
    compared in turn; a clone and `to_json()` every COPIES-th action and at the end),
    and the state read back plays the action to the same next state; `check(state)` (the
    caller's own invariants) runs after every action. Returns the final state and its
    length."""
    s = game.new_initial_state()
    text = s.serialize()
    n = 0
    while True:
        check_live(s)
        back = round_trip(s, text, n % game.num_players, n % COPIES == 0 or s.is_terminal())
        if s.is_terminal():
            return s, n
        assert n < game.max_game_length(), "the game ran past its bound"
        a = s.sample_chance() if s.is_chance_node() else seats[s.current_player()].choose(s)
        s.apply_action(a)
        back.apply_action(a)
        n += 1
        text = s.serialize()
        assert back.serialize() == text, f"the state read back played {s.action_to_string(a)} differently"
        if check is not None:
            check(s)
