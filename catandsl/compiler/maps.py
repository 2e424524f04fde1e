"""`map { ... }` -> model.Map: the row picture, legend, explicit hexes, pools, number
plans, harbors, the frame, starting positions and island names.

A row picture is read by character column: a hex is two half-steps wide, each row is
offset by half a hex from the one above, so the columns of the cells give the axial
coordinates. The compiler checks the picture's shape and names here; what needs the
whole geometry (harbors on a coast, a closing frame, pools that fill their slots) is
checked by instantiating the board (catandsl/board), whose errors point back here.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from dataclasses import replace

from catandsl.compiler import marks
from catandsl.compiler.context import (
    Context,
    Shape,
    did_you_mean,
    digits_value,
    in_range,
    need_number,
    need_word,
    no_more,
    source_of,
    terms,
)
from catandsl.diagnostics import Span
from catandsl.ir import model
from catandsl.syntax import ast
from catandsl.syntax.parser import MAX_DIGITS

SIDES = ("NE", "E", "SE", "SW", "W", "NW")
CORNERS = ("N", "S")
MAX_HEXES = 10_000
MAX_SCENARIO_HEXES = 40_000  # every map of a scenario together (its variants included)
_CELL = re.compile(r"^([^\s0-9])([0-9]+)?$")


class MapReader:
    """Reads one `map` entry: its pictures, cells, pools, numbers, harbors and frame."""

    def __init__(self, ctx: Context, entry: ast.Entry):
        self.ctx = ctx
        self.entry = entry
        # picture cells in drawing order: ((q, r), symbol, number, span); a list, so that
        # two pictures drawing the same hex are reported (E0412) rather than overwritten
        self.cells: list[tuple[tuple[int, int], str, int | None, Span]] = []
        self.explicit: list[tuple[int, int, ast.Word, int | None, Span]] = []
        self.legend: dict[str, tuple[ast.Word, Span]] = {}
        self.pools: list[model.TilePool] = []
        self.numbers: list[model.NumberPlan] = []
        self.harbors: list[model.HarborPlan] = []
        self.frame: model.Frame | None = None
        self.starts: list[model.Start] = []
        self.islands: list[model.IslandName] = []
        self.sites: list[model.SitePlacement] = []
        self.areas: list[model.Area] = []
        self.marks: list[tuple[model.Mark, tuple[Span, ...]]] = []
        # for each number plan, the marks it names (`keep ... off NAME`, then `along NAME`)
        self.mark_refs: list[tuple[int, list[ast.Word], list[ast.Word]]] = []
        self.too_large = False

    # ---- the walk ------------------------------------------------------------------
    def read(self) -> model.Map | None:
        assert self.entry.block is not None  # Declarations._map checked it
        for st in self.entry.block.stmts:
            try:
                if not isinstance(st, ast.Entry):
                    raise Shape(st.span, "a map holds rows, legend, hex, pool, numbers, harbors, frame, start, "
                                         "island and sites lines")
                handler = MAP.get(st.head.name)
                if handler is None:
                    self.ctx.unknown_word(st.head, MAP, "map property")
                    continue
                handler(self, st)
            except Shape as e:
                self.ctx.error("E0304", e.message, e.span, help=e.help)
            if self.too_large:
                return None
        return self._build()

    def _build(self) -> model.Map | None:
        pool_names = {p.name for p in self.pools}
        slots: dict[tuple[int, int], model.HexSlot] = {}

        def put(q, r, name: str, name_span: Span, number, span: Span):
            if (q, r) in slots:
                self.ctx.error("E0412", f"hex ({q}, {r}) is given twice", span,
                               help="each hex appears once, in the picture or in a `hex` line")
                return
            if name in pool_names:
                slot = model.HexSlot(q, r, None, name, number, source_of(span))
            else:
                self.ctx.refer("terrain", name, name_span, context="the map")
                slot = model.HexSlot(q, r, name, None, number, source_of(span))
            slots[(q, r)] = slot

        for (q, r), symbol, number, span in sorted(self.cells, key=lambda c: (c[0][1], c[0][0])):
            if symbol not in self.legend:
                if symbol == ".":
                    continue  # no hex here
                known = ", ".join(sorted(self.legend)) or "none"
                self.ctx.error("E0402", f"symbol `{symbol}` is not in the legend", span,
                               help=f"add `{symbol} TERRAIN` to the legend (symbols: {known})")
                continue
            word, _ = self.legend[symbol]
            put(q, r, word.name, word.span, number, span)
        for q, r, word, number, span in self.explicit:
            put(q, r, word.name, word.span, number, span)
        if len(slots) > MAX_HEXES:
            self.ctx.error("E0408", f"the map has {len(slots):,} hexes; the limit is {MAX_HEXES:,}",
                           self.entry.span)
            return None
        self.ctx.map_hexes += len(slots)
        if self.ctx.map_hexes > MAX_SCENARIO_HEXES:
            self.ctx.error("E0408", f"the scenario's maps hold more than {MAX_SCENARIO_HEXES:,} hexes together",
                           self.entry.span, help="a scenario needs a few maps of some dozens of hexes")
            return None
        for pool in self.pools:
            self.ctx.declare("pool", pool.name, self.entry.span)
        for isl in self.islands:
            self.ctx.declare("island", isl.name, self.entry.span)
        for area in self.areas:
            self.ctx.declare("area", area.name, self.entry.span)
        found = marks.finish(self, set(slots))
        for mark, _ in self.marks:
            self.ctx.declare("mark", mark.name, self.entry.span)
        hexes = tuple(sorted(slots.values(), key=lambda s: (s.r, s.q)))
        return model.Map(
            "map", hexes, tuple(self.pools), tuple(self.numbers), tuple(self.harbors),
            self.frame, tuple(self.starts), tuple(self.islands), tuple(self.sites),
            source_of(self.entry.span), tuple(self.areas), found,
        )

    # ---- rows and legend ---------------------------------------------------------------
    def rows(self, e: ast.Entry) -> None:
        items = terms(e)
        origin = (0, 0)
        picture = None
        for i, t in enumerate(items):
            if isinstance(t, ast.Str) and picture is None:
                picture = t
            elif (isinstance(t, ast.Word) and t.name == "at" and i + 1 < len(items)
                  and isinstance(items[i + 1], ast.Coord)):
                origin = (items[i + 1].q, items[i + 1].r)
            elif isinstance(t, ast.Coord) and i > 0 and getattr(items[i - 1], "name", None) == "at":
                continue
            else:
                raise Shape(t.span, 'write `rows """ ... """` or `rows at (q, r) """ ... """`')
        if picture is None:
            raise Shape(e.span, 'the rows need a picture in triple quotes: rows """ ... """')
        self._picture(picture, origin)

    def _picture(self, pic: ast.Str, origin: tuple[int, int]) -> None:
        lines = pic.value.split("\n")
        found: list[tuple[int, int, str, Span]] = []  # (row line index, column, text, span)
        for k, line in enumerate(lines):
            base_col = pic.span.column + 3 if k == 0 else 1
            for m in re.finditer(r"\S+", line.replace("\t", " ")):
                span = Span(pic.span.file, pic.span.line + k, base_col + m.start(),
                            pic.span.line + k, base_col + m.end())
                found.append((k, m.start(), m.group(), span))
                if len(found) > MAX_HEXES:
                    self.ctx.error("E0408", f"the map picture has more than {MAX_HEXES:,} cells",
                                   pic.span, help="a scenario map has a few dozen hexes")
                    self.too_large = True
                    return
        if not found:
            raise Shape(pic.span, "the picture has no cells")
        first_line = found[0][0]
        c0 = found[0][1]
        by_row: dict[int, list[int]] = {}
        for k, c, _, _ in found:
            by_row.setdefault(k, []).append(c)
        # A hex is as wide as the usual distance between neighbours in a row; half of
        # it is the step between rows. Misplaced cells are then reported one by one.
        in_row = [b - a for cols in by_row.values() for a, b in zip(cols, cols[1:])]
        if in_row:
            counts = Counter(in_row)
            width = min(counts, key=lambda w: (-counts[w], w))
        else:
            starts = [cols[0] - c0 for cols in by_row.values() if cols[0] != c0]
            g = 0
            for d in starts:
                g = math.gcd(g, abs(d))
            width = 2 * (g or 1)
        if width % 2:
            raise Shape(pic.span, f"neighbouring cells are {width} columns apart; use an even spacing",
                        help="put cells 2 or 4 columns apart, each row shifted by half that")
        g = width // 2
        q0, r0 = origin
        doubled0 = 2 * q0 + r0
        for k, c, text, span in found:
            row = k - first_line
            r = r0 + row
            x = (c - c0)
            if x % g:
                self.ctx.error("E0401", f"cell `{text}` is not aligned with the hex grid", span,
                               help=f"cells sit every {2 * g} columns, each row shifted by {g}")
                continue
            doubled = doubled0 + x // g
            if (doubled - r) % 2:
                self.ctx.error("E0401", f"cell `{text}` is half a hex off its row", span,
                               help=f"rows alternate by {g} column(s); move this cell left or right by {g}")
                continue
            q = (doubled - r) // 2
            cell = _CELL.match(text)
            if cell is None:
                self.ctx.error("E0402", f"cell `{text}` is not a legend symbol with an optional number",
                               span, help="write a symbol such as `f` or `f8` (forest with an 8)")
                continue
            number = digits_value(cell.group(2)) if cell.group(2) else None
            if cell.group(2) and number is None:
                self.ctx.error("E0110", f"the number in cell `{text[:20]}{'...' if len(text) > 20 else ''}` "
                               f"is too large: numbers have at most {MAX_DIGITS} digits", span,
                               help="a hex's number is 2 to 12")
                continue
            self.cells.append(((q, r), cell.group(1), number, span))

    def legend_block(self, e: ast.Entry) -> None:
        if e.block is None or e.phrases:
            raise Shape(e.span, "write `legend { ~ sea; f forest }`")
        for st in e.block.stmts:
            if not isinstance(st, ast.Entry):
                raise Shape(st.span, "a legend lists `SYMBOL NAME` lines")
            sym = st.head.name
            if len(sym) != 1 or sym.isdigit():
                raise Shape(st.head.span, f"a legend symbol is one character, not `{sym}`")
            items = terms(st)
            name = need_word(items, 0, st, "a terrain or pool name")
            no_more(items, 1, "legend")
            if sym in self.legend:
                raise Shape(st.head.span, f"symbol `{sym}` is in the legend twice")
            self.legend[sym] = (name, st.span)

    def hex_line(self, e: ast.Entry) -> None:
        items = terms(e)
        if not items or not isinstance(items[0], ast.Coord):
            raise Shape(e.span, "write `hex (q, r) TERRAIN [NUMBER]`")
        name = need_word(items, 1, items[0], "a terrain or pool name")
        number = None
        if len(items) > 2:
            number = need_number(items, 2, name, "a number token").value
        no_more(items, 3, "hex")
        self.explicit.append((items[0].q, items[0].r, name, number, e.span))
        if len(self.explicit) > MAX_HEXES:
            self.ctx.error("E0408", f"the map has more than {MAX_HEXES:,} hexes", e.span)
            self.too_large = True

    # ---- pools and numbers --------------------------------------------------------------
    def pool(self, e: ast.Entry) -> None:
        items = terms(e)
        name = need_word(items, 0, e, "the pool's name")
        method = need_word(items, 1, name, "`shuffled`, `fixed` or `hidden`")
        if method.name not in ("shuffled", "fixed", "hidden"):
            raise Shape(method.span, f"a pool is `shuffled`, `fixed` or `hidden`, not `{method.name}`",
                        help=did_you_mean(method.name, ["shuffled", "fixed", "hidden"]))
        lst = items[2] if len(items) > 2 else None
        if not isinstance(lst, ast.ListTerm):
            raise Shape(e.span, "list the pool's tiles: pool land shuffled [forest x4, hills x3]")
        max_clump, cover = 0, None
        i = 3
        while i < len(items):
            w = need_word(items, i, items[i - 1], "`max_clump N` or `cover TERRAIN`")
            if w.name == "max_clump":
                n = need_number(items, i + 1, w, "the largest group of one terrain, 1 or more")
                if n.value < 1 or method.name != "shuffled":
                    raise Shape(n.span, "`max_clump N` takes N of 1 or more, on a shuffled pool")
                max_clump = n.value
            elif w.name == "cover":
                t = need_word(items, i + 1, w, "the terrain a face-down hex counts as")
                if method.name != "hidden":
                    raise Shape(w.span, "`cover` says what a face-down hex counts as: only a hidden pool has one",
                                help="pool unknown hidden [forest x2, sea x3] cover sea")
                self.ctx.refer("terrain", t, context=f"the cover of pool `{name.name}`")
                cover = t.name
            else:
                raise Shape(w.span, f"unknown pool property `{w.name}`",
                            help=did_you_mean(w.name, ["max_clump", "cover"])
                            or "pool land shuffled [forest x4, hills x3] max_clump 2")
            i += 2
        tiles = []
        for ph in lst.items:
            word, count = _counted_word(ph)
            self.ctx.refer("terrain", word, context=f"pool `{name.name}`")
            tiles.append(model.Amount(word.name, count))
        _map_sized(sum(t.count for t in tiles), lst.span, "tiles")
        if any(p.name == name.name for p in self.pools):
            raise Shape(name.span, f"pool `{name.name}` is declared twice")
        self.pools.append(model.TilePool(name.name, tuple(tiles), method.name == "shuffled", source_of(e.span),
                                         max_clump, hidden=method.name == "hidden", cover=cover))

    def numbers_line(self, e: ast.Entry) -> None:
        items = terms(e)
        method = need_word(items, 0, e, "`shuffled`, `spiral` or `fixed`")
        refs: list[ast.Word] = []
        if method.name == "along":  # `numbers along path [5, 2, 6, ...]`
            refs = _along(items)
            items = [method, *items[2:]]
        elif method.name not in ("shuffled", "spiral", "fixed", "hidden"):
            raise Shape(method.span, f"numbers are laid `shuffled`, `spiral`, `fixed` or `hidden`, "
                        f"not `{method.name}`",
                        help=did_you_mean(method.name, ["shuffled", "spiral", "fixed", "hidden"]))
        tokens: list[model.NumberToken] = []
        i = 1
        if method.name != "fixed":
            lst = items[1] if len(items) > 1 else None
            if not isinstance(lst, ast.ListTerm):
                raise Shape(e.span, "list the number tokens: numbers shuffled [2, 3 x2, 4 x2, ...]")
            tokens = self._tokens(lst, letters=method.name == "spiral")
            i = 2
        plan: dict = {"onto": (), "skip": (), "avoid_adjacent": (), "start_corner": None}
        bans: list[model.NumberBan] = []
        banned: list[tuple[model.NumberBan, ast.Word | None]] = []
        while i < len(items):
            w = need_word(items, i, items[i - 1], "onto, skip, avoid_adjacent, keep or start")
            if w.name == "keep":
                ban, place = self._number_ban(items, i, w)
                bans.append(ban)
                banned.append((ban, place))
                i += 4
            elif w.name in ("onto", "skip", "avoid_adjacent"):
                lst = items[i + 1] if i + 1 < len(items) else None
                if not isinstance(lst, ast.ListTerm):
                    raise Shape(w.span, f"`{w.name}` takes a list in [ ]")
                vals: list[int | str] = []
                for ph in lst.items:
                    if len(ph.terms) != 1:
                        raise Shape(ph.span, f"one item per entry of `{w.name}`")
                    t = ph.terms[0]
                    if w.name == "avoid_adjacent":
                        if not isinstance(t, ast.Number):
                            raise Shape(t.span, "avoid_adjacent lists numbers")
                        vals.append(t.value)
                    else:
                        if not isinstance(t, ast.Word):
                            raise Shape(t.span, f"`{w.name}` lists names")
                        self.ctx.refer("pool" if w.name == "onto" else "terrain", t, context="numbers")
                        vals.append(t.name)
                plan[w.name] = tuple(vals)
                i += 2
            elif w.name == "start":
                corner = need_word(items, i + 1, w, "`corner`")
                n = need_number(items, i + 2, corner, "a corner 0-5")
                if corner.name != "corner" or not 0 <= n.value <= 5:
                    raise Shape(w.span, "write `start corner N` with N from 0 to 5")
                plan["start_corner"] = n.value
                i += 3
            else:
                raise Shape(w.span, f"unknown numbers property `{w.name}`",
                            help=did_you_mean(w.name, ["onto", "skip", "avoid_adjacent", "keep", "start"]))
        self.numbers.append(model.NumberPlan(method.name, tuple(tokens), source=source_of(e.span),
                                             keep_off=tuple(bans), **plan))
        self.mark_refs.append((len(self.numbers) - 1, [b for _, b in banned if b is not None], refs))

    def _number_ban(self, items, i: int, keep: ast.Word) -> tuple[model.NumberBan, ast.Word | None]:
        """`keep [6, 8] off [gold, desert]`, or `keep [6, 8] off east_coast` (a mark of the
        map: the word, resolved when the map is read)"""
        form = "write `keep [6, 8] off [gold]`, or `keep [6, 8] off MARK`"
        nums = items[i + 1] if i + 1 < len(items) else None
        off = items[i + 2] if i + 2 < len(items) else None
        where = items[i + 3] if i + 3 < len(items) else None
        if not (isinstance(nums, ast.ListTerm) and isinstance(off, ast.Word) and off.name == "off"
                and isinstance(where, (ast.ListTerm, ast.Word))):
            raise Shape(keep.span, form)
        numbers: list[int] = []
        for ph in nums.items:
            if len(ph.terms) != 1 or not isinstance(ph.terms[0], ast.Number):
                raise Shape(ph.span, f"`keep` lists numbers: {form}")
            numbers.append(_token_value(ph.terms[0]))
        if isinstance(where, ast.Word):
            if not numbers:
                raise Shape(keep.span, form)
            return model.NumberBan(tuple(numbers), (), place=where.name), where
        terrains: list[str] = []
        for ph in where.items:
            if len(ph.terms) != 1 or not isinstance(ph.terms[0], ast.Word):
                raise Shape(ph.span, f"`off` lists terrains: {form}")
            self.ctx.refer("terrain", ph.terms[0], context="numbers keep ... off")
            terrains.append(ph.terms[0].name)
        if not numbers or not terrains:
            raise Shape(keep.span, form)
        return model.NumberBan(tuple(numbers), tuple(terrains)), None

    def _tokens(self, lst: ast.ListTerm, letters: bool) -> list[model.NumberToken]:
        out = []
        for ph in lst.items:
            ts = ph.terms
            if letters and len(ts) == 2 and isinstance(ts[0], ast.Word) and isinstance(ts[1], ast.Number):
                if not re.fullmatch(r"[A-Z][a-z]?", ts[0].name):
                    raise Shape(ts[0].span, "a token letter is a capital letter, optionally with a "
                                "small one after it (the 5-6 player tokens go on from Y to Za, Zb, Zc)")
                out.append(model.NumberToken(_token_value(ts[1]), ts[0].name))
                continue
            if letters:
                raise Shape(ph.span, "spiral tokens carry their letters: [A 5, B 2, C 6, ...]")
            if len(ts) == 1 and isinstance(ts[0], ast.Number):
                out.append(model.NumberToken(_token_value(ts[0])))
            elif len(ts) == 1 and isinstance(ts[0], ast.Repeat) and isinstance(ts[0].term, ast.Number):
                out.extend(model.NumberToken(_token_value(ts[0].term)) for _ in range(_count(ts[0])))
            else:
                raise Shape(ph.span, "a number token is a number, optionally repeated: 3 x2")
            _map_sized(len(out), lst.span, "number tokens")
        if letters:
            seen = [t.letter for t in out]
            if len(set(seen)) != len(seen):
                raise Shape(lst.span, "a token letter appears twice")
            out.sort(key=lambda t: t.letter or "")  # every token has its letter here
        return out

    # ---- harbors -------------------------------------------------------------------------
    def harbors_line(self, e: ast.Entry) -> None:
        items = terms(e)
        method = need_word(items, 0, e, "`shuffled`, `placed` or `fixed`")
        if method.name in ("shuffled", "placed"):
            clump = self._max_clump(items[4:], method.name) if len(items) > 4 else 0
            if (len(items) not in (4, 6) or not isinstance(items[1], ast.ListTerm)
                    or getattr(items[2], "name", None) != "at" or not isinstance(items[3], ast.ListTerm)):
                raise Shape(e.span, f"write `harbors {method.name} [3:1 x4, brick 2:1, ...] at [(q, r) SIDE, ...]`")
            types_ = []
            for ph in items[1].items:
                types_.extend(self._harbor_types(list(ph.terms), ph.span))
                _map_sized(len(types_), items[1].span, "harbors")
            spots = [self._spot(list(ph.terms), ph.span) for ph in items[3].items]
            self.harbors.append(model.HarborPlan(method.name, tuple(types_), tuple(spots), source_of(e.span),
                                                 max_clump=clump))
        elif method.name == "fixed":
            if len(items) != 2 or not isinstance(items[1], ast.ListTerm):
                raise Shape(e.span, "write `harbors fixed [3:1 at (q, r) SIDE, brick 2:1 at (q, r) SIDE]`")
            types_, spots = [], []
            for ph in items[1].items:
                ts = list(ph.terms)
                at = next((k for k, t in enumerate(ts) if getattr(t, "name", None) == "at"), None)
                if at is None:
                    raise Shape(ph.span, "each fixed harbor says where: `3:1 at (q, r) SIDE`")
                kinds = self._harbor_types(ts[:at], ph.span)
                if len(kinds) != 1:
                    raise Shape(ph.span, "a fixed harbor is one harbor")
                types_.extend(kinds)
                spots.append(self._spot(ts[at + 1:], ph.span))
            self.harbors.append(model.HarborPlan("fixed", tuple(types_), tuple(spots), source_of(e.span)))
        else:
            raise Shape(method.span, f"harbors are `shuffled`, `placed` or `fixed`, not `{method.name}`",
                        help=did_you_mean(method.name, ["shuffled", "placed", "fixed"]))

    def _max_clump(self, ts: list, method: str) -> int:
        """`max_clump N` after a shuffled plan's spots: at most N harbors of one kind on
        spots side by side (next to each other in the `at` list)."""
        word = ts[0]
        if getattr(word, "name", None) != "max_clump":
            raise Shape(word.span, f"after the spots of `harbors {method}` comes `max_clump N`",
                        help=did_you_mean(getattr(word, "name", ""), ["max_clump"]))
        if method != "shuffled":
            raise Shape(word.span, "`max_clump` keeps shuffled harbors apart; the players lay `placed` ones",
                        help="write `harbors shuffled [...] at [...] max_clump 1`")
        if len(ts) != 2 or not isinstance(ts[1], ast.Number) or ts[1].value < 1:
            raise Shape(word.span, "write `max_clump N`, N at least 1: at most N harbors of a kind side by side")
        return ts[1].value

    def _harbor_types(self, ts: list, span: Span) -> list[model.HarborType]:
        resource = None
        if ts and isinstance(ts[0], ast.Word):
            resource = ts[0]
            self.ctx.refer("resource", resource, context="a harbor")
            ts = ts[1:]
        count = 1
        if len(ts) == 1 and isinstance(ts[0], ast.Repeat) and isinstance(ts[0].term, ast.Ratio):
            count, ratio = _count(ts[0]), ts[0].term
        elif len(ts) == 1 and isinstance(ts[0], ast.Ratio):
            ratio = ts[0]
        else:
            raise Shape(span, "a harbor is a ratio with an optional resource: `3:1`, `brick 2:1`, `3:1 x4`")
        if ratio.get < 1 or ratio.give <= ratio.get or ratio.give > 100:
            raise Shape(ratio.span, f"a harbor ratio gives more than it gets, at most 100, not "
                        f"{ratio.give}:{ratio.get}")
        return [model.HarborType(ratio.give, ratio.get, resource.name if resource else None)] * count

    def _spot(self, ts: list, span: Span) -> model.EdgeRef:
        if len(ts) != 2 or not isinstance(ts[0], ast.Coord) or not isinstance(ts[1], ast.Word):
            raise Shape(span, "a harbor spot is a hex and a side: (q, r) NE")
        side = ts[1]
        if side.name not in SIDES:
            hint = did_you_mean(side.name.upper(), SIDES)
            sides = f"the sides of a hex are {', '.join(SIDES)}"
            self.ctx.error("E0405", f"unknown direction `{side.name}`", side.span,
                           help=f"{hint} ({sides})" if hint else sides)
        return model.EdgeRef(ts[0].q, ts[0].r, side.name, source_of(ts[0].span))

    # ---- frame, starts, islands ------------------------------------------------------------
    def frame_block(self, e: ast.Entry) -> None:
        if e.block is None:
            raise Shape(e.span, "write `frame { piece AB 3; piece BC 3; ... }`")
        terrain = "sea"
        items = terms(e)
        if items:
            if [getattr(t, "name", None) for t in items[:1]] != ["of"] or len(items) != 2:
                raise Shape(e.span, "write `frame { ... }` or `frame of TERRAIN { ... }`")
            tw = need_word(items, 1, items[0], "a water terrain")
            self.ctx.refer("terrain", tw, context="the frame")
            terrain = tw.name
        pieces, joints = [], ()
        for st in e.block.stmts:
            if not isinstance(st, ast.Entry):
                raise Shape(st.span, "a frame lists `piece LETTERS LENGTH` lines")
            if st.head.name == "piece":
                ts = terms(st)
                letters = need_word(ts, 0, st, "the piece's connector letters (AB, or X)")
                length = need_number(ts, 1, letters, "how many sea positions it spans")
                label = None
                if len(ts) > 2:
                    if not isinstance(ts[2], ast.Str):
                        raise Shape(ts[2].span, "a frame piece's label is a string")
                    label = ts[2].value
                no_more(ts, 3, "piece")
                if letters.name == "X":
                    left = right = "X"
                elif re.fullmatch(r"[A-Z]{2}", letters.name):
                    left, right = letters.name[0], letters.name[1]
                else:
                    raise Shape(letters.span,
                                f"frame connectors are two capital letters (AB) or X, not `{letters.name}`")
                in_range(length, 1, 100, "a frame piece's length (sea positions)")
                pieces.append(model.FramePiece(left, right, length.value, label, source_of(st.span)))
            elif st.head.name == "extend":
                ts = terms(st) if len(st.phrases) <= 1 else [t for ph in st.phrases for t in ph.terms]
                if not ts or getattr(ts[0], "name", None) != "at":
                    raise Shape(st.span, "write `extend at B, F`")
                joins = ts[1:]
                if not joins or not all(isinstance(t, ast.Word) and re.fullmatch(r"[A-Z]", t.name) for t in joins):
                    raise Shape(st.span, "`extend at` lists connector letters")
                joints = tuple(t.name for t in joins)
            else:
                raise Shape(st.head.span, f"unknown frame property `{st.head.name}`",
                            help=did_you_mean(st.head.name, ["piece", "extend"]))
        if not pieces:
            raise Shape(e.span, "a frame needs pieces")
        self.frame = model.Frame(tuple(pieces), terrain, joints, source_of(e.span))

    def start(self, e: ast.Entry) -> None:
        start = read_start(self.ctx, e)
        if any(s.key() == start.key() for s in self.starts):
            raise Shape(e.span, f"`{start.key()}` has two starting positions")
        self.starts.append(start)

    def island(self, e: ast.Entry) -> None:
        items = terms(e)
        name = need_word(items, 0, e, "the island's name")
        at = need_word(items, 1, name, "`at`")
        if at.name != "at" or len(items) != 3:
            raise Shape(e.span, "write `island main at (q, r)` or `island tribe at [(q, r), ...]`")
        target = items[2]
        if isinstance(target, ast.Coord):
            hexes: tuple[tuple[int, int], ...] = ((target.q, target.r),)
        elif isinstance(target, ast.ListTerm) and all(
            len(ph.terms) == 1 and isinstance(ph.terms[0], ast.Coord) for ph in target.items
        ):
            hexes = tuple((c.q, c.r) for ph in target.items for c in ph.terms if isinstance(c, ast.Coord))
        else:
            raise Shape(target.span, "an island is named by one of its hexes: (q, r), or a list of them")
        self.islands.append(model.IslandName(name.name, hexes, source_of(e.span)))


    def area(self, e: ast.Entry) -> None:
        """`area strip [(0, 0), (1, 0), (2, -1) N]`: hexes, and intersections (a hex and
        its N or S corner), that rules name with `in_area(at, strip)`."""
        items = terms(e)
        name = need_word(items, 0, e, "the area's name")
        lst = items[1] if len(items) > 1 else None
        form = "write `area strip [(q, r), (q, r) N, ...]`: hexes, and intersections as a hex and its corner"
        if not isinstance(lst, ast.ListTerm) or not lst.items:
            raise Shape(e.span, form)
        no_more(items, 2, "area")
        if any(a.name == name.name for a in self.areas):
            raise Shape(name.span, f"area `{name.name}` is named twice in this map")
        _map_sized(len(lst.items), lst.span, "area entries")
        hexes: list[tuple[int, int]] = []
        corners: list[tuple[int, int, str]] = []
        hex_sources: list[model.Source] = []
        corner_sources: list[model.Source] = []
        for ph in lst.items:
            ts = ph.terms
            if len(ts) == 1 and isinstance(ts[0], ast.Coord):
                hexes.append((ts[0].q, ts[0].r))
                hex_sources.append(source_of(ph.span))
            elif len(ts) == 2 and isinstance(ts[0], ast.Coord) and isinstance(ts[1], ast.Word) \
                    and ts[1].name in CORNERS:
                corners.append((ts[0].q, ts[0].r, ts[1].name))
                corner_sources.append(source_of(ph.span))
            else:
                raise Shape(ph.span, form, help="an intersection is the N or S corner of one of its hexes")
        self.areas.append(model.Area(name.name, tuple(hexes), tuple(corners), source_of(e.span),
                                     tuple(hex_sources), tuple(corner_sources)))

    def sites_line(self, e: ast.Entry) -> None:
        """`sites market [(1, 4) N 10, (1, 4) S 9]`: sites of a kind on intersections,
        each named by a hex and its top (N) or bottom (S) corner, or the centre (C) of a
        hub hex, with a number token."""
        items = terms(e)
        kind = need_word(items, 0, e, "the kind of site")
        lst = items[1] if len(items) > 1 else None
        if not isinstance(lst, ast.ListTerm):
            raise Shape(e.span, "write `sites market [(q, r) N 10, (q, r) S 9, ...]`")
        no_more(items, 2, "sites")
        self.ctx.refer("site", kind, context="`sites`")
        _map_sized(len(lst.items), lst.span, "sites")
        seen = {(p.q, p.r, p.corner) for p in self.sites}
        for ph in lst.items:
            ts = ph.terms
            if not (2 <= len(ts) <= 3 and isinstance(ts[0], ast.Coord) and isinstance(ts[1], ast.Word)):
                raise Shape(ph.span, "a site is a hex, a corner and its number: (q, r) N 10")
            corner = ts[1]
            if corner.name not in CORNERS + ("C",):
                raise Shape(corner.span,
                            f"a site's corner is N or S (the top or bottom of the hex), or C (the centre "
                            f"of a hub hex), not `{corner.name}`",
                            help="an intersection is the N or S corner of one of its hexes")
            number = None
            if len(ts) == 3:
                if not isinstance(ts[2], ast.Number):
                    raise Shape(ts[2].span, "a site's number token is a number")
                number = _token_value(ts[2])
            key = (ts[0].q, ts[0].r, corner.name)
            if key in seen:
                raise Shape(ph.span, f"the intersection ({key[0]}, {key[1]}) {key[2]} holds two sites")
            seen.add(key)
            self.sites.append(model.SitePlacement(kind.name, *key, number, source_of(ph.span)))


def _along(items: list) -> list[ast.Word]:
    """The marks of `numbers along path [...]` or `numbers along [path_a, path_b] [...]`."""
    form = "write `numbers along PATH [5, 2, 6, ...]`, or `along [PATH, PATH] [...]` (the seed picks one)"
    target = items[1] if len(items) > 1 else None
    if isinstance(target, ast.Word):
        return [target]
    phrases = target.items if isinstance(target, ast.ListTerm) else ()
    words = [ph.terms[0] for ph in phrases if len(ph.terms) == 1 and isinstance(ph.terms[0], ast.Word)]
    if words and len(words) == len(phrases):
        return [w for w in words if isinstance(w, ast.Word)]
    raise Shape(items[0].span, form)


def _counted_word(ph: ast.Phrase) -> tuple[ast.Word, int]:
    ts = ph.terms
    if len(ts) == 1 and isinstance(ts[0], ast.Word):
        return ts[0], 1
    if len(ts) == 1 and isinstance(ts[0], ast.Repeat) and isinstance(ts[0].term, ast.Word):
        return ts[0].term, _count(ts[0])
    raise Shape(ph.span, "a pool lists names, optionally repeated: forest x4")


def _count(rep: ast.Repeat) -> int:
    """A repeat's count. Nothing on a map comes in more copies than a map has hexes, and
    a huge count (`forest x999999999`) would otherwise be expanded into a huge list."""
    if rep.count > MAX_HEXES:
        raise Shape(rep.span, f"x{rep.count:,} is more than a map can hold ({MAX_HEXES:,} hexes)")
    return rep.count


def _map_sized(n: int, span: Span, what: str) -> None:
    if n > MAX_HEXES:
        raise Shape(span, f"the list holds {n:,} {what}; a map has at most {MAX_HEXES:,} hexes")


def _token_value(n: ast.Number) -> int:
    if not 2 <= n.value <= 12 or n.value == 7:
        raise Shape(n.span, f"a number token shows 2-6 or 8-12, not {n.value}")
    return n.value


def read_start(ctx: Context, e: ast.Entry) -> model.Start:
    """`start robber at (q, r)`, `start robber on desert`, `start pirate off board`,
    `start wall at (q, r) NE` (a piece on a path) and, for a kind of several pieces, a
    list with one site each: `start wall at [(1, -1) NE, (0, 1) SE]`. In a map, or
    outside one to replace the map's start for a variant."""
    items = terms(e)
    piece = need_word(items, 0, e, "the piece that starts")
    ctx.refer("piece", piece, context="`start`")
    how = need_word(items, 1, piece, "`at`, `on` or `off`")
    src = source_of(e.span)
    if how.name == "of":
        return _seat_start(ctx, e, items, piece, src)
    if how.name == "at":
        if len(items) == 3 and isinstance(items[2], ast.Coord):
            return model.Start(piece.name, items[2].q, items[2].r, source=src)
        if len(items) == 4 and isinstance(items[2], ast.Coord) and isinstance(items[3], ast.Word):
            return _path_start(piece.name, [_start_path(ctx, [items[2], items[3]], e.span)], src)
        if len(items) == 3 and isinstance(items[2], ast.ListTerm) and items[2].items:
            lst = items[2]
            _map_sized(len(lst.items), lst.span, "starting positions")
            if all(len(ph.terms) == 1 and isinstance(ph.terms[0], ast.Coord) for ph in lst.items):
                hexes = tuple((c.q, c.r) for ph in lst.items for c in ph.terms if isinstance(c, ast.Coord))
                return model.Start(piece.name, hexes=hexes, source=src)
            return _path_start(piece.name, [_start_path(ctx, ph.terms, ph.span) for ph in lst.items], src)
        raise Shape(e.span, "write `start robber at (q, r)`, a path `start wall at (q, r) NE`, "
                    "or one site per piece: `start wall at [(1, -1) NE, (0, 1) SE]`")
    if how.name == "on":
        terrain = need_word(items, 2, how, "a terrain")
        ctx.refer("terrain", terrain, context="`start`")
        number = need_number(items, 3, terrain, "a number").value if len(items) > 3 else None
        no_more(items, 4, "start")
        return model.Start(piece.name, terrain=terrain.name, number=number, source=src)
    if how.name == "off":
        board = need_word(items, 2, how, "`board`")
        if board.name != "board":
            raise Shape(board.span, "write `start pirate off board`")
        no_more(items, 3, "start")
        return model.Start(piece.name, off_board=True, source=src)
    raise Shape(how.span, "a piece starts `at (q, r)`, `at (q, r) SIDE`, `at [...]`, `on TERRAIN [NUMBER]` "
                "or `off board`")


SEAT_WORDS = ("player", "neutral")


def _seat_start(ctx: Context, e: ast.Entry, items, piece: ast.Word, src) -> model.Start:
    """`start settlement of neutral 1 at (0, -2) N`, `start road of player 2 at (1, 0) NE`:
    a seat's own piece on an intersection (a corner N or S) or a path (a side), placed
    before the set-up."""
    seat = need_word(items, 2, items[1], "`player` or `neutral`")
    if seat.name not in SEAT_WORDS:
        raise Shape(seat.span, f"a piece starts `of player N` or `of neutral N`, not `of {seat.name}`",
                    help=did_you_mean(seat.name, list(SEAT_WORDS)))
    number = need_number(items, 3, seat, "the seat's number (from 1)")
    if not 1 <= number.value <= 8:
        raise Shape(number.span, f"a seat's number is 1 to 8, not {number.value}")
    at = need_word(items, 4, number, "`at`")
    if at.name != "at" or len(items) != 7 or not isinstance(items[5], ast.Coord) \
            or not isinstance(items[6], ast.Word):
        raise Shape(e.span, f"write `start {piece.name} of {seat.name} {number.value} at (q, r) N` "
                    "(a corner N or S, or a side for a piece on a path)")
    where = items[6]
    base = model.Start(piece.name, items[5].q, items[5].r, source=src, seat=seat.name,
                       seat_number=number.value)
    if where.name in CORNERS:
        return replace(base, corner=where.name)
    ref = _start_path(ctx, [items[5], where], e.span)
    return replace(base, paths=(ref,) if ref is not None else ())


def _path_start(piece: str, refs: list[model.EdgeRef | None], src) -> model.Start:
    if any(ref is None for ref in refs):  # a side was misspelled (E0405, reported)
        return model.Start(piece, off_board=True, source=src)
    return model.Start(piece, paths=tuple(ref for ref in refs if ref is not None), source=src)


def _start_path(ctx: Context, ts, span: Span) -> model.EdgeRef | None:
    """One path of a `start`: a hex and a side, `(1, -1) NE` (None: a wrong side, reported)."""
    if len(ts) != 2 or not isinstance(ts[0], ast.Coord) or not isinstance(ts[1], ast.Word):
        raise Shape(span, "a path is a hex and a side: (q, r) NE")
    side = ts[1]
    if side.name not in SIDES:
        hint = did_you_mean(side.name.upper(), SIDES)
        sides = f"the sides of a hex are {', '.join(SIDES)}"
        ctx.error("E0405", f"unknown direction `{side.name}`", side.span,
                  help=f"{hint} ({sides})" if hint else sides)
        return None
    return model.EdgeRef(ts[0].q, ts[0].r, side.name, source_of(ts[0].span))


def read_harbors(ctx: Context, e: ast.Entry) -> tuple[model.HarborPlan, ...]:
    """A `harbors` line outside a map (the same forms as inside one)."""
    reader = MapReader(ctx, e)
    reader.harbors_line(e)
    return tuple(reader.harbors)


MAP = {
    "rows": MapReader.rows,
    "legend": MapReader.legend_block,
    "hex": MapReader.hex_line,
    "pool": MapReader.pool,
    "numbers": MapReader.numbers_line,
    "harbors": MapReader.harbors_line,
    "frame": MapReader.frame_block,
    "start": MapReader.start,
    "island": MapReader.island,
    "area": MapReader.area,
    "mark": marks.read,
    "sites": MapReader.sites_line,
}


def lower_map(ctx: Context, entry: ast.Entry) -> model.Map | None:
    return MapReader(ctx, entry).read()
