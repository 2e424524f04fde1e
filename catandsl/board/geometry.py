"""Hex geometry: axial coordinates, pointy-top hexes, intersections and paths.

A hex is `(q, r)`; `r` grows downwards on the page (the layout Red Blob Games calls
"pointy-top, axial"). Every intersection and every path has exactly one name, derived
from one hex that owns it, so ids never depend on the order things were created in:

- an intersection is the top (`"N"`) or bottom (`"S"`) corner of one hex:
  `(q, r, "N")`;
- a path is one of three sides a hex owns, `"NE"`, `"NW"` or `"W"`: `(q, r, "W")`. The
  other three sides of a hex are owned by its neighbours (E of a hex is W of its east
  neighbour, and so on).

A hub hex (a terrain declared `hub`) adds parts inside itself, named from it too:

- its centre point `(q, r, "C")`, an intersection that touches that hex alone;
- spurs `(q, r, "C-N")`, `(q, r, "C-NE")` ... `(q, r, "C-NW")`: a path from the centre
  to one of the hex's six corners (`CORNER_NAMES`), named after that corner. Which
  spurs exist depends on the board (`catandsl.board.graph`); geometry only names them.

The sort keys (`hex_key`, `intersection_key`, `path_key`) order ids by geometry: row
`r`, then column `q`, then corner or side; every id list the board makes is sorted by
them. Nothing here needs networkx.
"""

from __future__ import annotations

import math
from collections.abc import Iterable

Hex = tuple[int, int]
Intersection = tuple[int, int, str]
Path = tuple[int, int, str]

# The six directions, counter-clockwise on the page starting east. A hex side is named
# after the direction of the neighbour it faces, so these are also the six side names.
DIRECTIONS: dict[str, Hex] = {
    "E": (1, 0),
    "NE": (1, -1),
    "NW": (0, -1),
    "W": (-1, 0),
    "SW": (-1, 1),
    "SE": (0, 1),
}
DIRECTION_NAMES: tuple[str, ...] = tuple(DIRECTIONS)
SIDE_NAMES = DIRECTION_NAMES

# The six corners of a hex, clockwise from the top; the order of `corners(hex)`.
CORNER_NAMES: tuple[str, ...] = ("N", "NE", "SE", "S", "SW", "NW")
# The order of the sides in `sides(hex)`: clockwise from the upper right, so that side i
# runs from corner i to corner i + 1.
SIDE_ORDER: tuple[str, ...] = ("NE", "E", "SE", "SW", "W", "NW")

# Canonical parts and their rank inside one hex's sort key.
OWN_CORNERS: tuple[str, ...] = ("N", "S")
OWN_SIDES: tuple[str, ...] = ("NE", "NW", "W")
# A hub hex's own parts: its centre point and the spurs from it to its corners.
CENTRE = "C"
SPUR_NAMES: tuple[str, ...] = tuple(f"{CENTRE}-{c}" for c in CORNER_NAMES)
_SPUR_CORNER = dict(zip(SPUR_NAMES, CORNER_NAMES))
_CORNER_RANK = {c: i for i, c in enumerate(OWN_CORNERS + (CENTRE,))}
_SIDE_RANK = {s: i for i, s in enumerate(OWN_SIDES + SPUR_NAMES)}

SQRT3 = math.sqrt(3.0)


# ---- sort keys -------------------------------------------------------------------------


def hex_key(h: Hex) -> tuple[int, int]:
    return (h[1], h[0])


def intersection_key(i: Intersection) -> tuple[int, int, int]:
    return (i[1], i[0], _CORNER_RANK[i[2]])


def path_key(p: Path) -> tuple[int, int, int]:
    return (p[1], p[0], _SIDE_RANK[p[2]])


# ---- hexes -------------------------------------------------------------------------------


def neighbour(h: Hex, direction: str) -> Hex:
    dq, dr = DIRECTIONS[direction]
    return (h[0] + dq, h[1] + dr)


def neighbours(h: Hex) -> tuple[Hex, ...]:
    """The six neighbours of a hex, in `DIRECTION_NAMES` order (E first, counter-clockwise)."""
    q, r = h  # (written out: boards call this for every hex of every deal)
    return ((q + 1, r), (q + 1, r - 1), (q, r - 1), (q - 1, r), (q - 1, r + 1), (q, r + 1))


def distance(a: Hex, b: Hex) -> int:
    dq, dr = a[0] - b[0], a[1] - b[1]
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


def are_adjacent(a: Hex, b: Hex) -> bool:
    return distance(a, b) == 1


def ring(center: Hex, radius: int, start: int = 0) -> tuple[Hex, ...]:
    """The hexes at `radius` from `center`, counter-clockwise on the page.

    The ring starts at the corner hex in direction `DIRECTION_NAMES[start]` (0 = E,
    1 = NE, ..., 5 = SE). Radius 0 is the centre alone.
    """
    if radius == 0:
        return (center,)
    out = []
    for k in range(6):
        corner_dir = DIRECTIONS[DIRECTION_NAMES[(start + k) % 6]]
        # Walking from corner k to corner k + 1 goes two directions further round.
        step = DIRECTIONS[DIRECTION_NAMES[(start + k + 2) % 6]]
        q, r = center[0] + corner_dir[0] * radius, center[1] + corner_dir[1] * radius
        for j in range(radius):
            out.append((q + step[0] * j, r + step[1] * j))
    return tuple(out)


def spiral(center: Hex, radius: int, start: int = 0) -> tuple[Hex, ...]:
    """The hexagon of `radius` around `center`, outer ring first (counter-clockwise from
    corner `start`), then each ring inward from the same corner, the centre last. Each
    ring's first hex touches the previous ring's last, as when laying tokens by hand."""
    out: list[Hex] = []
    for r in range(radius, -1, -1):
        out.extend(ring(center, r, start))
    return tuple(out)


def hexagon_spiral(area: Iterable[Hex], start: int = 0) -> tuple[Hex, ...] | None:
    """The hexes of `area` along the letter spiral, or None when `area` is no hexagon.

    A hexagon here is every hex within bounds on q, r and s = -q - r, with its six
    corners in it and no side shorter than one step: the full hexagon of the base island,
    or one whose sides differ in length (the 5-6 player island, rows of 3 to 6). A lone
    hex is one too. The walk is `spiral`'s: the outer ring counter-clockwise from the
    corner in direction `DIRECTION_NAMES[start]`, then the hexagon inside it the same
    way, to the centre; inner rings may be thinner (a side of no length, a line).
    """
    left = set(area)
    if not left:
        return None
    lone = len(left) == 1
    rings = _hexagon_rings(left, start)
    if rings is None or (not lone and any(not side for side in rings[0][1])):
        return None
    return tuple(h for ring_hexes, _ in rings for h in ring_hexes)


def _hexagon_rings(left: set[Hex], start: int) -> list[tuple[list[Hex], list[int]]] | None:
    """Each ring of a hexagon (outer first) with the length of its six sides, or None."""
    rings = []
    while left:
        qs = [h[0] for h in left]
        rs = [h[1] for h in left]
        ss = [-h[0] - h[1] for h in left]
        q0, q1, r0, r1, s0, s1 = min(qs), max(qs), min(rs), max(rs), min(ss), max(ss)
        inside = sum(1 for q in range(q0, q1 + 1) for r in range(r0, r1 + 1) if s0 <= -q - r <= s1)
        if inside != len(left):
            return None
        # The corner in each direction (E, NE, NW, W, SW, SE) is where two bounds meet.
        corner = [(q1, -q1 - s0), (q1, r0), (-r0 - s1, r0), (q0, -q0 - s1), (q0, r1), (-r1 - s0, r1)]
        if any(c not in left for c in corner):
            return None
        ring_hexes: list[Hex] = []
        seen: set[Hex] = set()
        sides = []
        for k in range(6):
            a, b = corner[(start + k) % 6], corner[(start + k + 1) % 6]
            step = DIRECTIONS[DIRECTION_NAMES[(start + k + 2) % 6]]
            n = distance(a, b)
            if (a[0] + step[0] * n, a[1] + step[1] * n) != b:
                return None
            sides.append(n)
            for j in range(n):
                h = (a[0] + step[0] * j, a[1] + step[1] * j)
                if h not in seen:  # a ring one hex thick walks back along itself
                    seen.add(h)
                    ring_hexes.append(h)
        if not ring_hexes:  # a lone hex: every corner is the same hex
            ring_hexes.append(corner[0])
            seen.add(corner[0])
        rings.append((ring_hexes, sides))
        left -= seen
    return rings


def hexagon(center: Hex, radius: int) -> tuple[Hex, ...]:
    """All hexes within `radius` of `center`, sorted by `hex_key`."""
    out = []
    for dr in range(-radius, radius + 1):
        for dq in range(max(-radius, -dr - radius), min(radius, -dr + radius) + 1):
            out.append((center[0] + dq, center[1] + dr))
    return tuple(sorted(out, key=hex_key))


# ---- intersections -------------------------------------------------------------------


def corner(h: Hex, name: str) -> Intersection:
    """The canonical id of one of the six corners (`CORNER_NAMES`) of a hex, or of its
    centre point (`"C"`, which exists on a hub hex only)."""
    q, r = h
    if name == CENTRE:
        return (q, r, CENTRE)
    if name == "N":
        return (q, r, "N")
    if name == "S":
        return (q, r, "S")
    if name == "NE":
        return (q + 1, r - 1, "S")
    if name == "NW":
        return (q, r - 1, "S")
    if name == "SE":
        return (q, r + 1, "N")
    if name == "SW":
        return (q - 1, r + 1, "N")
    raise ValueError(f"unknown corner {name!r}")


def corners(h: Hex) -> tuple[Intersection, ...]:
    """The six corners of a hex, clockwise from the top (`CORNER_NAMES` order)."""
    q, r = h  # `corner` for N, NE, SE, S, SW, NW, written out
    return ((q, r, "N"), (q + 1, r - 1, "S"), (q, r + 1, "N"), (q, r, "S"), (q - 1, r + 1, "N"), (q, r - 1, "S"))


def intersection_hexes(i: Intersection) -> tuple[Hex, ...]:
    """The three hexes that meet at an intersection, sorted by `hex_key`; a centre
    point's one hex."""
    q, r, c = i
    if c == CENTRE:
        return ((q, r),)
    if c == "N":  # the top of (q, r) is also the bottom corner shared by the row above
        return ((q, r - 1), (q + 1, r - 1), (q, r))
    if c == "S":
        return ((q, r), (q - 1, r + 1), (q, r + 1))
    raise ValueError(f"not a canonical intersection: {i!r}")


def is_centre(i: Intersection) -> bool:
    """Whether an intersection id names a hub hex's centre point."""
    return i[2] == CENTRE


def centre(h: Hex) -> Intersection:
    """The centre point of a hex (a part of the board when the hex is a hub)."""
    return (h[0], h[1], CENTRE)


def intersection_neighbours(i: Intersection) -> tuple[Intersection, Intersection, Intersection]:
    """The three intersections one path away on the plain lattice (not counting spurs,
    which depend on the board), sorted by `intersection_key`."""
    q, r, c = i
    if c == "N":
        out = ((q, r - 1, "S"), (q + 1, r - 1, "S"), (q + 1, r - 2, "S"))
    elif c == "S":
        out = ((q, r + 1, "N"), (q - 1, r + 1, "N"), (q - 1, r + 2, "N"))
    else:
        raise ValueError(f"not a canonical intersection: {i!r}")
    return tuple(sorted(out, key=intersection_key))  # type: ignore[return-value]


def intersection_paths(i: Intersection) -> tuple[Path, Path, Path]:
    """The three paths that end at an intersection, sorted by `path_key`."""
    return tuple(  # type: ignore[return-value]
        sorted((path_between(i, n) for n in intersection_neighbours(i)), key=path_key)
    )


# ---- paths -------------------------------------------------------------------------------


def canonical_edge(q: int, r: int, side: str) -> Path:
    """The canonical id of any of the six sides (`SIDE_NAMES`) of hex (q, r), or of one
    of its spurs (`SPUR_NAMES`)."""
    if side in OWN_SIDES or side in _SPUR_CORNER:
        return (q, r, side)
    if side == "E":
        return (q + 1, r, "W")
    if side == "SE":
        return (q, r + 1, "NW")
    if side == "SW":
        return (q - 1, r + 1, "NE")
    raise ValueError(f"unknown side {side!r}")


def sides(h: Hex) -> tuple[Path, ...]:
    """The six sides of a hex as canonical path ids, in `SIDE_ORDER` (NE, E, SE, SW, W, NW)."""
    q, r = h  # `canonical_edge` of each, written out
    return ((q, r, "NE"), (q + 1, r, "W"), (q, r + 1, "NW"), (q - 1, r + 1, "NE"), (q, r, "W"), (q, r, "NW"))


def is_spur(p: Path) -> bool:
    """Whether a path id names a spur of a hub hex."""
    return p[2] in _SPUR_CORNER


def spur(h: Hex, corner_name: str) -> Path:
    """The spur of hex `h` from its centre to its corner `corner_name` (`CORNER_NAMES`)."""
    if corner_name not in CORNER_NAMES:
        raise ValueError(f"unknown corner {corner_name!r}")
    return (h[0], h[1], f"{CENTRE}-{corner_name}")


def edge_ends(p: Path) -> tuple[Intersection, Intersection]:
    """The two intersections a path joins, sorted by `intersection_key`."""
    q, r, s = p  # (the three sides a hex owns: in order already)
    if s == "NE":
        return ((q + 1, r - 1, "S"), (q, r, "N"))
    if s == "NW":
        return ((q, r - 1, "S"), (q, r, "N"))
    if s == "W":
        return ((q, r - 1, "S"), (q - 1, r + 1, "N"))
    if s in _SPUR_CORNER:
        ends = ((q, r, CENTRE), corner((q, r), _SPUR_CORNER[s]))
        return tuple(sorted(ends, key=intersection_key))  # type: ignore[return-value]
    raise ValueError(f"not a canonical path: {p!r}")


def edge_hexes(p: Path) -> tuple[Hex, ...]:
    """The two hexes a path separates, sorted by `hex_key`; a spur's one hex."""
    q, r, s = p  # the neighbour across an own side lies above or to the left
    if s == "NE":
        return ((q + 1, r - 1), (q, r))
    if s == "NW":
        return ((q, r - 1), (q, r))
    if s == "W":
        return ((q - 1, r), (q, r))
    if s in _SPUR_CORNER:
        return ((q, r),)
    return tuple(sorted(((q, r), neighbour((q, r), s)), key=hex_key))  # any other side name


def path_between(a: Intersection, b: Intersection) -> Path:
    """The path joining two adjacent intersections (a centre point and a corner of its
    hex: the spur between them, whether or not the board has it)."""
    if is_centre(a) or is_centre(b):
        hub, other = (a, b) if is_centre(a) else (b, a)
        h = (hub[0], hub[1])
        for name in CORNER_NAMES:
            if corner(h, name) == other:
                return spur(h, name)
        raise ValueError(f"{a!r} and {b!r} are not adjacent")
    hexes_b = intersection_hexes(b)
    shared = [h for h in intersection_hexes(a) if h in hexes_b]
    if a == b or len(shared) != 2:
        raise ValueError(f"{a!r} and {b!r} are not adjacent")
    h1, h2 = shared
    for side in DIRECTION_NAMES:
        if neighbour(h1, side) == h2:
            return canonical_edge(h1[0], h1[1], side)
    raise AssertionError("unreachable: two hexes sharing two corners are neighbours")


def side_between(a: Hex, b: Hex) -> str:
    """The side of hex `a` that faces its neighbour `b`."""
    d = (b[0] - a[0], b[1] - a[1])
    for name, v in DIRECTIONS.items():
        if v == d:
            return name
    raise ValueError(f"{a!r} and {b!r} are not neighbours")


# ---- pixels ---------------------------------------------------------------------------


def pixel(h: Hex, size: float = 1.0) -> tuple[float, float]:
    """Centre of a hex on the page for circumradius `size` (y grows downwards)."""
    q, r = h
    return (SQRT3 * size * (q + r / 2.0), 1.5 * size * r)


def corner_pixel(i: Intersection, size: float = 1.0) -> tuple[float, float]:
    """Position of an intersection on the page: the top or bottom point of its hex (a
    centre point: the middle of its hex)."""
    x, y = pixel((i[0], i[1]), size)
    if i[2] == CENTRE:
        return (x, y)
    return (x, y - size) if i[2] == "N" else (x, y + size)


def hex_polygon(h: Hex, size: float = 1.0) -> tuple[tuple[float, float], ...]:
    """The six corner points of a hex, clockwise from the top."""
    return tuple(corner_pixel(c, size) for c in corners(h))
