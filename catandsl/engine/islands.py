"""Islands, island tags and special victory points: the queries and effects rules use
(`island`, `on_island`, `first_on`, `home_island`, `islands_with`, `islands_of`,
`mark_island`, `vp_token`), read from the board's island tables.

Island values are island numbers (ints, the board's `islands` index); a bare island name
in an expression (`main`) is the list of island numbers it names, so every query taking
an island also takes such a list (any of them). Queries that read only the board work
with `state` None (a piece's or set-up step's `where`).

State data (see state.py): `vp_tokens` is a list of [player, intersection, count] (the
tokens lie under the building at that intersection, whatever it later becomes);
`island_tags` is a list of [player, tag, island].
"""

from __future__ import annotations

from catandsl.engine.errors import EngineError


def _as_set(island) -> set[int]:
    if isinstance(island, (list, tuple)):
        return {int(i) for i in island}
    return {int(island)}


def site_islands(game, at) -> tuple[int, ...]:
    """The islands a site touches: an intersection its land hexes' islands, a path the
    islands of the hexes on either side, a hex its own island (none for water)."""
    b = game.board
    kind, k = at
    if kind == "i":
        return tuple(b.corner_islands[k])
    if kind == "p":
        return tuple(sorted({b.hex_island[h] for h in b.path_hexes[k] if b.hex_island[h] >= 0}))
    i = b.hex_island[k]
    return (i,) if i >= 0 else ()


def building_corners(state, player: int) -> list[int]:
    """Intersections holding one of the player's pieces."""
    return [c for c, o in enumerate(state.corner_owner) if o == player]


def islands_of(game, state, player) -> list[int]:
    b = game.board
    out: set[int] = set()
    for c in building_corners(state, player):
        out.update(b.corner_islands[c])
    return sorted(out)


def tags_of(state, player: int, tag: str) -> set[int]:
    return {i for p, t, i in state.island_tags if p == player and t == tag}


# ---- queries ------------------------------------------------------------------------------


def q_island(game, state, at):
    isl = site_islands(game, at)
    return isl[0] if isl else -1


def q_on_island(game, state, at, island):
    want = _as_set(island)
    return any(i in want for i in site_islands(game, at))


def q_first_on(game, state, player, island):
    """The building just placed (the last intersection built on) is the player's only
    one on the island."""
    want = _as_set(island)
    b = game.board
    last = state.last_corner
    if last < 0 or state.corner_owner[last] != player:
        return False
    if not want.intersection(b.corner_islands[last]):
        return False
    for c in building_corners(state, player):
        if c != last and want.intersection(b.corner_islands[c]):
            return False
    return True


def q_home_island(game, state, player, island):
    return bool(_as_set(island) & tags_of(state, player, "home"))


def q_islands_with(game, state, player, tag):
    tagged = tags_of(state, player, str(tag))
    return sum(1 for i in islands_of(game, state, player) if i not in tagged)


def q_in_setup(game, state):
    return state.stage == "setup"


# ---- effects ------------------------------------------------------------------------------


def e_mark_island(game, state, player, tag, island):
    for i in sorted(_as_set(island)):
        entry = [int(player), str(tag), i]
        if entry not in state.island_tags:
            state.island_tags.append(entry)


def e_vp_token(game, state, player, at, count):
    kind, k = at
    if kind != "i":
        raise EngineError("vp_token needs an intersection (the building that earned it)")
    n = int(count)
    if n <= 0:
        return
    for entry in state.vp_tokens:
        if entry[0] == player and entry[1] == k:
            entry[2] += n
            return
    state.vp_tokens.append([int(player), k, n])


def special_points(state, player: int) -> int:
    return sum(n for p, _, n in state.vp_tokens if p == player)


QUERIES = {
    "island": q_island,
    "on_island": q_on_island,
    "first_on": q_first_on,
    "home_island": q_home_island,
    "islands_with": q_islands_with,
    "islands_of": islands_of,
    "in_setup": q_in_setup,
}

EFFECTS = {
    "mark_island": e_mark_island,
    "vp_token": e_vp_token,
}
