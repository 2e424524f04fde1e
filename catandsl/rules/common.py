"""Lists, players and the flow, as rules read them: `count`, `nth`, `players`,
`opponents`, `in_setup`."""

from __future__ import annotations

from typing import Any

from catandsl.rules.play import State
from catandsl.rules.registry import FLOW, STATIC, query


@query("items: list<any>", returns="int", reads=STATIC)
def count(s: State, items: list[Any]) -> int:
    """The length of a list."""
    return len(items)


@query("items: list<int>, index: int", returns="int", reads=STATIC)
def nth(s: State, items: list[int], index: int) -> int:
    """The index-th item counting from 1; past the end, the last item; of an empty list, 0."""
    if not items:
        return 0
    return items[max(1, min(index, len(items))) - 1]


@query("items: list<int>", returns="int", reads=STATIC)
def sum_of(s: State, items: list[int]) -> int:
    """The sum of a list of numbers (0 for an empty list)."""
    return sum(int(x) for x in items)


@query("condition: bool, then: any, otherwise: any", returns="any", reads=STATIC)
def if_else(s: State, condition: bool, then: Any, otherwise: Any) -> Any:
    """`then` when the condition holds, else `otherwise` (both are read first). Both are
    of one type, which is its type: two numbers make a number, two lists of words a list
    of words; branches of different types are E0504."""
    return then if condition else otherwise


@query("", returns="list<player>", reads=STATIC)
def players(s: State) -> list[int]:
    """Every player."""
    return list(range(s.game.num_players))


@query("player: player", returns="list<player>", reads=STATIC)
def opponents(s: State, player: int) -> list[int]:
    """Every other player."""
    return [p for p in range(s.game.num_players) if p != player]


@query("", returns="bool", reads=FLOW)
def in_setup(s: State) -> bool:
    """The game is still in its set-up rounds."""
    return s.stage == "setup"
