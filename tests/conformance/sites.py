"""Sites by name for the conformance tests, as the board names them
(catandsl/board/geometry.py): a hex `(q, r)`; an intersection by a hex and one of its six
corners (`"N"`, `"NE"`, ... `"NW"`); a path by a hex and one of its six sides (`"NE"`,
`"E"`, ... `"NW"`), any of the hexes that share it; then lines of paths, and the
landmarks several tests share."""

from __future__ import annotations

# Landmarks of Heading for New Shores for 4 players (seed 1, harbors shuffled): HOME is a
# coastal intersection of the main island under the sea hexes (1,2) and (2,2); the sea
# path P1 leads north to C1, a corner of the small island's hex (2,1) (a gold field);
# its coast P2 leads on to C2, a corner of both of that island's hexes; MAIN3 are three
# road paths from HOME inland.
HOME, C1, C2 = (1, 3, "N"), (2, 1, "S"), (2, 1, "SE")
P1, P2 = (2, 2, "W"), (2, 1, "SE")
MAIN3 = [(1, 3, "NE"), (2, 3, "W"), (1, 4, "NE")]

# The trade hexes of Traders & Barbarians.
HUB_AT = {"castle": (0, -2), "quarry": (2, 0), "glassworks": (-2, 2)}


def hexid(g, q: int, r: int) -> int:
    return g.board.hex_id(q, r)


def corner(g, q: int, r: int, name: str) -> int:
    return g.board.intersection_id(q, r, name)


def side(g, q: int, r: int, name: str) -> int:
    return g.board.path_id(q, r, name)


def other_end(g, path: int, end: int) -> int:
    a, b = g.board.path_ends[path]
    return b if a == end else a


def ring(g, q: int, r: int) -> list[int]:
    """The six sides of a hex, clockwise from its upper right."""
    return [side(g, q, r, x) for x in ("NE", "E", "SE", "SW", "W", "NW")]


def line(g, start: int, paths: list[int]) -> list[int]:
    """The intersections along a line of paths from `start`, both ends included."""
    out = [start]
    for k in paths:
        out.append(other_end(g, k, out[-1]))
    return out


def trail(g, start: int, n: int, piece: str = "road", avoid: frozenset[int] = frozenset()) -> list[int]:
    """n paths the piece may stand on, in a line from intersection `start` that never
    comes back to an intersection nor touches one of `avoid` (the first path found at
    each step, so the same board gives the same line)."""
    b = g.board
    allowed = g.pieces[g.piece_index[piece]].allowed_set
    paths: list[int] = []
    seen = [start]
    while len(paths) < n:
        c = seen[-1]
        nxt = next(k for k in b.corner_paths[c] if k in allowed and other_end(g, k, c) not in seen
                   and other_end(g, k, c) not in avoid)
        paths.append(nxt)
        seen.append(other_end(g, nxt, c))
    return paths


def near(g, corners) -> frozenset[int]:
    """The intersections and their neighbours: where another line should not pass."""
    b = g.board
    return frozenset(c for x in corners for c in (x, *b.corner_neighbours[x]))


def spur(g, hub: str, to: str) -> int:
    """The spur from a trade hex's centre to its corner `to`."""
    return side(g, *HUB_AT[hub], f"C-{to}")
