"""The code of the place expressions: `(q, r) N` (an intersection), `(q, r) NE` (a
path), `list[k]` and `x in list`, each a closure like the interpreter's others."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from catandsl.board import geometry as geo
from catandsl.rules.base import EngineError
from catandsl.rules.play import Game

if TYPE_CHECKING:
    from catandsl.ir.model import Source

Code = Callable[[dict[str, Any], Any, Any], Any]


def _int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def compiled(game: Game, op: str, value: Any, subs: tuple[Code, ...], source: Source | None) -> Code:
    f0, f1 = subs
    if op == "place":
        return _place(game, str(value), f0, f1, source)
    if op == "index":
        def index(env: dict[str, Any], s: Any, an: Any) -> Any:
            items, k = f0(env, s, an), f1(env, s, an)
            if not isinstance(items, list) or not _int(k):
                raise EngineError(f"cannot pick item {k!r} of {items!r}", source)
            if not 0 <= k < len(items):
                raise EngineError(f"item {k} is past the list of {len(items)} item(s) (counted from 0)", source)
            return items[k]
        return index

    def member(env: dict[str, Any], s: Any, an: Any) -> Any:
        x, items = f0(env, s, an), f1(env, s, an)
        if not isinstance(items, list):
            raise EngineError(f"`in` needs a list, not {items!r}", source)
        return x in items
    return member


def _place(game: Game, part: str, fq: Code, fr: Code, source: Source | None) -> Code:
    board = game.board
    if part in geo.OWN_CORNERS or part == geo.CENTRE:
        table, code, what = board.intersection_index, "i", "intersection"

        def key(q: int, r: int) -> Any:
            return geo.corner((q, r), part)
    elif part in geo.SIDE_NAMES:
        table, code, what = board.path_index, "p", "path"

        def key(q: int, r: int) -> Any:
            return geo.canonical_edge(q, r, part)
    else:
        def unknown(env: dict[str, Any], s: Any, an: Any) -> Any:
            raise EngineError(f"`{part}` is neither a corner nor a side of a hex", source)
        return unknown

    def place(env: dict[str, Any], s: Any, an: Any) -> Any:
        q, r = fq(env, s, an), fr(env, s, an)
        k = table.get(key(q, r), -1) if _int(q) and _int(r) else -1
        if k < 0:
            raise EngineError(f"there is no {what} ({q}, {r}) {part} on this board", source)
        return [code, k]
    return place
