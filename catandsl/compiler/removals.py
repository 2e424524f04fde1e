"""After `without`: nothing that remains may still name what was taken away.

`without robber` (perhaps only `for 3 players`) removes the robber, but the base game's
`seven` rule and its knight still say `move_piece(player, [robber])`, and the map may
still start it on the desert; `without resource wool` leaves the pasture producing wool
and the settlement costing it. Names are resolved per configuration, so each such
reference is reported where it stands (E0607), with the configuration that breaks it.
"""

from __future__ import annotations

from collections.abc import Iterator

from catandsl.diagnostics import Diagnostic, Span
from catandsl.ir import model
from catandsl.ir.ruleset import Ruleset

# what `without` can take away that other declarations name, by kind
_KINDS = {
    "piece": model.Piece, "resource": model.Resource, "terrain": model.Terrain,
    "token": model.Token, "site": model.SiteKind, "deck": model.Deck, "measure": model.Measure,
    "counter": model.Counter,
}


def declared_names(scenario: model.Scenario) -> dict[str, set[str]]:
    """Every name any section declares, by kind (and every card of every deck)."""
    out: dict[str, set[str]] = {kind: set() for kind in _KINDS}
    out["card"] = set()
    for section in scenario.sections:
        for d in section.decls:
            for kind, cls in _KINDS.items():
                if isinstance(d, cls):
                    out[kind].add(d.name)
            if isinstance(d, model.Deck):
                out["card"].update(c.name for c in d.cards)
    return out


def _present(rs: Ruleset) -> dict[str, set[str]]:
    return {
        "piece": set(rs.pieces), "resource": set(rs.resources), "terrain": set(rs.terrains),
        "token": set(rs.tokens), "site": set(rs.sites), "deck": set(rs.decks), "measure": set(rs.measures),
        "counter": set(rs.counters),
        "card": {c.name for d in rs.decks.values() for c in d.cards},
    }


def _vars(expr: model.Expr | None) -> Iterator[str]:
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


def _varying(amounts: tuple[model.VaryingAmount, ...], kind: str | None, what: str,
             source: model.Source | None) -> Iterator[tuple[str | None, str, str, model.Source | None]]:
    """A cost's amounts that are expressions: the resource (a token too where `kind` is
    None, an action's) and what the count reads."""
    for a in amounts:
        yield kind, a.name, what, a.source or source
        for name in _vars(a.count):
            yield None, name, what, a.source or source


def _references(rs: Ruleset) -> Iterator[tuple[str | None, str, str, model.Source | None]]:
    """(kind or None for a name in an expression, name, what names it, where)."""
    for rule in rs.rules:
        for hook in rule.hooks:
            for name in _vars(hook.condition):
                yield None, name, f"rule `{rule.name}`", hook.source
            for f in hook.filters:
                if isinstance(f, str):
                    yield None, f, f"rule `{rule.name}`", hook.source
            for eff in _effects(hook.effects):
                for name in _vars(eff.expr):
                    yield None, name, f"rule `{rule.name}`", eff.source or hook.source
    for piece in rs.pieces.values():
        what = f"piece `{piece.name}`"
        for name in (*piece.connects, *piece.steals_from, *(piece.movement.blocked_by if piece.movement else ())):
            yield "piece", name, what, piece.source
        for name in ((piece.upgrades,) if piece.upgrades is not None else ()) + piece.upgrades_or:
            yield "piece", name, what, piece.source
        for a in piece.cost:
            yield "resource", a.name, what, piece.source
        yield from _varying(piece.varying_cost, "resource", what, piece.source)
        for name in piece.takes:
            if name != "resource":
                yield "token", name, what, piece.source
        for name in (*_vars(piece.where), *_vars(piece.movable_by), *_vars(piece.moves_to)):
            yield None, name, what, piece.source
    for terrain in rs.terrains.values():
        if terrain.produces is not None:
            yield "resource", terrain.produces, f"terrain `{terrain.name}`", terrain.source
    for deck in rs.decks.values():
        for a in deck.cost:
            yield "resource", a.name, f"deck `{deck.name}`", deck.source
        yield from _varying(deck.varying_cost, "resource", f"deck `{deck.name}`", deck.source)
    for action in rs.actions.values():
        for a in action.cost:
            yield "resource", a.name, f"action `{action.name}`", action.source
        for a in action.token_cost:
            yield "token", a.name, f"action `{action.name}`", action.source
        yield from _varying(action.varying_cost, None, f"action `{action.name}`", action.source)
        for name in _vars(action.condition):
            yield None, name, f"action `{action.name}`", action.source
    for project in rs.projects.values():
        for stage in project.stages:
            for a in stage.cost:
                yield "resource", a.name, f"project `{project.name}`", stage.source
            yield from _varying(stage.varying_cost, "resource", f"project `{project.name}`", stage.source)
        for name in _vars(project.requires):
            yield None, name, f"project `{project.name}`", project.source
    for site in rs.sites.values():
        for a in site.stock:
            yield "token", a.name, f"site `{site.name}`", site.source
    for award in rs.awards.values():
        for name in _vars(award.measure):
            yield None, name, f"award `{award.name}`", award.source
    for measure in rs.measures.values():
        for name in _vars(measure.expr):
            yield None, name, f"measure `{measure.name}`", measure.source
    for victory in rs.victories:
        for name in _vars(victory.condition):
            yield None, name, f"victory `{victory.title}`", victory.source
    if rs.tie_break is not None:
        for key in rs.tie_break.keys:
            for name in _vars(key):
                yield None, name, "the tie-break", rs.tie_break.source
    if rs.turn is not None:
        for phase in rs.turn.phases:
            for allow in phase.allows:
                for name in allow.names:
                    yield None, name, f"phase `{phase.name}`", phase.source
    if rs.setup is not None:
        for rnd in rs.setup.rounds:
            for step in rnd.steps:
                for name in step.pieces:
                    yield "piece", name, "the set-up", step.source
                for name in _vars(step.where):
                    yield None, name, "the set-up", step.source
    if rs.map is not None:
        yield from _map_references(rs.map)


def _map_references(m: model.Map) -> Iterator[tuple[str | None, str, str, model.Source | None]]:
    for start in m.starts:
        yield "piece", start.piece, "the map's `start`", start.source
        if start.terrain is not None:
            yield "terrain", start.terrain, "the map's `start`", start.source
    for slot in m.hexes:
        if slot.terrain is not None:
            yield "terrain", slot.terrain, "the map", slot.source
    for pool in m.pools:
        for tile in pool.tiles:
            yield "terrain", tile.name, f"pool `{pool.name}`", pool.source
    for plan in m.numbers:
        for name in (*plan.onto, *plan.skip):
            yield None, name, "the map's numbers", plan.source
    for harbors in m.harbors:
        for h in harbors.harbors:
            if h.resource is not None:
                yield "resource", h.resource, "the map's harbors", harbors.source
    for placed in m.sites:
        yield "site", placed.site, "the map's sites", placed.source


def dangling_references(rs: Ruleset, declared: dict[str, set[str]], where: str,
                        fallback: Span) -> list[Diagnostic]:
    present = _present(rs)
    removed = {kind: names - present[kind] for kind, names in declared.items()}
    if not any(removed.values()):
        return []
    out: list[Diagnostic] = []
    for kind, name, what, source in _references(rs):
        kinds = [kind] if kind is not None else [k for k in removed if name in removed[k]]
        for k in kinds:
            if name in removed.get(k, ()):
                span = Span(source.file, source.line, source.column) if source else fallback
                out.append(Diagnostic(
                    "E0607", f"{what} names the {k} `{name}`, which `without` removes for {where}", span,
                    help=f"remove or replace it in the same variant, or keep the {k} `{name}`"))
                break
    return out


def check_removals(ctx, scenario: model.Scenario, span: Span) -> None:
    """Report dangling references in every configuration, each once."""
    from catandsl.compiler.validate import MAX_CONFIGURATIONS, configurations, count_configurations
    from catandsl.ir.ruleset import ConfigurationError, configure

    if count_configurations(scenario) > MAX_CONFIGURATIONS:
        return  # validate refuses the scenario (E0606) before trying them all
    declared = declared_names(scenario)
    seen: set[tuple] = set()
    for players, options in configurations(scenario):
        try:
            rs = configure(scenario, players, options)
        except ConfigurationError:
            continue  # validate reports it
        changed = [f"{k} {v}" for k, v in options.items()
                   if any(o.name == k and o.default != v for o in scenario.options)]
        where = ", ".join([f"{players} players"] + changed)
        for d in dangling_references(rs, declared, where, span):
            key = (d.span, d.message.split(" for ")[0])  # the same reference in several configurations
            if key not in seen:
                seen.add(key)
                ctx.diagnostics.append(d)
