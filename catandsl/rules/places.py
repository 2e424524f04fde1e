"""What a site is: `land`, `water`, `coast`, `frame`, `owner`, `number`, `terrain`,
`hexes_around`, `ends`, `next_paths`, `paths_at`. Except for `owner`, these read the board alone, so a piece's `where`
may use them (they are evaluated once, over the board, when the game is made)."""

from __future__ import annotations

from catandsl.rules.base import Location, hexes_of, location, paths_next_to
from catandsl.rules.play import State
from catandsl.rules.registry import BOARD, STATIC, query


@query("at: site", returns="bool", reads=STATIC)
def land(s: State, at: Location) -> bool:
    """The site touches a land hex (a hex: is land)."""
    return False in map(s.game.board.hex_water.__getitem__, hexes_of(s.game, at))


@query("at: site", returns="bool", reads=STATIC)
def water(s: State, at: Location) -> bool:
    """The site touches a water hex (a hex: is water)."""
    return True in map(s.game.board.hex_water.__getitem__, hexes_of(s.game, at))


@query("at: site", returns="bool", reads=STATIC)
def coast(s: State, at: Location) -> bool:
    """The site touches both land and water."""
    return land(s, at) and water(s, at)


@query("at: site", returns="bool", reads=STATIC)
def frame(s: State, at: Location) -> bool:
    """The site lies on the frame: a frame hex, or a path or intersection that touches
    nothing but frame hexes. No piece stands on the frame unless its `where` names
    `frame(at)` (`on hex where water(at)` keeps the pirate off it, `on hex where
    water(at) or frame(at)` lets it sail there)."""
    tiles, hexes = s.game.board.tiles, s.game.board.hexes
    return all(tiles[hexes[h]].frame_piece is not None for h in hexes_of(s.game, at))


@query("at: site", returns="seat", reads=BOARD)
def owner(s: State, at: Location) -> int:
    """The seat whose piece stands there (-1 for nobody): a player, or a neutral seat."""
    code, k = at
    if code == "i":
        return s.corner_owner[k]
    if code == "p":
        return s.path_owner[k]
    return -1


@query("at: site", returns="bool", reads=BOARD)
def occupied(s: State, at: Location) -> bool:
    """Whether a player's piece stands there (a building, a road or a ship; travelling
    pieces and neutral pieces do not count): `owner(at)` names whose."""
    return owner(s, at) >= 0


@query("at: site", returns="list<player>", reads=BOARD)
def players_around(s: State, at: Location) -> list[int]:
    """The players with a piece of any kind on the intersections a site touches (a
    settlement, a city, or any other piece that stands on an intersection), ascending,
    each once: the corners of a hex, the two ends of a path, an intersection itself
    (neutral seats left out). `players_around(at)` in a robber's `moves_to` names whom
    it would stand next to."""
    code, k = at
    b = s.game.board
    corners = b.hex_corners[k] if code == "h" else b.path_ends[k] if code == "p" else (k,)
    n = s.game.num_players
    return sorted({o for c in corners if 0 <= (o := s.corner_owner[c]) < n})


@query("at: hex", returns="int", reads=STATIC)
def number(s: State, at: Location) -> int:
    """The number token on a hex (0 for none)."""
    return s.game.board.hex_number[at[1]]


@query("at: hex", returns="terrain", reads=STATIC)
def terrain(s: State, at: Location) -> str:
    """The terrain of a hex."""
    return s.game.board.terrain(at[1])


@query("at: site", returns="list<hex>", reads=STATIC)
def hexes_around(s: State, at: Location) -> list[Location]:
    """The board hexes a site touches: the three around an intersection, the two on
    either side of a path, a hex itself (fewer at the edge of the board)."""
    return [location("hex", h) for h in hexes_of(s.game, at)]


@query("at: path", returns="list<intersection>", reads=STATIC)
def ends(s: State, at: Location) -> list[Location]:
    """The two intersections at the ends of a path (a spur's are its hub's centre point
    and a corner: `for c in ends(at) { if centre(c) { ... } }`)."""
    return [location("intersection", c) for c in s.game.board.path_ends[at[1]]]


@query("at: path", returns="list<path>", reads=STATIC)
def next_paths(s: State, at: Location) -> list[Location]:
    """The paths that share an end with this one, ascending (where a wagon may step, and
    where a barbarian stands "in front" of it)."""
    return [location("path", x) for x in paths_next_to(s.game, at[1])]


@query("at: intersection", returns="list<path>", reads=STATIC)
def paths_at(s: State, at: Location) -> list[Location]:
    """The paths that end at an intersection, ascending (two or three; a hub's centre
    point, one per spur): `for p in paths_at((0, 0) N) { ... }`. `ends(path)` goes the
    other way."""
    return [location("path", x) for x in s.game.board.corner_paths[at[1]]]
