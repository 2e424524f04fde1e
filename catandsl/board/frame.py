"""The frame: a ring of sea positions around the map, covered by lettered frame pieces.

The frame's positions are the hexes next to the map that are not in it. They are put
in a cycle clockwise around the map's centre, starting from the topmost (then
leftmost) position, and the pieces are laid along that cycle in declaration order.
Letters matter to people building the physical frame: A joins A, and
an extension piece (X at both ends) may only stand in a joint the frame allows.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from catandsl.board import geometry as geo
from catandsl.board.errors import BoardError
from catandsl.ir.model import Frame, FramePiece


@dataclass(frozen=True)
class FramePosition:
    """A hex of the frame's ring: the frame piece covering it and its letter."""

    hex: geo.Hex
    piece: int  # index into Frame.pieces
    label: str | None


def frame_ring(map_hexes: list[geo.Hex], frame: Frame) -> tuple[geo.Hex, ...]:
    """The frame positions around the map, clockwise from the topmost one; E0406 when
    they do not form one closed ring of hexes (a hole or an inlet in the map)."""
    if not map_hexes:
        raise BoardError("E0406", "the frame has no map inside it", frame.source)
    inside = set(map_hexes)
    positions = sorted(
        {n for h in map_hexes for n in geo.neighbours(h) if n not in inside}, key=geo.hex_key
    )
    centre = _centroid(map_hexes)
    start = positions[0]  # smallest r, then q: hex_key order

    def clockwise(h: geo.Hex) -> tuple:
        # y grows downwards on the page, so a growing angle turns clockwise. Rounding
        # keeps exact ties (symmetric maps) ties, broken by distance then geometry.
        turn = (_angle(h, centre) - _angle(start, centre)) % (2 * math.pi)
        if h == start:
            turn = 0.0
        x, y = geo.pixel(h)
        return (round(turn, 9), round(math.hypot(x - centre[0], y - centre[1]), 9), geo.hex_key(h))

    ring = sorted(positions, key=clockwise)
    for a, b in zip(ring, ring[1:] + ring[:1]):
        if not geo.are_adjacent(a, b):
            raise BoardError(
                "E0406",
                f"the frame is not a closed ring: frame positions {_hex(a)} and {_hex(b)} "
                "are not neighbours",
                frame.source,
                help="the map must be one piece without holes or inlets; fill them with sea hexes",
            )
    return tuple(ring)


def lay_frame(map_hexes: list[geo.Hex], frame: Frame) -> tuple[FramePosition, ...]:
    """Check the frame's pieces against the ring and say which piece covers each position."""
    ring = frame_ring(map_hexes, frame)
    for index, piece in enumerate(frame.pieces):
        if piece.length < 1:
            raise BoardError(
                "E0406", f"frame piece {_piece_name(index, piece)} has length {piece.length}",
                piece.source or frame.source,
            )
    covered = sum(p.length for p in frame.pieces)
    if covered != len(ring):
        raise BoardError(
            "E0406",
            f"the frame pieces cover {covered} positions but the ring around the map has "
            f"{len(ring)}",
            frame.source,
            help=f"add or remove frame pieces so their lengths sum to {len(ring)}",
        )
    check_letters(frame)
    out = []
    spot = 0
    for index, piece in enumerate(frame.pieces):
        for _ in range(piece.length):
            out.append(FramePosition(ring[spot], index, piece.label))
            spot += 1
    return tuple(out)


def is_extension(piece: FramePiece) -> bool:
    return piece.left == "X" and piece.right == "X"


def check_letters(frame: Frame) -> None:
    """Each piece's right letter must equal the next non-extension piece's left letter,
    round the ring; extensions may only stand in the frame's extension joints."""
    pieces = frame.pieces
    solid = [i for i, p in enumerate(pieces) if not is_extension(p)]
    for k, i in enumerate(solid):
        j = solid[(k + 1) % len(solid)]
        a, b = pieces[i], pieces[j]
        between = (j - i - 1) % len(pieces) if len(solid) > 1 else len(pieces) - 1
        if a.right != b.left:
            raise BoardError(
                "E0407",
                f"frame pieces {_piece_name(i, a)} and {_piece_name(j, b)} do not "
                f"join: letter {a.right} meets letter {b.left}",
                b.source or frame.source,
                help="a letter joins the same letter (A to A); reorder the pieces",
            )
        if between and a.right not in frame.extension_joints:
            allowed = ", ".join(frame.extension_joints) or "none"
            raise BoardError(
                "E0407",
                f"extension pieces stand in joint {a.right} after frame piece "
                f"{_piece_name(i, a)}, which is not an extension joint",
                frame.source,
                help=f"extensions may stand only in joints: {allowed}",
            )


def _piece_name(index: int, piece: FramePiece) -> str:
    return f"{index + 1} ({piece.label or piece.left + piece.right})"


def _centroid(hexes: list[geo.Hex]) -> tuple[float, float]:
    xs, ys = zip(*(geo.pixel(h) for h in hexes))
    return (sum(xs) / len(xs), sum(ys) / len(ys))


def _angle(h: geo.Hex, centre: tuple[float, float]) -> float:
    x, y = geo.pixel(h)
    return math.atan2(y - centre[1], x - centre[0])


def _hex(h: geo.Hex) -> str:
    return f"({h[0]},{h[1]})"
