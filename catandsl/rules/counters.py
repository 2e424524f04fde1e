"""Counters (`counter NAME`, `counter NAME { per turn }`): a number each player keeps,
starting at 0, that rules set and read: a once-a-turn flag shared by several actions,
the steps a wagon made over some roads this turn. A `per turn` counter goes back to 0
for everyone when a turn begins (engine/flow.py); a `shared` counter has one value for
the whole game (a scenario-wide variable), kept in the first seat's row. State data:
`counters[player][k]`, in the order the counters are declared."""

from __future__ import annotations

from catandsl.rules.play import State
from catandsl.rules.registry import FLOW, effect, query

MAX_COUNT = 1_000_000  # a counter's value; a rule that goes past it stops there


def _k(s: State, counter: str) -> int:
    return s.game.counter_index[counter]


def _row(s: State, player: int, k: int) -> list[int]:
    """The row a player's value of counter k is kept in: a `shared` counter's one value
    is the first seat's, whichever player a rule names."""
    return s.counters[0 if s.game.counter_shared[k] else player]


@query("player: player, counter: counter", returns="int", reads=FLOW)
def counter(s: State, player: int, counter: str) -> int:
    """The player's value of the counter (0 until a rule sets it); of a `shared` counter,
    its one value, whichever player is named."""
    k = _k(s, counter)
    return _row(s, player, k)[k]


@effect("player: player, counter: counter, value: int 0..1000000", writes=FLOW)
def set_counter(s: State, player: int, counter: str, value: int) -> None:
    """Sets the player's counter to `value` (a `shared` counter's one value)."""
    k = _k(s, counter)
    _row(s, player, k)[k] = value


@effect("player: player, counter: counter, count: int -1000..1000", writes=FLOW)
def add_to_counter(s: State, player: int, counter: str, count: int) -> None:
    """Adds `count` (which may be negative) to the player's counter, which stays within
    0 and 1,000,000."""
    k = _k(s, counter)
    row = _row(s, player, k)
    row[k] = max(0, min(MAX_COUNT, row[k] + count))
