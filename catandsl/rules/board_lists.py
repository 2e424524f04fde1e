"""The board as lists a rule iterates over: `for h in terrain_hexes([forest, hills])`,
then `for c in corners(h)` and `for x in sides(h)`. Each list is in ascending order of
the board's numbering, so a rule that acts on each item in turn does so in the same
order in every game."""

from __future__ import annotations

from catandsl.rules.base import Location, location
from catandsl.rules.play import State
from catandsl.rules.registry import STATIC, query


@query("terrains: list<terrain>", returns="list<hex>", reads=STATIC)
def terrain_hexes(s: State, terrains: list[str]) -> list[Location]:
    """The board hexes of these terrains, as the board is now (a hex whose terrain a rule
    changed counts as its new one): `for h in terrain_hexes([forest]) { ... }`."""
    b = s.game.board
    wanted = set(terrains)
    return [location("hex", h) for h in range(len(b.hexes)) if b.terrain(h) in wanted]


@query("at: hex", returns="list<intersection>", reads=STATIC)
def corners(s: State, at: Location) -> list[Location]:
    """The six intersections at the corners of a hex, ascending."""
    return [location("intersection", c) for c in sorted(s.game.board.hex_corners[at[1]])]


@query("at: hex", returns="list<path>", reads=STATIC)
def sides(s: State, at: Location) -> list[Location]:
    """The six paths along the sides of a hex, ascending."""
    return [location("path", x) for x in sorted(s.game.board.hex_paths[at[1]])]
