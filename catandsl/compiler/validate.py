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


def validate_scenario(ctx: Context, scenario: model.Scenario, span: Span, play: bool = True) -> None:
    """`play=False` skips the trial game (for tools that only need the map checked)."""
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

    mapless: set[int] = set()
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
            if players not in mapless:  # once per player count, not once per option item
                mapless.add(players)
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

    if play and not any(d.is_error for d in ctx.diagnostics):
        # the fewest and the most players: set-up and map variants differ most there
        for players in sorted({scenario.players_min, scenario.players_max}):
            diag = trial_play(scenario, players, {o.name: o.default for o in scenario.options}, span)
            if diag is not None:
                report(diag)
                break


TRIAL_ACTIONS = 120


def trial_play(scenario: model.Scenario, players: int, options: dict, span: Span) -> Diagnostic | None:
    """The last step of `check`: start a game and play a few random legal moves, so a
    scenario the engine cannot run is reported like any other error."""
    import random

    from catandsl.engine import EngineError, new_game

    rng = random.Random(f"check:{players}")
    try:
        state = new_game(scenario, players, options, CHECK_SEED).new_initial_state()
        for _ in range(TRIAL_ACTIONS):
            if state.is_terminal():
                break
            if state.is_chance_node():
                state.apply_action(state.sample_chance())
                continue
            state.apply_action(rng.choice(state.legal_actions()))
    except EngineError as e:
        # the message without the "file:line:col: " the engine puts in front
        message = str(e).split(": ", 1)[1] if e.source is not None else str(e)
        return Diagnostic("E0701", f"the engine cannot run this scenario yet: {message}",
                          _span(e.source, span), help="this rule names something the engine does not do yet")
    return None
