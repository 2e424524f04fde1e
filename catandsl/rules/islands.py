"""Islands, island marks and special victory points (B.8): the queries and effects
rules use, read from the board's island tables.

Island values are island numbers (ints, the board's `islands` index); a bare island
name in an expression (`main`) is the list of island numbers it names, so every query
taking an island also takes such a list (any of them). `island` and `on_island` read
the board alone, so a piece's or set-up step's `where` may use them.

State data: `vp_tokens` holds VictoryToken records (the tokens lie under the building
at their intersection, whatever it later becomes); `island_tags` holds IslandTag
records (`mark_island`).
"""

from __future__ import annotations

from typing import Any

from catandsl.rules import network
from catandsl.rules.base import EngineError, Location
from catandsl.rules.play import Game, IslandTag, State, VictoryToken
from catandsl.rules.registry import BOARD, ISLANDS, STATIC, TOKENS, effect, query


def _as_set(island: Any) -> set[int]:
    if isinstance(island, (list, tuple)):
        return {int(i) for i in island}
    return {int(island)}


def site_islands(game: Game, at: Location) -> tuple[int, ...]:
    """The islands a site touches: an intersection its land hexes' islands, a path the
    islands of the hexes on either side, a hex its own island (none for water)."""
    b = game.board
    code, k = at
    if code == "i":
        return tuple(b.corner_islands[k])
    if code == "p":
        return tuple(sorted({b.hex_island[h] for h in b.path_hexes[k] if b.hex_island[h] >= 0}))
    i = b.hex_island[k]
    return (i,) if i >= 0 else ()


def building_corners(s: State, player: int) -> list[int]:
    """Intersections holding one of the player's pieces."""
    return sorted(network.of(s).corners[player])


def tags_of(s: State, player: int, tag: str) -> set[int]:
    return {i for p, t, i in s.island_tags if p == player and t == tag}


@query("at: site", returns="island", reads=STATIC)
def island(s: State, at: Location) -> int:
    """The island the site belongs to (-1 for none)."""
    isl = site_islands(s.game, at)
    return isl[0] if isl else -1


@query("at: site, island: island", returns="bool", reads=STATIC)
def on_island(s: State, at: Location, island: Any) -> bool:
    """The site touches a hex of the named island."""
    want = _as_set(island)
    return any(i in want for i in site_islands(s.game, at))


@query("player: player", returns="list<island>", reads=BOARD)
def islands_of(s: State, player: int) -> list[int]:
    """The islands the player has a settlement or city on."""
    b = s.game.board
    out: set[int] = set()
    for c in building_corners(s, player):
        out.update(b.corner_islands[c])
    return sorted(out)


@query("player: player, island: island", returns="bool", reads=BOARD)
def first_on(s: State, player: int, island: Any) -> bool:
    """The building the player placed last is their first on that island."""
    want = _as_set(island)
    b = s.game.board
    last = s.last_corner[player]
    if last < 0 or s.corner_owner[last] != player:
        return False
    if not want.intersection(b.corner_islands[last]):
        return False
    for c in building_corners(s, player):
        if c != last and want.intersection(b.corner_islands[c]):
            return False
    return True


@query("player: player, tag: str, island: island", returns="bool", reads=ISLANDS)
def island_marked(s: State, player: int, tag: str, island: Any) -> bool:
    """The player marked the island (one of them, for a list) with `tag` (see mark_island)."""
    return bool(_as_set(island) & tags_of(s, player, tag))


@query("player: player, tag: str", returns="int", reads=(BOARD, ISLANDS))
def islands_with(s: State, player: int, tag: str) -> int:
    """How many islands the player has a building on, not counting ones marked `tag`."""
    tagged = tags_of(s, player, tag)
    return sum(1 for i in islands_of(s, player) if i not in tagged)


@effect("player: player, tag: str, island: island", writes=ISLANDS)
def mark_island(s: State, player: int, tag: str, island: Any) -> None:
    """Records a tag (such as home) for the player on an island."""
    for i in sorted(_as_set(island)):
        entry = IslandTag(int(player), str(tag), i)
        if entry not in s.island_tags:
            s.island_tags.append(entry)


@effect("player: player, at: intersection, count: int 0..100", writes=TOKENS)
def vp_token(s: State, player: int, at: Location, count: int) -> None:
    """Special victory points, laid under the building at `at`."""
    code, k = at
    if code != "i":
        raise EngineError("vp_token needs an intersection (the building that earned it)")
    if count <= 0:
        return
    for j, entry in enumerate(s.vp_tokens):
        if entry.player == player and entry.intersection == k:
            s.vp_tokens[j] = entry._replace(points=entry.points + count)
            return
    s.vp_tokens.append(VictoryToken(int(player), k, count))


def special_points(s: State, player: int) -> int:
    return sum(n for p, _, n in s.vp_tokens if p == player)

