"""Named areas of a map (`area strip [(0, 0), (1, 0), (2, -1) N]`): parts of the board
smaller than an island that rules name, for "set up only in this part" or "2 points for
the first settlement in that strip". An area holds its hexes, the intersections named
and every corner of its hexes, and the paths with both ends in it; `in_area` reads the
board alone, so a piece's or set-up step's `where` may use it."""

from __future__ import annotations

from catandsl.rules.base import Location
from catandsl.rules.play import State
from catandsl.rules.registry import BOARD, NEUTRAL, STATIC, query


@query("at: site, area: area", returns="bool", reads=STATIC)
def in_area(s: State, at: Location, area: str) -> bool:
    """Whether a site lies in the area: a hex of it, an intersection of it (named, or a
    corner of one of its hexes), a path with both ends in it."""
    b = s.game.board
    code, k = at
    if code == "h":
        return k in b.area_hexes[area]
    if code == "i":
        return k in b.area_corners[area]
    return k in b.area_paths[area]


@query("area: area, pieces: list<piece>", returns="int", reads=(BOARD, NEUTRAL))
def pieces_in_area(s: State, area: str, pieces: list[str]) -> int:
    """How many of these pieces stand in the area, whoever owns them (neutral ones on
    its hexes and paths too, and travelling pieces on its paths): `pieces_in_area(strip,
    [settlement]) == 1` right after a settlement is built there says it is the first."""
    g, b = s.game, s.game.board
    kinds = {g.piece_index[p] for p in pieces}
    corners, paths, hexes = b.area_corners[area], b.area_paths[area], b.area_hexes[area]
    n = sum(1 for c in corners if s.corner_piece[c] in kinds)
    n += sum(1 for k in paths if s.path_piece[k] in kinds)
    n += _travellers_in(s, paths, kinds, -1)
    for u, at in enumerate(s.neutral_at):
        if at >= 0 and g.neutral_kind[u] in kinds:
            site_ = g.pieces[g.neutral_kind[u]].site
            n += at in (hexes if site_ == "hex" else paths if site_ == "path" else corners)
    return n


@query("player: player, area: area, pieces: list<piece>", returns="int", reads=BOARD)
def owned_in_area(s: State, player: int, area: str, pieces: list[str]) -> int:
    """How many of these pieces the player has in the area (on its intersections and its
    paths, a travelling piece too): `owned_in_area(player, market, [settlement, city]) > 0`
    says they build there."""
    g, b = s.game, s.game.board
    kinds = {g.piece_index[p] for p in pieces}
    paths = b.area_paths[area]
    n = sum(1 for c in b.area_corners[area] if s.corner_owner[c] == player and s.corner_piece[c] in kinds)
    n += sum(1 for k in paths if s.path_owner[k] == player and s.path_piece[k] in kinds)
    return n + _travellers_in(s, paths, kinds, player)


def _travellers_in(s: State, paths, kinds: set[int], player: int) -> int:
    """Travelling pieces of these kinds on the area's paths (a traveller stands beside
    whatever holds its path, so `path_piece` never shows it); `player` -1: anyone's."""
    return sum(1 for p, pi, k, *_ in s.travellers
               if pi in kinds and k in paths and (player < 0 or p == player))
