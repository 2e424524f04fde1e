"""A board whose hexes changed in play: the board as dealt, with some hexes' terrain and
number replaced (a face-down hex revealed, a rule's `set_terrain` or `set_number`).

The hexes, intersections and paths stay the same (so every id stays the same); what
depends on terrain is derived again: land, water and coast, islands, the numbers'
hexes. Island numbers are kept stable, because the state keeps them (island marks):

- an island keeps the lowest number, as dealt, of its hexes that no island before it
  (in board order) kept: land that joins an island takes its number, and two islands
  joined by new land keep the lower number;
- land with no number as dealt takes `dealt islands + k`, k the place of its earliest
  hex in the order the hexes first changed: a new island keeps its number as it grows;
- what is left (a part of an island cut off by new water) takes `dealt islands + hexes
  + its first hex's index`. So every island number is below `island_limit(deal)`.
"""

from __future__ import annotations

from catandsl.board import geometry as geo
from catandsl.board.board import Board
from catandsl.board.instantiate import Deal, find_islands

Change = tuple[geo.Hex, str, int]  # a hex, its terrain now, its number now (0: none)


def island_limit(d: Deal) -> int:
    """Every island number of a changed board is below this."""
    return len(set(d.islands.values())) + 2 * len(d.tiles)


def changed_board(d: Deal, changes: tuple[Change, ...]) -> Board:
    """The board of deal `d` with `changes` applied, in the order the hexes first changed."""
    tiles = dict(d.tiles)
    for h, terrain, number in changes:
        tiles[h] = tiles[h]._replace(terrain=terrain, number=number or None)
    order = sorted(tiles, key=geo.hex_key)
    land = [h for h in order if not d.terrains[tiles[h].terrain].water]
    islands = _numbered(find_islands(land), d, [h for h, _, _ in changes], order)
    named = {}
    for name, numbers in d.island_names.items():
        was = set(numbers)
        named[name] = tuple(sorted({islands[h] for h, k in d.islands.items() if k in was and h in islands}))
    fields = d._asdict()
    fields.update(tiles=tiles, islands=islands, island_names=named)
    return Board(**fields)


def _numbered(groups: dict[geo.Hex, int], d: Deal, changed: list[geo.Hex],
              order: list[geo.Hex]) -> dict[geo.Hex, int]:
    dealt = len(set(d.islands.values()))
    first_change = {h: k for k, h in enumerate(changed)}
    members: dict[int, list[geo.Hex]] = {}
    for h in order:
        if h in groups:
            members.setdefault(groups[h], []).append(h)
    taken: set[int] = set()
    out: dict[geo.Hex, int] = {}
    for g in sorted(members):
        hexes = members[g]
        wants = sorted({d.islands[h] for h in hexes if h in d.islands}) + \
            sorted(dealt + first_change[h] for h in hexes if h in first_change and h not in d.islands)
        number = next((k for k in wants if k not in taken),
                      dealt + len(order) + order.index(hexes[0]))
        taken.add(number)
        out.update((h, number) for h in hexes)
    return out
