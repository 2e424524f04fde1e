"""After `without`: nothing that remains may still name what was taken away.

`without robber` (perhaps only `for 3 players`) removes the robber, but the base game's
`seven` rule and its knight still say `move_piece(player, [robber])`, and the map may
still start it on the desert. Names are resolved per configuration, so each such
reference is reported where it stands, with the configuration that breaks it.
"""

from __future__ import annotations

from catandsl.diagnostics import Diagnostic, Span
from catandsl.ir import model
from catandsl.ir.ruleset import Ruleset


def declared_pieces(scenario: model.Scenario) -> set[str]:
    """Every piece any section declares."""
    return {d.name for s in scenario.sections for d in s.decls if isinstance(d, model.Piece)}


def _vars(expr: model.Expr | None):
    stack = [expr] if expr is not None else []
    while stack:
        e = stack.pop()
        if e.op == "var" and isinstance(e.value, str):
            yield e.value
        stack.extend(e.args)


def _effects(effects):
    stack = list(effects)
    while stack:
        eff = stack.pop()
        yield eff
        stack.extend(eff.body)
        stack.extend(eff.orelse)


def dangling_references(rs: Ruleset, pieces: set[str], where: str, fallback: Span) -> list[Diagnostic]:
    removed = pieces - set(rs.pieces)
    if not removed:
        return []
    out: list[Diagnostic] = []

    def report(name: str, what: str, source: model.Source | None):
        span = Span(source.file, source.line, source.column) if source else fallback
        out.append(Diagnostic(
            "E0607", f"{what} names the piece `{name}`, which `without` removes for {where}", span,
            help=f"remove or replace {what} in the same variant, or keep `{name}`"))

    for rule in rs.rules:
        for hook in rule.hooks:
            for name in sorted(set(_vars(hook.condition)) & removed):
                report(name, f"rule `{rule.name}`", hook.source)
            for eff in _effects(hook.effects):
                for name in sorted(set(_vars(eff.expr)) & removed):
                    report(name, f"rule `{rule.name}`", eff.source or hook.source)
    for piece in rs.pieces.values():
        refs = set(piece.connects) | set(piece.steals_from)
        if piece.upgrades is not None:
            refs.add(piece.upgrades)
        if piece.movement:
            refs |= set(piece.movement.blocked_by)
        for name in sorted(refs & removed):
            report(name, f"piece `{piece.name}`", piece.source)
    if rs.map is not None:
        for start in rs.map.starts:
            if start.piece in removed:
                report(start.piece, "the map's `start`", start.source)
    if rs.setup is not None:
        for rnd in rs.setup.rounds:
            for step in rnd.steps:
                for name in sorted(set(step.pieces) & removed):
                    report(name, "the set-up", step.source)
    for award in rs.awards.values():
        for name in sorted(set(_vars(award.measure)) & removed):
            report(name, f"award `{award.name}`", award.source)
    return out


def check_removals(ctx, scenario: model.Scenario, span: Span) -> None:
    """Report dangling references in every configuration, each once."""
    from catandsl.compiler.validate import MAX_CONFIGURATIONS, _configurations, _count_configurations
    from catandsl.ir.ruleset import ConfigurationError, configure

    if _count_configurations(scenario) > MAX_CONFIGURATIONS:
        return  # validate refuses the scenario (E0606) before trying them all
    pieces = declared_pieces(scenario)
    seen: set[tuple] = set()
    for players, options in _configurations(scenario):
        try:
            rs = configure(scenario, players, options)
        except ConfigurationError:
            continue  # validate reports it
        changed = [f"{k} {v}" for k, v in options.items()
                   if any(o.name == k and o.default != v for o in scenario.options)]
        where = ", ".join([f"{players} players"] + changed)
        for d in dangling_references(rs, pieces, where, span):
            key = (d.span, d.message.split(" for ")[0])  # the same reference in several configurations
            if key not in seen:
                seen.add(key)
                ctx.diagnostics.append(d)
