"""The player interface and the game runner."""

from __future__ import annotations

from typing import Protocol


class Player(Protocol):
    def choose(self, state) -> int:
        """One of `state.legal_actions()`."""
        ...


def play_game(game, players, seed: int | None = None, log: bool = True):
    """Play one game to its end (every game ends within `game.max_game_length()`
    actions, the engine sees to that): chance nodes are sampled by `state.sample_chance()`
    (an RNG derived from the game's seed); each decision goes to `players[current]`.
    Returns (final state, log of {"player", "action", "text", "notes"} dicts); `notes`
    says what the action brought about beyond itself: special victory points earned, an
    award changing hands."""
    state = game.new_initial_state()
    entries: list[dict] = []
    while not state.is_terminal():
        if state.is_chance_node():
            who = -1
            a = state.sample_chance()
        else:
            who = state.current_player()
            a = players[who].choose(state)
        if not log:
            state.apply_action(a)
            continue
        entry = {"player": who, "action": a, "text": state.action_to_string(a)}
        tokens, holders = len(state.vp_tokens), list(state.award_holder)
        state.apply_action(a)
        entry["notes"] = _notes(game, state, tokens, holders)
        entries.append(entry)
    return state, entries


def _notes(game, state, tokens: int, holders: list[int]) -> list[str]:
    """Readable lines for what an action brought about beyond itself: special victory
    points laid under a building, an award taken or set aside."""
    notes = []
    for p, corner, n in state.vp_tokens[tokens:]:
        q, r, c = game.board.intersections[corner]
        notes.append(f"P{p + 1} earns {n} special victory point{'s' if n != 1 else ''} "
                     f"at ({q},{r}) {c}")
    for k, (old, new) in enumerate(zip(holders, state.award_holder)):
        if old != new:
            title = game.awards[k].title
            notes.append(f"P{new + 1} takes {title}" if new >= 0 else f"{title} is set aside")
    return notes
