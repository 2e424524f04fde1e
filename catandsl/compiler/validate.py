"""Whole-scenario checks after lowering: every player count has a map and a victory
target, and the board can be built for every player count and every option item (the
board's own errors point back at the map's lines)."""

from __future__ import annotations

from catandsl.compiler.context import Context
from catandsl.diagnostics import Diagnostic, Span
from catandsl.ir import model
from catandsl.ir.ruleset import ConfigurationError, configure

CHECK_SEED = 1
# Every configuration builds a board (a few milliseconds each): an option of thousands of
# items would make `check` take minutes.
MAX_CONFIGURATIONS = 256


def _configurations(scenario: model.Scenario):
    """Every player count with default options, then each other option item once."""
    defaults = {o.name: o.default for o in scenario.options}
    for players in range(scenario.players_min, scenario.players_max + 1):
        yield players, defaults
        for opt in scenario.options:
            for item in opt.items:
                if item.name != opt.default:
                    yield players, {**defaults, opt.name: item.name}


def _count_configurations(scenario: model.Scenario) -> int:
    players = scenario.players_max - scenario.players_min + 1
    return players * (1 + sum(len(o.items) - 1 for o in scenario.options))


def _span(source: model.Source | None, fallback: Span) -> Span:
    if source is None:
        return fallback
    return Span(source.file, source.line, source.column)


def validate_scenario(ctx: Context, scenario: model.Scenario, span: Span) -> None:
    from catandsl.board import BoardError, instantiate

    count = _count_configurations(scenario)
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
    built: dict[tuple, BoardError | None] = {}

    def report(d: Diagnostic):
        key = (d.code, d.span, d.message)
        if key not in seen:
            seen.add(key)
            ctx.diagnostics.append(d)

    for players, options in _configurations(scenario):
        where = f"{players} players" + "".join(
            f", {k} {v}" for k, v in options.items() if any(
                o.name == k and o.default != v for o in scenario.options))
        try:
            rs = configure(scenario, players, options)
        except ConfigurationError as e:
            report(Diagnostic("E0604", str(e), span))
            continue
        if rs.map is None:
            report(Diagnostic("E0605", f"there is no map for {where}", span,
                              help="add a `map { }` (or one inside `for N players { }`)"))
            continue
        if "victory" not in rs.settings:
            report(Diagnostic("E0305", f"no victory target for {where}", span,
                              help="add `victory 10`"))
        for start in rs.map.starts:
            piece = rs.pieces.get(start.piece)
            if piece is not None and not piece.neutral:
                report(Diagnostic("E0411", f"`{start.piece}` is a player's piece; only neutral pieces start on the map",
                                  _span(start.source, span)))
        key = (id(rs.map), tuple((name, id(t)) for name, t in rs.terrains.items()))
        if key not in built:
            try:
                instantiate(rs, CHECK_SEED)
                built[key] = None
            except BoardError as e:
                built[key] = e
        e = built[key]
        if e is not None:
            # the same broken map shows up in several configurations: report it once
            report(Diagnostic(e.code, e.message, _span(e.source, _span(rs.map.source, span)),
                              help=e.help))
