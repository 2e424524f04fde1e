"""A player's supply of pieces lowered by a rule: `remove_from_supply(player, piece,
count)` takes pieces the player has not placed out of the game for good (a fleet lost
at sea, a levy of roads), so fewer remain to build; `pieces_left(player, piece)` counts
what remains. A piece on the board is taken off first with `remove_piece`, then out of
the supply."""

from __future__ import annotations

from catandsl.rules.play import State
from catandsl.rules.registry import BOARD, PLAYER_PIECES, effect, query


def left(s: State, player: int, k: int) -> int:
    """The pieces of kind k still in the player's supply."""
    return max(0, s.game.pieces[k].limit - s.placed[player][k] - s.pieces_lost[player][k])


@effect("player: player, pieces: list<piece>, count: int 0..100", writes=BOARD, pieces=PLAYER_PIECES)
def remove_from_supply(s: State, player: int, pieces: list[str], count: int) -> None:
    """`count` of the player's pieces of these kinds that are not on the board leave the
    game for good, from the first kind listed while it lasts, then the next (fewer if the
    supply runs short); they can no longer be built."""
    index = s.game.piece_index
    for name in dict.fromkeys(pieces):  # (each kind once, in the order written)
        k = index[name]
        n = min(count, left(s, player, k))
        s.pieces_lost[player][k] += n
        count -= n


@query("player: player, piece: piece", returns="int", reads=BOARD)
def pieces_left(s: State, player: int, piece: str) -> int:
    """How many pieces of this kind the player has in their supply: their limit, less
    those on the board and those taken out of the game (`remove_from_supply`)."""
    return left(s, player, s.game.piece_index[piece])
