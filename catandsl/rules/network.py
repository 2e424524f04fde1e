"""What each seat has on the board, kept as the game goes: the intersections and paths
its pieces stand on, and the lines of its path pieces that routes are measured over.

Placing, moving and lifting a piece go through `put_corner`, `put_path` and
`lift_path` (rules/placement.py, rules/movement.py), which keep this up to date, so the
places a piece may go next (the frontier of the seat's network) and its longest route
are found from the seat's own pieces, never by scanning the board; the places found
are kept here too (`targets`) until the next piece is placed, moved or lifted, and
what each hex pays whom (`pays`) and each seat's bank rates (`rates`) until a building
changes.

It is a cache on the state (`State._network`), derived and never serialized: built by
one pass over the board the first time it is asked for after the state was made or read
back, and dropped by `State.changed()` (a fixed position edited directly). A clone
shares its state's network until one of them places, moves or lifts a piece, which then
takes its own copy: cloning costs nothing here. (Lines measured meanwhile are right for
every state sharing it: their boards are the same.)
"""

from __future__ import annotations

from typing import NamedTuple

from catandsl.rules.play import PieceInfo, State

NOBODY = -1  # the owner of an empty site
RouteKey = tuple[int, tuple[int, ...]]  # (seat, the path piece kinds a route is made of)


class Line(NamedTuple):
    """A seat's path pieces (of a route's kinds) joined to each other as a route may
    pass (rules/routes.py), with the intersections at their ends and the longest route
    over them. A route never leaves its line, so a change away from the line's
    intersections leaves its length as it was."""

    paths: frozenset[int]
    corners: frozenset[int]
    length: int


class Network:
    """Each seat's pieces as a network: corners, paths, lines and longest routes."""

    __slots__ = ("corners", "paths", "lines", "longest", "grown", "targets", "pays", "rates",
                 "shared")

    def __init__(self, corners: list[set[int]], paths: list[set[int]],
                 lines: dict[RouteKey, list[Line]], longest: dict[RouteKey, int],
                 grown: dict[RouteKey, tuple[int, Line]]):
        self.corners = corners  # [seat] the intersections its pieces stand on
        self.paths = paths  # [seat] the paths its pieces stand on (travellers aside)
        # per route key: the lines still known to be whole; `longest` is the key's
        # longest route while every line of the seat's pieces is known
        self.lines = lines
        self.longest = longest
        # per route key: (a new path piece, the one line it was placed at the end of),
        # when that line was dropped for it and every other line is still known, so
        # rules/routes.py measures the line grown by one piece instead of regrouping it
        self.grown = grown
        # (seat, piece kind, mode) -> (the piece's info, its build action ids): where
        # rules/placement.py `targets` found the seat may place it, while no piece moves
        self.targets: dict[tuple[int, int, str], tuple[PieceInfo, list[int]]] = {}
        # hex -> ((player, resources), ...): what rules/production.py found it pays
        self.pays: dict[int, tuple[tuple[int, int], ...]] = {}
        # seat -> (the game's trade tables, its bank rates): what rules/trade.py found them
        self.rates: dict[int, tuple[object, tuple[int, ...]]] = {}
        self.shared = False  # a clone of the state holds it too: copy it before a change

    @classmethod
    def scan(cls, s: State) -> Network:
        seats = s.game.num_seats
        corners: list[set[int]] = [set() for _ in range(seats)]
        paths: list[set[int]] = [set() for _ in range(seats)]
        for owners, out in ((s.corner_owner, corners), (s.path_owner, paths)):
            if owners.count(NOBODY) == len(owners):
                continue  # (an empty board, as a game starts: seen at C speed)
            for k, o in enumerate(owners):
                if o != NOBODY:
                    out[o].add(k)
        return cls(corners, paths, {}, {}, {})

    def share(self) -> Network:
        """This network, for a clone of its state (see the module's doc)."""
        self.shared = True
        return self

    def copy(self) -> Network:
        return Network([set(c) for c in self.corners], [set(p) for p in self.paths],
                       {k: list(v) for k, v in self.lines.items()}, dict(self.longest),
                       dict(self.grown))

    def forget_lines(self, corners: tuple[int, ...], seat: int = -1, piece: int = -1,
                     grown: int = -1, keep: int = -1) -> None:
        """Lines touching these intersections may have joined, split or grown: drop them
        (of one seat's routes counting one piece kind, or of everybody's but `keep`'s).
        `grown`: the seat's new path piece of that kind, in no line yet, at these
        intersections."""
        for key, lines in self.lines.items():
            if (seat >= 0 and key[0] != seat) or (piece >= 0 and piece not in key[1]) \
                    or key[0] == keep:
                continue
            self.grown.pop(key, None)  # (a change since the piece was placed: regroup)
            kept = [line for line in lines if line.corners.isdisjoint(corners)]
            if grown >= 0 or len(kept) < len(lines):
                self.lines[key] = kept
                known = self.longest.pop(key, None)
                if grown >= 0 and known is not None and len(kept) == len(lines) - 1:
                    line = next(line for line in lines if not line.corners.isdisjoint(corners))
                    self.grown[key] = (grown, line)

    def forget_targets(self, seat: int, site: str = "") -> None:
        """Drop the kept places of the seat's pieces, and of everybody's pieces that
        stand on `site` ("path", "intersection"; "": the seat's only)."""
        self.targets = {key: hit for key, hit in self.targets.items()
                        if key[0] != seat and hit[0].site != site}


def of(s: State) -> Network:
    """The state's network, built from the board the first time it is asked for."""
    net = s._network
    if net is None:
        net = s._network = Network.scan(s)
    return net


def _own(s: State) -> Network | None:
    """The state's network, about to change: its own copy if a clone shares it."""
    net = s._network
    if net is not None and net.shared:
        net = s._network = net.copy()
    return net


def put_corner(s: State, k: int, seat: int, piece: int) -> None:
    """Seat's piece on intersection k (replacing what stood there: an upgrade)."""
    before = s.corner_owner[k]
    s.corner_owner[k] = seat
    s.corner_piece[k] = piece
    net = _own(s)
    if net is None:
        return
    net.pays.clear()
    net.rates.clear()
    if before == seat:  # an own upgrade joins and cuts no route, and moves nobody else's sites
        net.forget_targets(seat)
        return
    net.targets.clear()  # (the distance rule, and others' routes through k: anybody's)
    if before >= 0:
        net.corners[before].discard(k)
    net.corners[seat].add(k)
    # A building cuts others' routes through k, and joins an own road to an own ship
    # there; where the seat's own path pieces at k are all of one kind, a route passed
    # between them before as it does now, so the seat's lines stay as they were.
    b = s.game.board
    own = {s.path_piece[x] for x in b.corner_paths[k] if s.path_owner[x] == seat}
    net.forget_lines((k,), keep=seat if before == NOBODY and len(own) <= 1 else -1)


def put_path(s: State, k: int, seat: int, piece: int) -> None:
    """Seat's piece on the empty path k."""
    s.path_owner[k] = seat
    s.path_piece[k] = piece
    net = _own(s)
    if net is not None:
        net.forget_targets(seat, "path")  # (another seat's buildings join only its own paths)
        net.paths[seat].add(k)
        net.forget_lines(s.game.board.path_ends[k], seat, piece, grown=k)


def lift_path(s: State, k: int) -> None:
    """The piece on path k leaves it (a ship being moved)."""
    seat, piece = s.path_owner[k], s.path_piece[k]
    s.path_owner[k] = -1
    s.path_piece[k] = -1
    net = _own(s)
    if net is not None:
        net.targets.clear()
        if seat >= 0:
            net.paths[seat].discard(k)
            net.forget_lines(s.game.board.path_ends[k], seat, piece)


def frontier_corners(s: State, p: int) -> set[int]:
    """The intersections at the ends of the seat's path pieces."""
    ends = s.game.board.path_ends
    return {c for x in of(s).paths[p] for c in ends[x]}
