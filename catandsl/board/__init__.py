"""Boards: hex geometry, and one concrete board made from a configured map and a seed.

`instantiate(ruleset, seed)` returns a `Board` (a networkx graph plus flat tables) or
raises `BoardError`. Rendering lives in `catandsl.render`; nothing here draws.
"""

from catandsl.board.board import Board
from catandsl.board.errors import BoardError
from catandsl.board.harbors import Harbor
from catandsl.board.instantiate import MAX_HEXES, find_islands, instantiate
from catandsl.board.tables import CLASS_CODE, CLASSES, Tables

__all__ = [
    "Board", "BoardError", "Harbor", "MAX_HEXES", "find_islands", "instantiate",
    "CLASSES", "CLASS_CODE", "Tables",
]
