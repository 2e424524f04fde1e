"""Whole-scenario checks after lowering: every player count has a map and a victory
target, and the board can be built for every player count and every option item (the
board's own errors point back at the map's lines)."""

from __future__ import annotations

import random
from dataclasses import fields, is_dataclass
from typing import TYPE_CHECKING

from catandsl.compiler.context import Context
from catandsl.diagnostics import Diagnostic, Span
from catandsl.ir import model
from catandsl.ir.ruleset import ConfigurationError, configure
from catandsl.rules.registry import NEUTRAL_PIECES, PRIMITIVES

if TYPE_CHECKING:  # the compiler reaches the board only here, and only when it runs
    from catandsl.board import Board
    from catandsl.board.instantiate import Deal

CHECK_SEED = 1
# A map with shuffled pools, numbers or harbors is dealt anew for every seed: `check`
# deals it this many times, so a map that breaks on some deals (a named island that may
# fall on sea, a start on a hex that may be water) is an error with a seed to reproduce,
# never a failure in the middle of `play`.
CHECK_DEALS = 64
# Every configuration builds a board (a few milliseconds each): an option of thousands of
# items would make `check` take minutes.
MAX_CONFIGURATIONS = 256


def configurations(scenario: model.Scenario):
    """Every player count with default options, then each other option item once."""
    defaults = {o.name: o.default for o in scenario.options}
    for players in range(scenario.players_min, scenario.players_max + 1):
        yield players, defaults
        for opt in scenario.options:
            for item in opt.items:
                if item.name != opt.default:
                    yield players, {**defaults, opt.name: item.name}


def count_configurations(scenario: model.Scenario) -> int:
    """How many configurations `configurations` gives: each player count, times the
    default items and each other item once."""
    players = scenario.players_max - scenario.players_min + 1
    return players * (1 + sum(len(o.items) - 1 for o in scenario.options))


def _span(source: model.Source | None, fallback: Span) -> Span:
    if source is None:
        return fallback
    return Span(source.file, source.line, source.column)


def validate_scenario(ctx: Context, scenario: model.Scenario, span: Span) -> None:
    from catandsl.board import Board, BoardError
    from catandsl.board.instantiate import deal

    count = count_configurations(scenario)
    if count > MAX_CONFIGURATIONS:
        largest = max(scenario.options, key=lambda o: len(o.items), default=None)
        ctx.diagnostics.append(Diagnostic(
            "E0606", f"the scenario has {count:,} configurations to check (each player count "
            f"with each option item); the limit is {MAX_CONFIGURATIONS}",
            _span(largest.source if largest else None, span),
            help="use fewer options or fewer items; a scenario needs a handful"))
        return

    seen: set[tuple] = set()
    # A board depends only on the map and the terrains: configurations that share them
    # (most player counts and option items) share one build.
    built: dict[tuple, tuple[Deal, Board] | BoardError] = {}
    dealt: set[tuple] = set()  # maps whose other deals were checked

    def report(d: Diagnostic):
        key = (d.code, d.span, d.message)
        if key not in seen:
            seen.add(key)
            ctx.diagnostics.append(d)

    # each island or area name a rule reads, by the declarations holding it: a name read
    # only by declarations a configuration leaves out (a rule under `for 4 players`)
    # needs no place on that configuration's map
    holders = _holders(scenario, {id(e) for _, _, e in (*ctx.area_uses, *ctx.island_uses, *ctx.mark_uses)})

    def in_effect(expr: model.Expr, live: set[int]) -> bool:
        found = holders.get(id(expr))
        return not found or not found.isdisjoint(live)  # (found nowhere: checked anyway)

    mapless: set[int] = set()
    missing_islands: set[tuple] = set()
    hexes = 0  # hexes of the distinct maps built so far
    for players, options in configurations(scenario):
        where = f"{players} players" + "".join(
            f", {k} {v}" for k, v in options.items() if any(
                o.name == k and o.default != v for o in scenario.options))
        try:
            rs = configure(scenario, players, options)
        except ConfigurationError as e:
            report(Diagnostic("E0604", str(e), span))
            continue
        if rs.map is None:
            if players not in mapless:  # once per player count, not once per option item
                mapless.add(players)
                report(Diagnostic("E0605", f"there is no map for {where}", span,
                                  help="add a `map { }` (or one inside `for N players { }`)"))
            continue
        if "victory" not in rs.settings:
            report(Diagnostic("E0305", f"no victory target for {where}", span,
                              help="add `victory 10`"))
        if rs.turn is None or not rs.turn.phases:
            report(Diagnostic("E0305", f"no turn for {where}", span,
                              help="add `turn { phase roll { roll } phase main { trade; build; buy; play } }`, "
                                   "or `uses base`"))
        for d in _phases_move_what_cannot(rs, span):
            report(d)
        for d in _projects_nobody_can_build(rs, span):
            report(d)
        for start in rs.map.starts:
            piece = rs.pieces.get(start.piece)
            if start.seat is not None:
                d = _seat_start_wrong(rs, start, piece, span)
                if d is not None:
                    report(d)
                continue
            if piece is not None and not piece.neutral:
                report(Diagnostic("E0411", f"`{start.piece}` is a player's piece; only neutral pieces start on the map",
                                  _span(start.source, span)))
            elif piece is not None:
                d = _start_fits_its_piece(start, piece, span)
                if d is not None:
                    report(d)
        areas = {a.name for a in rs.map.areas}
        live = {id(d) for d in rs.decls.values()}
        for area, used, expr in ctx.area_uses:
            if area not in areas and (id(rs.map), "area " + area, used) not in missing_islands \
                    and in_effect(expr, live):
                missing_islands.add((id(rs.map), "area " + area, used))
                report(Diagnostic("E0432", f"the map for {where} names no area `{area}`", used,
                                  help=f"add `area {area} [(q, r), ...]` to that map"))
        marked = {m.name for m in rs.map.marks}
        for mark, used, expr in ctx.mark_uses:
            if mark not in marked and (id(rs.map), "mark " + mark, used) not in missing_islands \
                    and in_effect(expr, live):
                missing_islands.add((id(rs.map), "mark " + mark, used))
                report(Diagnostic("E0440", f"the map for {where} marks no `{mark}`", used,
                                  help=f"add `mark {mark} [(q, r), ...]` to that map"))
        named = {i.name for i in rs.map.islands}
        for island, used, expr in ctx.island_uses:
            if island not in named and (id(rs.map), island, used) not in missing_islands \
                    and in_effect(expr, live):
                missing_islands.add((id(rs.map), island, used))  # once per map, not per option
                report(Diagnostic("E0416", f"the map for {where} names no island `{island}`", used,
                                  help=f"add `island {island} at (q, r)` to that map"))
        for d in _fresh_steps_without_an_upgrade(rs, span):
            report(d)
        for d in _pieces_given_to_the_wrong_primitive(rs, span):
            report(d)
        key = (id(rs.map), tuple((name, id(t)) for name, t in rs.terrains.items()))
        if key not in built:
            hexes += len(rs.map.hexes)
            if hexes > MAX_HEXES_CHECKED:
                report(Diagnostic(
                    "E0606", f"the maps of this scenario's configurations hold more than "
                    f"{MAX_HEXES_CHECKED:,} hexes to build and check", _span(rs.map.source, span),
                    help="a scenario needs a few maps of some dozens of hexes"))
                return
            try:
                first = deal(rs, CHECK_SEED)
                built[key] = (first, Board(**first._asdict()))
            except BoardError as e:
                built[key] = e
        made = built[key]
        if isinstance(made, BoardError):
            # the same broken map shows up in several configurations: report it once
            report(Diagnostic(made.code, made.message, _span(made.source, _span(rs.map.source, span)),
                              help=made.help))
            continue
        first, board = made
        found = list(_deal_checks(rs, first, span))
        for d in found:
            report(d)
        d = _action_space(rs, board, span)
        if d is not None:
            report(d)
        if not found and key not in dealt:
            dealt.add(key)
            for d in _other_deals(rs, first, span):
                report(d)



def _holders(scenario: model.Scenario, wanted: set[int]) -> dict[int, set[int]]:
    """For each expression id in `wanted`, the ids of the scenario's declarations (of any
    section) that hold it, found by walking the IR's dataclasses. Maps hold no
    expressions: they are left out (the most of a scenario's IR)."""
    out: dict[int, set[int]] = {}
    if not wanted:
        return out
    for section in scenario.sections:
        for d in section.decls:
            if isinstance(d, model.Map):
                continue
            todo: list[object] = [d]
            while todo:
                x = todo.pop()
                if isinstance(x, (tuple, list)):
                    todo.extend(x)
                elif isinstance(x, dict):
                    todo.extend(x.values())
                elif is_dataclass(x):
                    if id(x) in wanted:
                        out.setdefault(id(x), set()).add(id(d))
                    todo.extend(getattr(x, f.name) for f in fields(x))
    return out


# Every configuration's distinct map is built to check it: their hexes together are bounded.
MAX_HEXES_CHECKED = 40_000
# The engine numbers every action a game can offer: far past this, a game costs memory
# and time before its first move (pieces on many sites grow fastest).
MAX_ACTIONS = 200_000


def _action_space(rs, board, span: Span) -> Diagnostic | None:
    """E0608: the actions a game of this configuration would number, counted before the
    engine lists them."""
    sites = {"hex": len(board.hexes), "intersection": len(board.intersections), "path": len(board.paths)}
    pieces = sum(sites.get(p.site, 0) * (3 if p.movement else 1) for p in rs.pieces.values())
    # a neutral kind of several pieces: a move names the site it leaves and the one it reaches
    pieces += sum(sites.get(p.site, 0) ** 2 for p in rs.pieces.values() if p.neutral and p.count > 1)
    resources = len(rs.resources)
    # a domestic offer is composed item by item: a few actions per resource and token
    items = resources + len(rs.tokens) if "domestic" in rs.trades else 0
    cards = sum(len(d.cards) for d in rs.decks.values())
    total = pieces + items * 4 + resources * resources * 4 + cards * 2 + 64
    if total <= MAX_ACTIONS:
        return None
    return Diagnostic("E0608", f"the game would number about {total:,} actions; the limit is {MAX_ACTIONS:,}",
                      _span(rs.map.source, span), help="fewer pieces, resources or cards, or a smaller map")


def _fresh_steps_without_an_upgrade(rs, span: Span):
    """E0304: `place PIECE new` in the set-up names a piece that upgrades nothing (only
    an upgrade, a city, can be placed fresh instead of on the piece it replaces)."""
    for rnd in (rs.setup.rounds if rs.setup is not None else ()):
        for step in rnd.steps:
            if not step.fresh:
                continue
            for name in step.pieces:
                piece = rs.pieces.get(name)
                if piece is not None and (piece.upgrades is None or piece.site != "intersection"):
                    yield Diagnostic(
                        "E0304", f"`place {name} new`: `{name}` upgrades no piece on an intersection, "
                        "so it is always placed new", _span(step.source, span),
                        help="`new` places an upgrade (a city) on an empty intersection: place city new")


def _pieces_given_to_the_wrong_primitive(rs, span: Span):
    """E0504: a primitive registered with the kind of piece its `pieces` list takes
    (`move_piece`, `relocate`... neutral pieces; `build_free` a player's) refuses a literal
    list that names the other kind."""
    want = {name: p.pieces == NEUTRAL_PIECES for name, p in PRIMITIVES.items() if p.pieces is not None}
    listed_at = {name: [q.name for q in PRIMITIVES[name].params].index("pieces") for name in want}
    checked = [(h.condition, h.effects, h.source) for rule in rs.rules for h in rule.hooks]
    checked += [(a.condition, (), a.source) for a in rs.actions.values()]  # an action's `on take if`
    for condition, hook_effects, source in checked:
        stack = [condition] + [e.expr for e in hook_effects]
        effects = list(hook_effects)
        while effects:
            eff = effects.pop()
            effects.extend(eff.body)
            effects.extend(eff.orelse)
            stack.append(eff.expr)
        while stack:
            e = stack.pop()
            if e is None:
                continue
            stack.extend(e.args)
            if e.op != "call" or e.value not in want:
                continue
            at = listed_at[str(e.value)]
            if len(e.args) <= at or e.args[at].op != "list":
                continue
            for item in e.args[at].args:
                piece = rs.pieces.get(item.value) if item.op == "var" else None
                if piece is not None and piece.neutral != want[str(e.value)]:
                    kind = "a neutral piece" if piece.neutral else "a player's piece"
                    takes = "neutral pieces" if want[str(e.value)] else "a player's pieces"
                    yield Diagnostic(
                        "E0504", f"`{e.value}` takes {takes}; `{piece.name}` is {kind}",
                        _span(source, span),
                        help="move_piece(player, [robber]) moves a neutral piece; "
                             "build_free(player, [road], 2) places a player's")


def _projects_nobody_can_build(rs, span: Span):
    """E0305: a project no phase of the turn allows (`projects`, or `projects NAME`)."""
    if rs.turn is None:
        return
    allowed: set[str] = set()
    for phase in rs.turn.phases:
        for allow in phase.allows:
            if allow.activity == "projects":
                allowed |= set(allow.names) if allow.names else set(rs.projects)
    for name, project in rs.projects.items():
        if name not in allowed:
            yield Diagnostic("E0305", f"no phase of the turn allows building project `{name}`",
                             _span(project.source, span),
                             help="add `projects` to a phase: "
                                  "turn { phase main { trade; build; buy; play; projects } }")


def _phases_move_what_cannot(rs, span: Span):
    """E0308: a phase that allows `move PIECE` for a piece without a `moves` block."""
    for phase in (rs.turn.phases if rs.turn is not None else ()):
        for allow in phase.allows:
            if allow.activity != "move":
                continue
            for name in allow.names:
                piece = rs.pieces.get(name)
                if piece is not None and piece.movement is None:
                    yield Diagnostic("E0308", f"phase `{phase.name}` allows `move {name}`, but a {name} "
                                     "never moves: it has no `moves` block", _span(phase.source, span),
                                     help=f"give piece `{name}` a `moves {{ ... }}` block, or drop it here")


def _deal_checks(rs, dealt: Deal, span: Span):
    """What depends on how the map was dealt: starts and sites on the hexes they need,
    hidden stacks against the numbers around their hexes."""
    for start in rs.map.starts:
        if start.seat is not None:
            continue  # a seat's piece: the game checks its site
        d = _start_outside_its_sites(rs, dealt, start, span)
        if d is not None:
            yield d
    yield from _check_sites(rs, dealt, span)
    for index, plan in enumerate(rs.map.numbers):
        if plan.method == "hidden" and (plan.keep_off or plan.avoid_adjacent):
            d = _hidden_stack_kept(rs, dealt, index, plan, span)
            if d is not None:
                yield d


def _hidden_stack_kept(rs, dealt: Deal, index: int, plan: model.NumberPlan, span: Span) -> Diagnostic | None:
    """E0434 unless some deal of a hidden pool and its stack of numbers keeps the plan's
    `keep ... off` and `avoid_adjacent` while numbering every tile it can. Each trial
    lays the pool's tiles on its face-down hexes and reveals them in a shuffled order,
    each numbered tile drawing what `rules.hexes.hidden_choices` allows, as a game
    does; it succeeds when as many hexes took a number as there were tokens or numbered
    tiles dealt."""
    from catandsl.board import geometry as geo
    from catandsl.board.numbers import MAX_DEALS, MAX_DEALT, kept
    from catandsl.rules.hexes import hidden_choices

    pool = next(p for p in rs.map.pools if p.name == plan.onto[0])
    hexes = [h for h, tile in dealt.tiles.items() if tile.pool == pool.name]
    if not hexes:
        return None
    numbers = {h: tile.number for h, tile in dealt.tiles.items() if tile.number}

    def takes_number(terrain: str) -> bool:
        t = rs.terrains[terrain]
        return (t.produces is not None or bool(t.choice)) and terrain not in plan.skip
    pile = [a.name for a in pool.tiles for _ in range(a.count)]
    numbered: dict[str, int] = {}
    for terrain in pile:
        if takes_number(terrain):
            numbered[terrain] = numbered.get(terrain, 0) + 1
    start = [0] * 13
    for token in plan.tokens:
        start[token.value] += 1
    rng = random.Random(f"{dealt.seed}:hidden:{index}")
    trials = max(1, min(MAX_DEALS, MAX_DEALT // len(hexes)))
    for _ in range(trials):
        rng.shuffle(hexes)
        rng.shuffle(pile)
        stack, left, laid = list(start), dict(numbered), dict(numbers)
        took = dealt_here = 0
        for h, terrain in zip(hexes, pile):
            if terrain not in left:
                continue
            dealt_here += 1
            left[terrain] -= 1
            choices = hidden_choices(plan, stack, terrain, (laid.get(n, 0) for n in geo.neighbours(h)), left)
            if choices:
                v = rng.choices(choices, [stack[c] for c in choices])[0]
                stack[v] -= 1
                laid[h] = v
                took += 1
        if took == min(dealt_here, len(plan.tokens)):
            return None
    return Diagnostic(
        "E0434", f"no deal of the hidden numbers in {trials} trials keeps {kept(plan)}",
        _span(plan.source, span),
        help="a revealed hex would find no number left that may lie on it: give the stack numbers "
             "that may, or keep fewer numbers off")


def _other_deals(rs, first: Deal, span: Span):
    """Deal a map that is not fixed CHECK_DEALS times (seeds from CHECK_SEED on) and
    report each problem found once, with how many deals show it and the first seed that
    does. A deal is cheap (no graph, no tables): the checks read its coordinates."""
    from catandsl.board import BoardError
    from catandsl.board.instantiate import deal

    failing: dict[tuple, list] = {}  # (code, span) -> [first diagnostic, first seed, count]
    for seed in range(CHECK_SEED + 1, CHECK_SEED + CHECK_DEALS):
        try:
            dealt = deal(rs, seed)
        except BoardError as e:
            found = [Diagnostic(e.code, e.message, _span(e.source, _span(rs.map.source, span)), help=e.help)]
        else:
            if seed == CHECK_SEED + 1 and dealt.fixed(first):
                return  # a fixed map: every deal is the first
            found = list(_deal_checks(rs, dealt, span))
        for d in found:
            entry = failing.setdefault((d.code, d.span), [d, seed, 0])
            entry[2] += 1
    for d, seed, count in failing.values():
        yield Diagnostic(d.code, f"{d.message}: on {count} of the {CHECK_DEALS} deals of this map "
                         f"checked, the first with seed {seed}", d.span,
                         help=d.help or "make the map hold on every deal: fix the hexes this needs "
                                        "instead of drawing them from a pool")


def _seat_start_wrong(rs, start, piece, span) -> Diagnostic | None:
    """A seat's own piece (`start settlement of neutral 1 at ...`): a player's kind of
    piece, of a seat the configuration has."""
    where = _span(start.source, span)
    if piece is not None and piece.neutral:
        return Diagnostic("E0411", f"`{start.piece}` is a neutral piece: it starts without a seat "
                          f"(`start {start.piece} at ...`)", where)
    seats = rs.players if start.seat == "player" else int(rs.setting("neutral_seats", 0) or 0)
    if start.seat_number > seats:
        return Diagnostic("E0411", f"`start {start.key()}`, but this configuration has {seats} "
                          f"{start.seat} seat(s)", where,
                          help="write `neutral_seats N` in the same variant" if start.seat == "neutral" else None)
    return None


def _start_fits_its_piece(start: model.Start, piece: model.Piece, span: Span) -> Diagnostic | None:
    """E0411: a start on hexes for a piece on paths, or the other way round; E0430: a
    start that does not give one site to each piece of the kind (`count`)."""
    where = _span(start.source, span)
    if start.off_board:
        return None
    if piece.site == "path" and not start.paths:
        return Diagnostic("E0411", f"the {start.piece} stands on paths: its start names paths, a hex and a side "
                          "each", where, help=f"start {start.piece} at (0, 0) NE")
    if piece.site != "path" and start.paths:
        return Diagnostic("E0411", f"the {start.piece} stands on a {piece.site}, not on a path: its start names "
                          "hexes", where, help=f"start {start.piece} at (0, 0)")
    given = len(start.paths) or len(start.hexes) or 1
    if given != piece.count:
        each = "one site" if piece.count == 1 else f"{piece.count} sites, one per piece"
        return Diagnostic("E0430", f"the {start.piece} has {piece.count} piece{'s' if piece.count != 1 else ''} "
                          f"but its start gives {given} position{'s' if given != 1 else ''}", where,
                          help=f"give {each} (`count {piece.count}` in piece {start.piece}), or `off board`")
    return None


def _start_outside_its_sites(rs, dealt: Deal, start: model.Start, span: Span) -> Diagnostic | None:
    """E0415: a neutral piece starts on a hex its own `on hex where ...` refuses (a
    pirate on land, a robber at sea). Only conditions built from land(at), water(at),
    not, and, or are judged here; the engine checks the rest in play."""
    piece = rs.pieces.get(start.piece)
    if piece is not None and piece.site == "path" and piece.where is not None:
        return _path_start_outside_its_sites(rs, dealt, start, piece, span)
    h = dealt.starts.get(start.piece)
    terrain = dealt.terrain_at(h) if h is not None else None
    if piece is None or piece.site != "hex" or piece.where is None or h is None or terrain is None:
        return None
    q, r = h
    water = rs.terrains[terrain].water
    if site_condition(piece.where, water) is not False:
        return None
    what = f"{terrain} hex ({q}, {r})"
    stands = "water" if water else "land"
    return Diagnostic(
        "E0415", f"the {start.piece} starts on the {what}, but it stands only on hexes "
        f"where {_describe(piece.where)}", _span(start.source, span),
        help=f"start it on a hex where {_describe(piece.where)} (this one is {stands})")


def _check_sites(rs, dealt: Deal, span: Span):
    """The map's sites: each on an intersection that touches land (E0424), a number
    token exactly when its kind is numbered (E0304), and every token supply adding up:
    the sites' stocks plus the declared reserve make the supply (E0425)."""
    from catandsl.board import geometry as geo

    stocked: dict[str, int] = {}
    for placed in rs.map.sites:
        kind = rs.sites.get(placed.site)
        if kind is None:
            continue  # a kind removed by `without`: reported by the reference checks
        where = f"({placed.q}, {placed.r}) {placed.corner}"
        hexes = geo.intersection_hexes(geo.corner((placed.q, placed.r), placed.corner))
        terrains = [t for t in map(dealt.terrain_at, hexes) if t is not None]
        if not any(not rs.terrains[t].water for t in terrains):
            on_map = terrains
            yield Diagnostic(
                "E0424", f"the {placed.site} at {where} is on an intersection that touches no land"
                + ("" if on_map else " (none of its hexes is on the map)"),
                _span(placed.source, span),
                help="put it on a corner of a land hex: an intersection is the N or S corner "
                     "of one of its three hexes")
        if kind.numbered and placed.number is None:
            yield Diagnostic("E0304", f"the {placed.site} at {where} has no number token",
                             _span(placed.source, span),
                             help=f"site `{placed.site}` is numbered: write `{where} 10`")
        elif not kind.numbered and placed.number is not None:
            yield Diagnostic("E0304", f"the {placed.site} at {where} has a number token, but "
                             f"site `{placed.site}` has none", _span(placed.source, span),
                             help=f"add `number` to site `{placed.site}`, or drop the number")
        for a in kind.stock:
            stocked[a.name] = stocked.get(a.name, 0) + a.count
    for token in rs.tokens.values():
        on_sites = stocked.get(token.name, 0)
        if token.reserve is not None and on_sites + token.reserve != token.supply:
            yield Diagnostic(
                "E0425", f"token `{token.name}` does not add up: {on_sites} on the map's sites "
                f"and a reserve of {token.reserve} make {on_sites + token.reserve}, not the "
                f"supply of {token.supply}", _span(token.source, span),
                help=f"make the supply {on_sites + token.reserve}, or the reserve "
                     f"{token.supply - on_sites}" if token.supply >= on_sites else
                     "use fewer sites or smaller stocks")
        elif on_sites > token.supply:
            yield Diagnostic(
                "E0425", f"token `{token.name}` does not add up: the map's sites hold {on_sites}, "
                f"more than the supply of {token.supply}", _span(token.source, span),
                help=f"make the supply at least {on_sites}")


def _path_start_outside_its_sites(rs, dealt: Deal, start: model.Start, piece: model.Piece,
                                  span: Span) -> Diagnostic | None:
    """E0415 for a piece on paths: a start path its `on path where ...` refuses, judged
    as for hexes (a path touches land, water or both)."""
    from catandsl.board import geometry as geo

    where = piece.where
    if where is None:
        return None
    for i, path in enumerate(dealt.start_sites.get(start.piece, ())):
        terrains = [t for t in map(dealt.terrain_at, geo.edge_hexes(path)) if t is not None]
        water = [rs.terrains[t].water for t in terrains]
        if site_condition(where, any(water), land=not all(water)) is not False:
            continue
        ref = start.paths[i] if i < len(start.paths) else None
        q, r, side = (ref.q, ref.r, ref.side) if ref is not None else path  # as written
        touches = "land and water" if any(water) and not all(water) else "water only" if all(water) else "land only"
        return Diagnostic(
            "E0415", f"the {start.piece} starts on the path ({q}, {r}) {side}, but it stands only on paths "
            f"where {_describe(where)}",
            _span(ref.source if ref is not None else start.source, span),
            help=f"start it on a path where {_describe(where)} (this one touches {touches})")
    return None


def site_condition(expr: model.Expr, water: bool, land: bool | None = None) -> bool | None:
    """The value of a simple condition on a site `at`, or None when it needs the game:
    a hex is land or water; a path (`land` given) may touch both."""
    land = not water if land is None else land
    if expr.op == "call" and len(expr.args) == 1 and expr.args[0].op == "var" and expr.args[0].value == "at":
        # land(at) and water(at) say what the site touches
        return {"land": land, "water": water}.get(expr.value) if isinstance(expr.value, str) else None
    if expr.op == "not":
        inner = site_condition(expr.args[0], water, land)
        return None if inner is None else not inner
    if expr.op in ("and", "or"):
        a, b = (site_condition(x, water, land) for x in expr.args)
        if expr.op == "and":
            return False if False in (a, b) else (None if None in (a, b) else True)
        return True if True in (a, b) else (None if None in (a, b) else False)
    if expr.op == "bool":
        return bool(expr.value)
    return None


def _describe(expr: model.Expr) -> str:
    if expr.op == "call":
        return f"{expr.value}(" + ", ".join(_describe(a) for a in expr.args) + ")"
    if expr.op == "var":
        return str(expr.value)
    if expr.op == "not":
        return "not " + _describe(expr.args[0])
    if expr.op in ("and", "or"):
        return f" {expr.op} ".join(_describe(a) for a in expr.args)
    return "its condition"
