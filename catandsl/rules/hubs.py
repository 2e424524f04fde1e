"""Hub hexes and the terrains around a site: `touches`, `centre`, `spur`, `sea_side`.

A terrain declared `hub` gives each of its hexes a centre point (an intersection
nobody builds on) and spurs, paths from the centre to the hex's corners that touch
other land (catandsl.board.graph). These queries read the board alone, so a piece's
`where` may use them: `on path where land(at) and not sea_side(at)` keeps roads off
the sides a hub hex shares with the sea, `on intersection where land(at) and not
sea_side(at)` keeps buildings on the corners where it meets other land.
"""

from __future__ import annotations

from catandsl.rules.base import Location, hexes_of
from catandsl.rules.play import State
from catandsl.rules.registry import STATIC, query


@query("at: site, terrain: terrain", returns="bool", reads=STATIC)
def touches(s: State, at: Location, terrain: str) -> bool:
    """The site touches a board hex of this terrain: a hex is of it, an intersection or a
    path has one among the hexes around it (a hub's centre point and spurs touch their
    hub hex alone). Space off the board is no terrain."""
    b = s.game.board
    code = b.terrain_names.index(terrain)
    return any(b.hex_terrain[h] == code for h in hexes_of(s.game, at))


@query("at: site", returns="bool", reads=STATIC)
def centre(s: State, at: Location) -> bool:
    """The site is the centre point of a hub hex."""
    return at[0] == "i" and s.game.board.corner_hub[at[1]] >= 0


@query("at: site", returns="bool", reads=STATIC)
def spur(s: State, at: Location) -> bool:
    """The site is a spur: a path from a hub hex's centre point to one of its corners."""
    if at[0] != "p":
        return False
    b = s.game.board
    return any(at[1] in spurs for spurs in (b.hex_spurs[h] for h in b.path_hexes[at[1]]))


@query("at: site", returns="bool", reads=STATIC)
def sea_side(s: State, at: Location) -> bool:
    """The site is on a hub hex's side against the sea: one of its sides or corners that
    touches no other land hex (a trade hex's three sides and two corners on the sea). A
    hub's centre point and spurs, a hex, and a site that touches no hub are not."""
    b = s.game.board
    code, k = at
    if code == "i" and b.corner_hub[k] < 0:
        hexes = b.corner_hexes[k]
    elif code == "p" and not spur(s, at):
        hexes = b.path_hexes[k]
    else:
        return False
    land = [h for h in hexes if not b.hex_water[h]]
    return len(land) == 1 and b.hex_centre[land[0]] >= 0
