"""Routes (A.10, B.3): the longest continuous route of a player's path pieces, what
Longest Road and Longest Trade Route measure. Cached per state until a piece of that
player is placed, moved or cut off (placement and movement clear `state._routes`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from catandsl.rules.registry import BOARD, query

if TYPE_CHECKING:
    from catandsl.engine.state import State


@query("player: seat, pieces: list<piece>", returns="int", reads=BOARD)
def longest_route(s: State, player: int, pieces: list[str]) -> int:
    """The seat's longest continuous route of these pieces (a neutral seat's too)."""
    index = s.game.piece_index
    return route_length(s, player, tuple(index[p] for p in pieces))


def route_length(s: State, p: int, pieces: tuple[int, ...]) -> int:
    """The longest trail over p's path pieces of the listed kinds: it may end at an
    opponent's building but not pass it, and it passes from one kind to a kind that
    does not connect to it (road <-> ship) only at an own building."""
    key = (p, pieces)
    cached = s._routes.get(key)
    if cached is not None:
        return cached
    g = s.game
    b = g.board
    path_piece = s.path_piece
    mine = [k for k, o in enumerate(s.path_owner) if o == p and path_piece[k] in pieces]
    best = 0
    if mine:
        own = set(mine)
        ends, cpaths, owner = b.path_ends, b.corner_paths, s.corner_owner
        joins = {(x, y) for x in pieces for y in pieces
                 if x == y or (x in g.pieces[y].connects and y in g.pieces[x].connects)}
        used: set[int] = set()

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

        for c in sorted({c for x in mine for c in ends[x]}):
            walk(c, 0, -1)
    s._routes[key] = best
    return best
