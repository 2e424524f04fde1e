"""The map checks of `lint`, on one deal of one configured map: structure errors
(L01xx) and balance warnings (L02xx). A deal (board/instantiate.py) is coordinates
only, so a shuffled map is checked over many deals cheaply; `lint/run.py` counts how
many deals show each finding.

Each finding points at the line that decides it: a fixed hex's cell in the picture, or
the pool or number plan that dealt it. Everything is visited in geometric order
(`geometry.hex_key`, `intersection_key`), never in set order, so a seed gives the same
findings on every run."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from functools import cached_property

from catandsl.board import geometry as geo
from catandsl.board.instantiate import Deal
from catandsl.board.numbers import PIPS
from catandsl.diagnostics import Diagnostic, Span
from catandsl.ir import model
from catandsl.ir.ruleset import Ruleset
from catandsl.lint.codes import CODES
from catandsl.lint.config import LintConfig

# How often each number comes up among the 18 tokens of the base game: L0206 measures
# a map's numbers against it.
USUAL_NUMBERS = {2: 1, 3: 2, 4: 2, 5: 2, 6: 2, 8: 2, 9: 2, 10: 2, 11: 2, 12: 1}
HOT = (6, 8)


def finding(code: str, message: str, span: Span, help: str | None = None) -> Diagnostic:
    return Diagnostic(code, message, span, severity=CODES[code][0], help=help)


def span_of(source: model.Source | None, fallback: Span) -> Span:
    return fallback if source is None else Span(source.file, source.line, source.column)


def pips(number: int | None) -> int:
    return PIPS[number] if number is not None and 0 <= number < len(PIPS) else 0


def producing(t: model.Terrain) -> bool:
    return not t.water and (t.produces is not None or t.choice)


@dataclass(frozen=True)
class MapView:
    """One deal with what the checks ask of it: which line laid each hex and number."""

    rs: Ruleset
    dealt: Deal
    fallback: Span

    @cached_property
    def hexes(self) -> list[geo.Hex]:
        return sorted(self.dealt.tiles, key=geo.hex_key)

    def terrain(self, h: geo.Hex) -> model.Terrain | None:
        name = self.dealt.terrain_at(h)
        return self.rs.terrains.get(name) if name is not None else None

    def number(self, h: geo.Hex) -> int | None:
        tile = self.dealt.tiles.get(h)
        return tile.number if tile is not None else None

    def land(self, h: geo.Hex) -> bool:
        t = self.terrain(h)
        return t is not None and not t.water

    @cached_property
    def _slots(self) -> dict[geo.Hex, model.HexSlot]:
        assert self.rs.map is not None
        return {(s.q, s.r): s for s in self.rs.map.hexes}

    def _slot(self, h: geo.Hex) -> model.HexSlot | None:
        return self._slots.get(h)

    def map_span(self) -> Span:
        assert self.rs.map is not None
        return span_of(self.rs.map.source, self.fallback)

    def tile_span(self, h: geo.Hex) -> Span:
        """The cell of a fixed hex, or the pool that dealt it."""
        assert self.rs.map is not None
        slot = self._slot(h)
        if slot is not None and slot.pool is not None:
            pool = next((p for p in self.rs.map.pools if p.name == slot.pool), None)
            if pool is not None and pool.shuffled:
                return span_of(pool.source, self.map_span())
        return span_of(slot.source if slot is not None else None, self.map_span())

    def number_span(self, h: geo.Hex) -> Span:
        """The cell of a fixed number, or the plan that laid it."""
        assert self.rs.map is not None
        slot = self._slot(h)
        if slot is not None and slot.number is not None:
            return span_of(slot.source, self.map_span())
        tile = self.dealt.tiles.get(h)
        for plan in self.rs.map.numbers:
            if plan.method != "fixed" and (not plan.onto or (tile is not None and tile.pool in plan.onto)):
                return span_of(plan.source, self.map_span())
        return self.tile_span(h)

    def corner_pips(self, x: geo.Intersection) -> int:
        total = 0
        for h in geo.intersection_hexes(x):
            t = self.terrain(h)
            if t is not None and producing(t):
                total += pips(self.number(h))
        return total

    @cached_property
    def _intersections(self) -> list[geo.Intersection]:
        """Every intersection touching land, in geometric order."""
        out = {x for h in self.hexes if self.land(h) for x in geo.corners(h)}
        return sorted(out, key=geo.intersection_key)

    def intersections(self) -> list[geo.Intersection]:
        return list(self._intersections)

    def resource_pips(self) -> dict[str, int]:
        """Pips per resource that some terrain produces, in the scenario's resource order."""
        produced = {t.produces for t in self.rs.terrains.values() if producing(t) and t.produces}
        out = {r: 0 for r in self.rs.resources if r in produced}
        for h in self.hexes:
            t = self.terrain(h)
            if t is not None and producing(t) and t.produces in out:
                out[t.produces] += pips(self.number(h))
        return out


def check_deal(view: MapView, players: int, config: LintConfig) -> Iterator[Diagnostic]:
    yield from _unreachable_islands(view)
    yield from _too_few_starts(view, players)
    yield from _numbers_on_barren_hexes(view)
    yield from _touching_numbers(view)
    yield from _clumps(view, config)
    yield from _scarce_resources(view, config)
    yield from _number_distribution(view, config)
    yield from _gold_on_hot_numbers(view)
    yield from _strong_intersection(view, config)


# ---- structure -----------------------------------------------------------------------------


def has_ships(rs: Ruleset) -> bool:
    """Whether a player's piece may stand on a path at sea (a ship): judged from its
    `where` as `check` judges starts (a condition it cannot judge counts as yes)."""
    from catandsl.compiler.validate import site_condition

    for piece in rs.pieces.values():
        if piece.neutral or piece.site != "path":
            continue
        if piece.where is None or site_condition(piece.where, True, land=False) is not False:
            return True
    return False


def _unreachable_islands(view: MapView) -> Iterator[Diagnostic]:
    """L0101: with no ships, settlements spread by roads over land, so an island beyond
    the largest is reached only by the set-up, if at all."""
    islands: dict[int, list[geo.Hex]] = {}
    for h in view.hexes:
        if h in view.dealt.islands:
            islands.setdefault(view.dealt.islands[h], []).append(h)
    if len(islands) < 2 or has_ships(view.rs):
        return
    main = max(islands, key=lambda k: (len(islands[k]), -k))
    for k in sorted(islands):
        if k == main:
            continue
        first = islands[k][0]
        yield finding("L0101", f"the island of {len(islands[k])} hex{'es' if len(islands[k]) != 1 else ''} at "
                      f"({first[0]}, {first[1]}) cannot be reached: no piece of this scenario goes by sea, "
                      f"and the main island has {len(islands[main])} hexes", view.tile_span(first),
                      help="join it to the main island with land, or use a ruleset with ships (`uses seafarers`)")


def placements(rs: Ruleset) -> tuple[int, model.Piece | None]:
    """How many pieces on intersections each player places in the set-up, and the first."""
    count, first = 0, None
    for rnd in rs.setup.rounds if rs.setup is not None else ():
        for step in rnd.steps:
            pieces = [rs.pieces[p] for p in step.pieces if p in rs.pieces]
            if step.action == "place" and pieces and all(p.site == "intersection" and not p.neutral for p in pieces):
                count += 1
                first = first or pieces[0]
    return count, first


def room_for(view: MapView, distance: int, enough: int | None = None) -> int:
    """How many pieces fit on the land intersections, no two within `distance - 1`
    paths: a greedy packing that takes first the spots blocking fewest others (near the
    largest on boards like these). Stops at `enough`, so a big map costs one pass."""
    spots = view.intersections()
    reach = max(0, distance - 1)
    near: dict[geo.Intersection, set[geo.Intersection]] = {}
    for x in spots:
        seen, frontier = {x}, [x]
        for _ in range(reach):
            frontier = [n for f in frontier for n in geo.intersection_neighbours(f) if n not in seen]
            seen.update(frontier)
        near[x] = seen
    on_board = set(spots)
    order = sorted(spots, key=lambda x: (len(near[x] & on_board), geo.intersection_key(x)))
    taken: set[geo.Intersection] = set()
    placed = 0
    for x in order:
        if x in taken:
            continue
        placed += 1
        if enough is not None and placed >= enough:
            break
        taken |= near[x]
    return placed


def _too_few_starts(view: MapView, players: int) -> Iterator[Diagnostic]:
    """L0102: the set-up places more pieces than the distance rule leaves room for."""
    each, piece = placements(view.rs)
    if not each or piece is None:
        return
    need = each * players
    room = room_for(view, piece.distance, enough=need)
    if room < need:
        yield finding("L0102", f"{players} players place {need} {piece.name}s in the set-up, but the land "
                      f"has room for about {room} under the distance rule", view.map_span(),
                      help="add land hexes, or declare fewer players (`players 2..3`)")


def _numbers_on_barren_hexes(view: MapView) -> Iterator[Diagnostic]:
    """L0103: a number token on land that produces nothing (a desert): its rolls pay nobody."""
    for h in view.hexes:
        t = view.terrain(h)
        n = view.number(h)
        if t is not None and n is not None and not t.water and not producing(t):
            yield finding("L0103", f"the {t.name} hex ({h[0]}, {h[1]}) has the number {n}, but {t.name} "
                          "produces nothing", view.number_span(h),
                          help="drop the number from this cell, or make the terrain produce")


def missing_starts(rs: Ruleset, fallback: Span) -> Iterator[Diagnostic]:
    """L0104: a neutral piece on hexes (a robber) that the map gives no start."""
    if rs.map is None:
        return
    started = {s.piece for s in rs.map.starts}
    for name, piece in rs.pieces.items():
        if piece.neutral and piece.site == "hex" and name not in started:
            yield finding("L0104", f"the map gives the {name} no start", span_of(rs.map.source, fallback),
                          help=f"add `start {name} on desert` (or `start {name} at (q, r)`, "
                               f"or `start {name} off board`) to the map")


# ---- balance -----------------------------------------------------------------------------


def _touching_numbers(view: MapView) -> Iterator[Diagnostic]:
    """L0201 (6 and 8) and L0202 (equal numbers): two numbered hexes side by side."""
    for h in view.hexes:
        a = view.number(h)
        if a is None:
            continue
        for n in geo.neighbours(h):
            b = view.number(n)
            if b is None or geo.hex_key(n) <= geo.hex_key(h):
                continue  # each pair once, from its first hex
            where = f"({h[0]}, {h[1]}) and ({n[0]}, {n[1]})"
            if a in HOT and b in HOT:
                pair = f"two {a}s are" if a == b else f"{a} and {b} are"
                yield finding("L0201", f"{pair} side by side at {where}", view.number_span(h),
                              help="move one of them, or deal the numbers with `avoid_adjacent [6, 8]`")
            elif a == b:
                yield finding("L0202", f"two {a}s are side by side at {where}", view.number_span(h),
                              help=f"move one of the {a}s, or deal the numbers with `avoid_adjacent [{a}]`")


def _clumps(view: MapView, config: LintConfig) -> Iterator[Diagnostic]:
    """L0203: `clump` or more touching hexes of one producing terrain."""
    seen: set[geo.Hex] = set()
    for first in view.hexes:
        t = view.terrain(first)
        if first in seen or t is None or not producing(t):
            continue
        group, todo = [first], [first]
        seen.add(first)
        while todo:
            for n in geo.neighbours(todo.pop()):
                if n not in seen and view.dealt.terrain_at(n) == t.name:
                    seen.add(n)
                    group.append(n)
                    todo.append(n)
        if len(group) >= config.clump:
            group.sort(key=geo.hex_key)
            yield finding("L0203", f"{len(group)} {t.name} hexes touch, from ({first[0]}, {first[1]})",
                          view.tile_span(group[-1]),
                          help="spread the terrain out, or deal the pool with `max_clump 2`")


def _scarce_resources(view: MapView, config: LintConfig) -> Iterator[Diagnostic]:
    """L0204: a resource with a small share of the pips; L0205: a 2:1 harbor for one."""
    per = view.resource_pips()
    total = sum(per.values())
    if not per or total == 0:
        return
    even = 1 / len(per)
    for resource, p in per.items():
        share = p / total
        if share < even * config.scarce_share:
            yield finding("L0204", f"{resource} has {p} of the {total} pips ({share:.0%}; an even share is "
                          f"{even:.0%})", view.map_span(),
                          help=f"give {resource}'s terrain more hexes or better numbers")
    assert view.rs.map is not None
    for plan in view.rs.map.harbors:
        for i, kind in enumerate(plan.harbors):
            r = kind.resource
            if r is None or r not in per or kind.give != 2:
                continue
            share = per[r] / total
            if share < even * config.harbor_share:
                spot = plan.spots[i] if plan.method == "fixed" and i < len(plan.spots) else None
                source = spot.source if spot is not None and spot.source is not None else plan.source
                yield finding("L0205", f"a 2:1 harbor for {r}, which has only {share:.0%} of the pips",
                              span_of(source, view.map_span()),
                              help=f"make it a 3:1 harbor, or give {r} more production")


def _number_distribution(view: MapView, config: LintConfig) -> Iterator[Diagnostic]:
    """L0206: the numbers' mix, as shares, far from the base game's (total variation
    distance, half the sum of the differences of the shares)."""
    numbered = [h for h in view.hexes if view.number(h) is not None]
    if len(numbered) < 10:
        return  # too few tokens for a mix to mean anything
    counts: dict[int, int] = {}
    for h in numbered:
        n = view.number(h)
        assert n is not None
        counts[n] = counts.get(n, 0) + 1
    usual_total = sum(USUAL_NUMBERS.values())
    keys = sorted(set(counts) | set(USUAL_NUMBERS))
    tv = sum(abs(counts.get(k, 0) / len(numbered) - USUAL_NUMBERS.get(k, 0) / usual_total) for k in keys) / 2
    if tv > config.distribution_distance:
        mean = sum(pips(view.number(h)) for h in numbered) / len(numbered)
        yield finding("L0206", f"the numbers are far from the usual mix: a distance of {tv:.2f} "
                      f"(limit {config.distribution_distance:.2f}), {mean:.1f} pips a token against 3.2",
                      view.number_span(numbered[0]),
                      help="use each of 3-6 and 8-11 about twice as often as 2 and 12")


def _gold_on_hot_numbers(view: MapView) -> Iterator[Diagnostic]:
    """L0207: a hex whose owner picks the resource, on the most rolled numbers."""
    for h in view.hexes:
        t = view.terrain(h)
        n = view.number(h)
        if t is not None and t.choice and n in HOT:
            yield finding("L0207", f"the {t.name} hex ({h[0]}, {h[1]}) has a {n}", view.number_span(h),
                          help=f"give {t.name} a rarer number, or deal with `keep [6, 8] off [{t.name}]`")


def _strong_intersection(view: MapView, config: LintConfig) -> Iterator[Diagnostic]:
    """L0208: the strongest intersection, when its pips pass the limit."""
    best, where = -1, None
    for x in view.intersections():
        p = view.corner_pips(x)
        if p > best:
            best, where = p, x
    if where is None or best <= config.strong_intersection:
        return
    around = [h for h in geo.intersection_hexes(where) if view.number(h) is not None]
    numbers = " + ".join(str(view.number(h)) for h in around)
    yield finding("L0208", f"the intersection ({where[0]}, {where[1]}) {where[2]} touches {numbers}: {best} pips "
                  f"(limit {config.strong_intersection})", view.number_span(around[0]),
                  help="move one of its strong numbers away")
