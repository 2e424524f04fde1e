"""Routes (A.10, B.3): the longest continuous route of a player's path pieces, what
Longest Road and Longest Trade Route measure.

A route may end at an opponent's building but not pass it, and it passes from one kind
to a kind that does not connect to it (road <-> ship) only at an own building; so it
never leaves a *line*: the seat's pieces joined to each other the way a route may pass
(rules/network.py keeps the lines). The longest route is the longest over the lines,
and each line's length is kept until a piece placed, moved or cut off next to it
changes it: a new road is measured with its own line, not with every line of every
player, and a road hung from a line without a ring grows it by one piece, measured from
where it hangs (`grow_line`).

A piece kind may weigh more or less than one (`route_length N`: a bridge counted as two
roads). A route of such kinds is measured by its weights, every way on from every
intersection of the line (`_weighted`): neither the tree's diameter nor a line grown by
one piece tells the heaviest trail.
"""

from __future__ import annotations

from catandsl.rules import network
from catandsl.rules.network import NOBODY, Line
from catandsl.rules.play import Game, State
from catandsl.rules.registry import BOARD, query


@query("player: seat, pieces: list<piece>", returns="int", reads=BOARD)
def longest_route(s: State, player: int, pieces: list[str]) -> int:
    """The seat's longest continuous route of these pieces (a neutral seat's too)."""
    index = s.game.piece_index
    return route_length(s, player, tuple(map(index.__getitem__, pieces)))


def route_length(s: State, p: int, pieces: tuple[int, ...]) -> int:
    """The longest trail over p's path pieces of the listed kinds (see the module's doc)."""
    net = network.of(s)
    key = (p, pieces)
    best = net.longest.get(key)
    if best is not None:
        return best
    lines = net.lines.setdefault(key, [])
    joins, chains = s.game.lookups(RouteJoins).of(pieces)
    weights = s.game.lookups(RouteJoins).weights(pieces)
    grown = net.grown.pop(key, None)
    if weights is not None:
        lines.clear()  # (measured whole each time: see the module's doc)
        path_piece = s.path_piece
        own = {k for k in net.paths[p] if path_piece[k] in pieces}
        for group in _lines_of(s, p, own, joins):
            lines.append(_weighted(s, p, group, joins, weights))
    elif grown is not None and chains and (more := grow_line(s, p, joins, *grown)) is not None:
        lines += more
    else:
        known = set().union(*(line.paths for line in lines))
        path_piece = s.path_piece
        rest = {k for k in net.paths[p] if path_piece[k] in pieces and k not in known}
        if rest:
            for group in _lines_of(s, p, rest, joins):
                lines.append(measure_line(s, p, group, joins, chains))
    best = net.longest[key] = max((line.length for line in lines), default=0)
    return best


class RouteJoins:
    """Per list of route kinds: the pairs of kinds a route passes between anywhere (else
    only at an own building), and whether they *chain*: whether a kind passing to a
    second passes to every kind the second passes to. Only then is a line without a
    ring measured as a tree (`diameter`): where an alpha, a beta and a gamma meet, and
    alpha passes to beta and beta to gamma but alpha never to gamma, the tree's diameter
    may turn from the alpha to the gamma, which no route does."""

    def __init__(self, game: Game):
        self.pieces = game.pieces
        self.by_kinds: dict[tuple[int, ...], tuple[frozenset[tuple[int, int]], bool]] = {}
        # every kind's `route_length`, or None when each counts one (the common case)
        lengths = tuple(P.route_length for P in game.pieces)
        self.lengths = lengths if any(n != 1 for n in lengths) else None

    def weights(self, kinds: tuple[int, ...]) -> tuple[int, ...] | None:
        """Each kind's weight in a route of these kinds, or None when all weigh one."""
        if self.lengths is None or all(self.lengths[k] == 1 for k in kinds):
            return None
        return self.lengths

    @classmethod
    def build(cls, game: Game) -> RouteJoins:
        return cls(game)

    def of(self, kinds: tuple[int, ...]) -> tuple[frozenset[tuple[int, int]], bool]:
        hit = self.by_kinds.get(kinds)
        if hit is None:
            P = self.pieces
            joins = frozenset((x, y) for x in kinds for y in kinds
                              if x == y or (x in P[y].connects and y in P[x].connects))
            chains = all((x, z) in joins for x, y in joins for w, z in joins if w == y)
            hit = self.by_kinds[kinds] = (joins, chains)
        return hit


def grow_line(s: State, p: int, joins: frozenset[tuple[int, int]], k: int, line: Line) -> list[Line] | None:
    """The lines that path piece k, placed at one end of `line` and touching no other line,
    leaves there, measured from `line` rather than regrouped (what `_lines_of` and
    `measure_line` would find); None unless `line` is a tree of kinds that chain and k's far
    end is off it. That end is then a leaf: a longest trail keeps off it or ends there."""
    a, z = s.game.board.path_ends[k]
    at = a if a in line.corners else z
    far = z if at == a else a
    if far in line.corners or len(line.corners) != len(line.paths) + 1:
        return None
    o = s.corner_owner[at]
    joined = o == p
    if o == NOBODY:  # (the kinds chain: k passes to one of the line's pieces there or none)
        kind, path_piece = s.path_piece[k], s.path_piece
        joined = any((kind, path_piece[y]) in joins
                     for y in s.game.board.corner_paths[at] if y in line.paths)
    alone = Line(frozenset((k,)), frozenset((a, z)), 1)
    if not joined:  # an opponent's building, or kinds a route does not pass between there
        return [line, alone]
    reach = _farthest(line_ways(s, line.paths), at)[1]
    return [Line(line.paths | alone.paths, line.corners | alone.corners,
                 max(line.length, reach + 1))]


def _lines_of(s: State, p: int, own: set[int], joins: frozenset[tuple[int, int]]) -> list[frozenset[int]]:
    """The pieces `own` grouped into lines: two pieces whose common intersection a route
    may pass from one to the other are in one line."""
    b = s.game.board
    owner, path_piece = s.corner_owner, s.path_piece
    out = []
    left = set(own)
    while left:
        start = min(left)
        left.discard(start)
        group, stack = [start], [start]
        while stack:
            x = stack.pop()
            for c in b.path_ends[x]:
                o = owner[c]
                if o != -1 and o != p:
                    continue  # an opponent's building: a route ends here
                for y in b.corner_paths[c]:
                    if y in left and (o == p or (path_piece[x], path_piece[y]) in joins):
                        left.discard(y)
                        group.append(y)
                        stack.append(y)
        out.append(frozenset(group))
    return out


def measure_line(s: State, p: int, own: frozenset[int], joins: frozenset[tuple[int, int]],
              chains: bool) -> Line:
    """A line with its longest trail: the tree's diameter for a line without a ring of
    kinds that chain (`diameter`), else every way on, depth first, from the
    intersections where a longest trail may begin: ends, branches, buildings and changes
    of kind (a plain meeting of two pieces never begins a longest trail), or a ring's
    first intersection."""
    owner = s.corner_owner
    ways = line_ways(s, own)
    corners = frozenset(ways)
    if chains and len(corners) == len(own) + 1:
        return Line(own, corners, diameter(ways))
    for c in ways:  # (in the order of the board's ids, as the walk always went)
        ways[c].sort()
    used: set[int] = set()
    best = 0

    def walk(c: int, length: int, kind: int) -> None:
        nonlocal best
        if length > best:
            best = length
        o = owner[c]
        if o != -1 and o != p and length > 0:
            return  # an opponent's building: the route may end here, not pass
        home = o == p
        for x, z, kx in ways[c]:
            if x not in used:
                if length > 0 and not home and (kind, kx) not in joins:
                    continue  # road <-> ship only through an own building
                used.add(x)
                walk(z, length + 1, kx)
                used.discard(x)

    def passes(c: int) -> bool:
        """Two pieces here, and a route goes on from either to the other."""
        w = ways[c]
        if len(w) != 2:
            return False
        o = owner[c]
        return o == p or (o == -1 and (w[0][2], w[1][2]) in joins)

    starts = [c for c in sorted(corners) if not passes(c)]
    for c in starts or [min(corners)]:
        walk(c, 0, -1)
    return Line(own, corners, best)


def _weighted(s: State, p: int, own: frozenset[int], joins: frozenset[tuple[int, int]],
              weights: tuple[int, ...]) -> Line:
    """A line with its heaviest trail, each piece weighing its kind's `route_length`:
    every way on, depth first, from every intersection of the line (as `_measured`
    walks, but a light piece may begin the heaviest trail anywhere)."""
    owner = s.corner_owner
    ways = line_ways(s, own)
    for c in ways:
        ways[c].sort()
    used: set[int] = set()
    best = 0

    def walk(c: int, length: int, steps: int, kind: int) -> None:
        nonlocal best
        if length > best:
            best = length
        o = owner[c]
        if o != -1 and o != p and steps > 0:
            return  # an opponent's building: the route may end here, not pass
        home = o == p
        for x, z, kx in ways[c]:
            if x not in used:
                if steps > 0 and not home and (kind, kx) not in joins:
                    continue  # road <-> ship only through an own building
                used.add(x)
                walk(z, length + weights[kx], steps + 1, kx)
                used.discard(x)

    for c in sorted(ways):
        walk(c, 0, 0, -1)
    return Line(own, frozenset(ways), best)


def line_ways(s: State, own: frozenset[int]) -> dict[int, list[tuple[int, int, int]]]:
    """Each intersection of a line's pieces with its ways on within the line: (piece, the
    intersection it leads to, the piece's kind)."""
    ends, path_piece = s.game.board.path_ends, s.path_piece
    ways: dict[int, list[tuple[int, int, int]]] = {}
    for x in own:
        a, z = ends[x]
        kx = path_piece[x]
        ways.setdefault(a, []).append((x, z, kx))
        ways.setdefault(z, []).append((x, a, kx))
    return ways


def diameter(ways: dict[int, list[tuple[int, int, int]]]) -> int:
    """The longest trail of a line without a ring (a tree: one more intersection than
    pieces) of kinds that chain: a trail may go on wherever the line does, so the
    longest is the tree's diameter, found in two breadth-first passes."""
    far, _ = _farthest(ways, min(ways))
    return _farthest(ways, far)[1]


def _farthest(ways: dict[int, list[tuple[int, int, int]]], start: int) -> tuple[int, int]:
    """The intersection farthest from `start` along the line's pieces, and how far."""
    seen = {start}
    frontier = [start]
    far, distance = start, 0
    while True:
        following = []
        for c in frontier:
            for _, z, _ in ways[c]:
                if z not in seen:
                    seen.add(z)
                    following.append(z)
        if not following:
            return far, distance
        far, distance = following[0], distance + 1
        frontier = following
