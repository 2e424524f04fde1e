"""State on a piece: a level per piece standing on an intersection or a path (a knight's
strength, 1 for an active one and 0 for one that is not), and where a player's pieces
stand.

`set_piece_level(at, n)` gives the piece on site `at` the level n and `piece_level(at)`
reads it (0 for a piece never given one, and for a site without a piece). The state keeps
the levels given as `[code, site, seat, piece, level]` records (code 0 an intersection,
1 a path), ascending, none with level 0: a record holds only while that seat's piece of
that kind stands there, and a piece taken off the board takes its level with it (the
record goes in `removal.lift` and when a piece is lifted to be moved).
`piece_sites(owner, pieces)` lists where the owner's pieces of these kinds stand.

A piece attached to another: `attach_piece(at, player, piece)` puts one of the player's
pieces from their supply onto the piece standing on `at` (a flag on a rival's knight, a
wall on a city), counted as placed, so it scores its points; `attached(at, piece)`
counts those of a kind on it. The state keeps them as `[code, site, seat, piece]`
records, ascending: an attached piece stays while a piece stands on its site (an
upgrade keeps it), goes back to its owner's supply when that piece leaves the board,
and moves with it on `move_piece_to`."""

from __future__ import annotations

from catandsl.rules.base import EngineError, Location, location
from catandsl.rules.play import State
from catandsl.rules.registry import BOARD, effect, query

_CODES = {"i": 0, "p": 1}


def _standing(s: State, code: int, k: int) -> tuple[int, int]:
    """(seat, piece kind) of the piece on intersection (code 0) or path (1) k, or (-1, -1)."""
    if code == 0:
        return s.corner_owner[k], s.corner_piece[k]
    return s.path_owner[k], s.path_piece[k]


def forget(s: State, code: int, k: int) -> None:
    """The piece on the site leaves the board: its level goes with it, and the pieces
    attached to it go back to their owners' supply."""
    if s.piece_levels:
        s.piece_levels = [r for r in s.piece_levels if (r[0], r[1]) != (code, k)]
    if s.attachments:
        for c, site, seat, pi in s.attachments:
            if (c, site) == (code, k):
                s.placed[seat][pi] -= 1
        s.attachments = [r for r in s.attachments if (r[0], r[1]) != (code, k)]


def carry(s: State, code: int, k: int, to: int) -> None:
    """The pieces attached to the piece on site k go with it to site `to` (same kind of
    site), before it is lifted off k."""
    if s.attachments:
        s.attachments = sorted([c, to if (c, site) == (code, k) else site, seat, pi]
                               for c, site, seat, pi in s.attachments)


@effect("at: site, level: int 0..1000", writes=BOARD)
def set_piece_level(s: State, at: Location, level: int) -> None:
    """The piece on the intersection or path `at` gets this level (a knight's strength;
    1 for active, 0 for not); nothing for a site without a piece, or a hex."""
    code = _CODES.get(at[0])
    if code is None:
        return
    seat, pi = _standing(s, code, at[1])
    kept = [r for r in s.piece_levels if (r[0], r[1]) != (code, at[1])]
    if seat >= 0 and level:
        kept.append([code, at[1], seat, pi, level])
        kept.sort()
    s.piece_levels = kept


@query("at: site", returns="int", reads=BOARD)
def piece_level(s: State, at: Location) -> int:
    """The level of the piece on the intersection or path `at` (0 when none was given,
    and for a site without a piece)."""
    code = _CODES.get(at[0])
    if code is None or not s.piece_levels:
        return 0
    here = _standing(s, code, at[1])
    for c, k, seat, pi, level in s.piece_levels:
        if c == code and k == at[1] and (seat, pi) == here:
            return level
    return 0


@query("owner: seat, pieces: list<piece>", returns="list<site>", reads=BOARD)
def piece_sites(s: State, owner: int, pieces: list[str]) -> list[Location]:
    """Where the owner's pieces of these kinds stand: their intersections, then their
    paths, each ascending (`for k in piece_sites(player, [knight]) { ... }`)."""
    kinds = {s.game.piece_index[p] for p in pieces}
    out = [location("intersection", k) for k, (o, pi) in enumerate(zip(s.corner_owner, s.corner_piece))
           if o == owner and pi in kinds]
    out += [location("path", k) for k, (o, pi) in enumerate(zip(s.path_owner, s.path_piece))
            if o == owner and pi in kinds]
    return out


@effect("at: site, player: player, piece: piece", writes=BOARD)
def attach_piece(s: State, at: Location, player: int, piece: str) -> None:
    """One of the player's pieces of this kind goes from their supply onto the piece
    standing on the intersection or path `at` (anybody's), counted as placed and
    scoring its points; nothing for a site without a piece, a hex, or an empty supply."""
    g = s.game
    k = g.piece_index[piece]
    info = g.pieces[k]
    if info.neutral or info.travel is not None:
        raise EngineError(f"attach_piece() attaches a player's piece from their supply, not `{piece}`")
    code = _CODES.get(at[0])
    if code is None or _standing(s, code, at[1])[0] < 0:
        return
    if s.placed[player][k] + s.pieces_lost[player][k] >= info.limit:
        return
    s.placed[player][k] += 1
    s.attachments = sorted(s.attachments + [[code, int(at[1]), player, k]])


@query("at: site, piece: piece", returns="int", reads=BOARD)
def attached(s: State, at: Location, piece: str) -> int:
    """How many pieces of this kind (anybody's) are attached to the piece on the
    intersection or path `at` (`if attached(at, banner) == 0 { ... }`)."""
    code = _CODES.get(at[0])
    k = s.game.piece_index[piece]
    return sum(1 for c, site, _seat, pi in s.attachments if (c, site, pi) == (code, at[1], k))
