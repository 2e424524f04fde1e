"""Routes (A.10, B.3): the longest continuous route of a player's path pieces, what
Longest Road and Longest Trade Route measure.

A route may end at an opponent's building but not pass it, and it passes from one kind
to a kind that does not connect to it (road <-> ship) only at an own building; so it
never leaves a *line*: the seat's pieces joined to each other the way a route may pass
(rules/network.py keeps the lines). The longest route is the longest over the lines,
and each line's length is kept until a piece placed, moved or cut off next to it
changes it: a new road is measured with its own line, not with every line of every
player.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from catandsl.rules import network
from catandsl.rules.network import Line
from catandsl.rules.registry import BOARD, query

if TYPE_CHECKING:
    from catandsl.engine.state import State


@query("player: seat, pieces: list<piece>", returns="int", reads=BOARD)
def longest_route(s: State, player: int, pieces: list[str]) -> int:
    """The seat's longest continuous route of these pieces (a neutral seat's too)."""
    index = s.game.piece_index
    return route_length(s, player, tuple(index[p] for p in pieces))


def route_length(s: State, p: int, pieces: tuple[int, ...]) -> int:
    """The longest trail over p's path pieces of the listed kinds (see the module's doc)."""
    net = network.of(s)
    key = (p, pieces)
    best = net.longest.get(key)
    if best is not None:
        return best
    lines = net.lines.setdefault(key, [])
    known = set().union(*(line.paths for line in lines))
    path_piece = s.path_piece
    rest = {k for k in net.paths[p] if path_piece[k] in pieces and k not in known}
    if rest:
        joins = _joins(s, pieces)
        for group in _lines_of(s, p, rest, joins):
            lines.append(_measured(s, p, group, joins))
    best = net.longest[key] = max((line.length for line in lines), default=0)
    return best


def _joins(s: State, pieces: tuple[int, ...]) -> set[tuple[int, int]]:
    """The pairs of kinds a route passes between anywhere (else only at an own building)."""
    P = s.game.pieces
    return {(x, y) for x in pieces for y in pieces
            if x == y or (x in P[y].connects and y in P[x].connects)}


def _lines_of(s: State, p: int, own: set[int], joins: set[tuple[int, int]]) -> list[frozenset[int]]:
    """The pieces `own` grouped into lines: two pieces whose common intersection a route
    may pass from one to the other are in one line."""
    b = s.game.board
    owner, path_piece = s.corner_owner, s.path_piece
    out = []
    left = set(own)
    while left:
        start = min(left)
        left.discard(start)
        group, stack = [start], [start]
        while stack:
            x = stack.pop()
            for c in b.path_ends[x]:
                o = owner[c]
                if o != -1 and o != p:
                    continue  # an opponent's building: a route ends here
                for y in b.corner_paths[c]:
                    if y in left and (o == p or (path_piece[x], path_piece[y]) in joins):
                        left.discard(y)
                        group.append(y)
                        stack.append(y)
        out.append(frozenset(group))
    return out


def _measured(s: State, p: int, own: frozenset[int], joins: set[tuple[int, int]]) -> Line:
    """A line with its longest trail: from every intersection at its pieces' ends, every
    way on, depth first."""
    b = s.game.board
    path_piece = s.path_piece
    ends, cpaths, owner = b.path_ends, b.corner_paths, s.corner_owner
    used: set[int] = set()
    best = 0

    def walk(c: int, length: int, kind: int) -> None:
        nonlocal best
        if length > best:
            best = length
        if owner[c] != -1 and owner[c] != p and length > 0:
            return  # an opponent's building: the route may end here, not pass
        home = owner[c] == p
        for x in cpaths[c]:
            if x in own and x not in used:
                kx = path_piece[x]
                if length > 0 and not home and (kind, kx) not in joins:
                    continue  # road <-> ship only through an own building
                used.add(x)
                a, z = ends[x]
                walk(z if a == c else a, length + 1, kx)
                used.discard(x)

    corners = frozenset(c for x in own for c in ends[x])
    for c in sorted(corners):
        walk(c, 0, -1)
    return Line(own, corners, best)
