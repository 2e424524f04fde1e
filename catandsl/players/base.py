"""The player interface and the game runner."""

from __future__ import annotations

from typing import Protocol


class Player(Protocol):
    def choose(self, state) -> int:
        """One of `state.legal_actions()`."""
        ...


def play_game(game, players, seed: int | None = None, max_actions: int = 1_000_000,
              log: bool = True):
    """Play one game to its end: chance nodes are sampled by `state.sample_chance()`
    (an RNG derived from the game's seed); each decision goes to `players[current]`.
    Returns (final state, log of {"player", "action", "text"} dicts)."""
    state = game.new_initial_state()
    entries: list[dict] = []
    for _ in range(max_actions):
        if state.is_terminal():
            break
        if state.is_chance_node():
            who = -1
            a = state.sample_chance()
        else:
            who = state.current_player()
            a = players[who].choose(state)
        if log:
            entries.append({"player": who, "action": a, "text": state.action_to_string(a)})
        state.apply_action(a)
    return state, entries
