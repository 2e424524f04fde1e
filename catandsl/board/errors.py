"""The one error instantiation raises.

A `BoardError` carries what the compiler needs to turn it into a located `Diagnostic`:
a code, a message in rulebook words, the IR `Source` of the declaration at fault (or
None when nothing in the file can be blamed) and an optional help line.

Codes (the E04xx block is the map's; the compiler reports the ones it can see without
a seed itself):

- E0403 a tile pool does not fill its slots, or a slot names an unknown pool
- E0404 a harbor spot is not between land and water
- E0405 a harbor spot names an unknown side (as the compiler reports it)
- E0406 the frame is not a closed ring, or its pieces do not cover the ring
- E0407 frame letters do not match at a joint
- E0408 the map has too many hexes
- E0409 a spiral is laid on an area that is not a hexagon (`geometry.hexagon_spiral`)
- E0410 a number constraint (avoid adjacent) cannot be satisfied
- E0411 a start or island name points at no suitable hex
- E0412 a hex is in the map twice (as the compiler reports it)
- E0413 a harbor plan has a different number of harbors and spots
- E0414 a number plan has a different number of tokens and hexes
- E0420 a map, pool or frame names an unknown terrain
- E0421 the map data is malformed (a slot without terrain or pool, a number that is
  no token, a number on water or on a hub hex, an unknown way to lay numbers or harbors)
- E0422 two harbors share a path or an intersection
- E0423 the ruleset has no map (the compiler reports this as E0605)
- E0432 an area names a hex or an intersection off the board
- E0433 a hidden pool or its stack of numbers cannot be laid
"""

from __future__ import annotations

from catandsl.diagnostics import NO_SPAN, Diagnostic, Span
from catandsl.ir.model import Source


class BoardError(Exception):
    """A map that cannot make a board: a code, a message and where the map says it."""

    def __init__(
        self, code: str, message: str, source: Source | None = None, help: str | None = None
    ):
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message
        self.source = source
        self.help = help

    def to_diagnostic(self) -> Diagnostic:
        """The same error as a Diagnostic, pointing at the declaration's line."""
        span = (
            Span(self.source.file, self.source.line, self.source.column)
            if self.source is not None
            else NO_SPAN
        )
        return Diagnostic(self.code, self.message, span, help=self.help)
