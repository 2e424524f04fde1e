"""`mark NAME [...]` in a map: places rules name (a list of hexes, intersections and
paths, in order), and what number plans read from them: `keep [...] off NAME` (the
hexes the mark's places are or touch) and `numbers along NAME [...]` (a mark of hexes,
each next to the one before: the path the tokens are laid along)."""

from __future__ import annotations

import dataclasses
from typing import Protocol

from catandsl.board import geometry as geo
from catandsl.compiler.context import Context, Shape, did_you_mean, no_more, source_of, terms
from catandsl.diagnostics import Span
from catandsl.ir import model
from catandsl.syntax import ast

CORNERS = ("N", "S", "C")
FORM = "write `mark east_coast [(3, 0), (3, 0) N, (3, 0) NE, ...]`: hexes, intersections (a hex and its " \
       "N or S corner) and paths (a hex and a side)"
MAX_MARK = 1_000


class MapReader(Protocol):
    """What marks read of the map being read (maps.py's MapReader, which calls them)."""

    ctx: Context
    marks: list[tuple[model.Mark, tuple[Span, ...]]]
    # for each number plan, the marks it names (`keep ... off NAME`, then `along NAME`)
    mark_refs: list[tuple[int, list[ast.Word], list[ast.Word]]]
    numbers: list[model.NumberPlan]


def read(reader: MapReader, e: ast.Entry) -> None:
    items = terms(e)
    if not items or not isinstance(items[0], ast.Word):
        raise Shape(e.span, FORM)
    name, lst = items[0], items[1] if len(items) > 1 else None
    if not isinstance(lst, ast.ListTerm) or not lst.items:
        raise Shape(e.span, FORM)
    no_more(items, 2, "mark")
    if any(m.name == name.name for m, _ in reader.marks):
        raise Shape(name.span, f"mark `{name.name}` is named twice in this map")
    if len(lst.items) > MAX_MARK:
        raise Shape(lst.span, f"a mark holds at most {MAX_MARK:,} places")
    places: list[tuple[int, int, str]] = []
    spans = []
    for ph in lst.items:
        ts = ph.terms
        if len(ts) == 1 and isinstance(ts[0], ast.Coord):
            places.append((ts[0].q, ts[0].r, ""))
        elif len(ts) == 2 and isinstance(ts[0], ast.Coord) and isinstance(ts[1], ast.Word):
            part = ts[1].name
            if part not in CORNERS + geo.SIDE_NAMES:
                hint = did_you_mean(part.upper(), CORNERS + geo.SIDE_NAMES)
                reader.ctx.error("E0440", f"`{part}` is neither a corner nor a side of a hex", ts[1].span,
                                 help=(f"{hint}; " if hint else "") + "an intersection is a hex's N or S "
                                 "corner, a path one of its sides NE, E, SE, SW, W, NW")
                continue
            places.append((ts[0].q, ts[0].r, part))
        else:
            raise Shape(ph.span, FORM)
        spans.append(ph.span)
    reader.marks.append((model.Mark(name.name, tuple(places), source_of(e.span)), tuple(spans)))


def touched(place: tuple[int, int, str]) -> tuple[geo.Hex, ...]:
    """The hexes a place is or touches."""
    q, r, part = place
    if not part:
        return ((q, r),)
    if part in CORNERS:
        return geo.intersection_hexes(geo.corner((q, r), part))
    return geo.edge_hexes(geo.canonical_edge(q, r, part))


def finish(reader: MapReader, on_map: set[tuple[int, int]]) -> tuple[model.Mark, ...]:
    """Check every mark's places against the map, then give the number plans that name a
    mark its hexes."""
    ctx = reader.ctx
    by_name: dict[str, model.Mark] = {}
    for mark, spans in reader.marks:
        for place, span in zip(mark.places, spans):
            if not any(h in on_map for h in touched(place)):
                q, r, part = place
                ctx.error("E0440", f"({q}, {r}){' ' + part if part else ''} is not on this map", span,
                          help="a mark's hexes are the map's, its intersections and paths touch one")
        by_name[mark.name] = mark
    for k, bans, along in reader.mark_refs:
        if bans or along:
            reader.numbers[k] = _resolved(reader, reader.numbers[k], bans, along, by_name)
    return tuple(m for m, _ in reader.marks)


def _resolved(reader: MapReader, plan: model.NumberPlan, ban_words: list[ast.Word],
              along_words: list[ast.Word], marks: dict[str, model.Mark]) -> model.NumberPlan:
    ctx = reader.ctx

    def mark(w: ast.Word) -> model.Mark | None:
        m = marks.get(w.name)
        if m is None:
            hint = did_you_mean(w.name, marks)
            if ctx.is_declared("terrain", w.name):  # (terrains are listed: `off [gold]`)
                hint = f"`{w.name}` is a terrain: write `keep [...] off [{w.name}]`, e.g. `keep [6, 8] off [{w.name}]`"
            ctx.error("E0440", f"this map marks no `{w.name}`", w.span,
                      help=hint or f"add `mark {w.name} [(q, r), ...]` to the map")
        return m

    if plan.method == "hidden" and ban_words:
        ctx.error("E0440", "a hidden stack's numbers are drawn as its hexes are revealed; "
                  "`keep ... off` a mark is for numbers laid when the map is dealt", ban_words[0].span,
                  help="keep them off terrains instead: `keep [6, 8] off [gold]`")
    bans = []
    words = iter(ban_words)
    for ban in plan.keep_off:
        if ban.place is None:
            bans.append(ban)
            continue
        m = mark(next(words))
        hexes = tuple(dict.fromkeys(h for p in m.places for h in touched(p))) if m else ()
        bans.append(dataclasses.replace(ban, hexes=hexes))
    along = []
    for word in along_words:
        m = mark(word)
        if m is None:
            continue
        if any(p[2] for p in m.places):
            ctx.error("E0440", f"numbers are laid along hexes, but `{word.name}` marks intersections or paths",
                      word.span, help="mark the path of hexes: `mark path [(0, -2), (1, -2), ...]`")
            continue
        hexes = tuple((q, r) for q, r, _ in m.places)
        gap = next((k for k in range(1, len(hexes)) if not geo.are_adjacent(hexes[k - 1], hexes[k])), None)
        if gap is not None:
            a, b = hexes[gap - 1], hexes[gap]
            ctx.error("E0440", f"the path `{word.name}` jumps from ({a[0]}, {a[1]}) to ({b[0]}, {b[1]}), "
                      "which do not touch", word.span, help="each hex of a number path touches the one before")
            continue
        if len(set(hexes)) != len(hexes):
            ctx.error("E0440", f"the path `{word.name}` passes a hex twice", word.span)
            continue
        along.append(hexes)
    return dataclasses.replace(plan, keep_off=tuple(bans), along=tuple(along))
