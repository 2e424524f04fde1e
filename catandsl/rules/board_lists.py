"""The board as lists a rule iterates over: `for h in terrain_hexes([forest, hills])`,
then `for c in corners(h)` and `for x in sides(h)`; `board_hexes()`,
`board_intersections()` and `board_paths()` for the whole board, each site once. Each list is in ascending order of
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


@query("", returns="list<hex>", reads=STATIC)
def board_hexes(s: State) -> list[Location]:
    """Every hex of the board, ascending: land, water and frame alike (`for h in
    board_hexes() { if land(h) { ... } }`)."""
    return [location("hex", h) for h in range(len(s.game.board.hexes))]


@query("", returns="list<intersection>", reads=STATIC)
def board_intersections(s: State) -> list[Location]:
    """Every intersection of the board, each once, ascending (a rule keeps the ones it
    wants with `if`: `for c in board_intersections() { if coast(c) { ... } }`)."""
    return [location("intersection", c) for c in range(len(s.game.board.intersections))]


@query("", returns="list<path>", reads=STATIC)
def board_paths(s: State) -> list[Location]:
    """Every path of the board, each once, ascending (`for x in board_paths() { ... }`)."""
    return [location("path", x) for x in range(len(s.game.board.paths))]
