"""The pieces on and next to a site: the builder's own network as a piece's `placed
where` reads it (a settlement that stands alone, a road that never branches, a ship on a
lane nobody else sails), anybody's, and the kind of piece on a site (a rule's yield per
terrain: a monastery at a pasture yields wool).

Next to an intersection are the paths that meet there and the intersections one path
away; next to a path, its two ends and the paths that share an end with it; next to a
hex, its corners and sides. The site itself is not counted.
"""

from __future__ import annotations

from catandsl.rules.base import Location
from catandsl.rules.play import State
from catandsl.rules.registry import BOARD, query


def _next_to(s: State, at: Location) -> tuple[list[int], list[int]]:
    """(intersections, paths) next to the site."""
    b = s.game.board
    code, k = at
    if code == "i":
        return list(b.corner_neighbours[k]), list(b.corner_paths[k])
    if code == "p":
        ends = b.path_ends[k]
        return list(ends), sorted({x for c in ends for x in b.corner_paths[c] if x != k})
    return list(b.hex_corners[k]), list(b.hex_paths[k])


def _count(s: State, at: Location, pieces: list[str], seat: int | None) -> int:
    kinds = {s.game.piece_index[p] for p in pieces}
    corners, paths = _next_to(s, at)
    n = sum(1 for c in corners if s.corner_owner[c] >= 0 and s.corner_piece[c] in kinds
            and (seat is None or s.corner_owner[c] == seat))
    return n + sum(1 for x in paths if s.path_owner[x] >= 0 and s.path_piece[x] in kinds
                   and (seat is None or s.path_owner[x] == seat))


@query("player: player, at: site, pieces: list<piece>", returns="int", reads=BOARD)
def owned_next_to(s: State, player: int, at: Location, pieces: list[str]) -> int:
    """How many of the player's pieces of these kinds stand next to the site (an
    intersection: on the paths meeting there and the intersections one path away; a
    path: on its ends and the paths sharing an end; a hex: on its corners and sides):
    `placed where owned_next_to(player, at, [road]) <= 1` keeps a player's roads one
    route without branches."""
    return _count(s, at, pieces, player)


@query("at: site, pieces: list<piece>", returns="int", reads=BOARD)
def pieces_next_to(s: State, at: Location, pieces: list[str]) -> int:
    """How many pieces of these kinds, whoever owns them, stand next to the site (as
    `owned_next_to` counts): with it, `placed where` keeps a lane to one player."""
    return _count(s, at, pieces, None)


@query("at: site, pieces: list<piece>", returns="bool", reads=BOARD)
def piece_at(s: State, at: Location, pieces: list[str]) -> bool:
    """Whether a player's piece of one of these kinds stands on the site (an intersection
    or a path; `owner(at)` says whose): `if piece_at(c, [city]) { ... }` gives a city a
    yield of its own on some terrains."""
    code, k = at
    kinds = {s.game.piece_index[p] for p in pieces}
    if code == "i":
        return s.corner_owner[k] >= 0 and s.corner_piece[k] in kinds
    if code == "p":
        return s.path_owner[k] >= 0 and s.path_piece[k] in kinds
    return False
