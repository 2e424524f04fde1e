"""Fold a Scenario's sections for one player count and choice of options into a Ruleset.

This is the one place where `for N players { }` and `when OPTION is ITEM { }` take
effect: sections apply in order, a declaration replaces an earlier one with the same
(kind, name), and `Remove` deletes one. The result is plain data in declaration order.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import TypeVar, overload

from catandsl.ir import model

D = TypeVar("D")


class ConfigurationError(ValueError):
    """A player count or option choice the scenario does not offer."""

    def __init__(self, code: str, message: str):
        self.code = code
        super().__init__(message)


@dataclass(frozen=True)
class Ruleset:
    """A scenario configured for one player count and options: the declarations that apply."""

    scenario: str
    title: str
    players: int
    options: dict[str, str]
    resources: tuple[str, ...]
    terrains: dict[str, model.Terrain]
    bank: dict[str, int]
    pieces: dict[str, model.Piece]
    decks: dict[str, model.Deck]
    awards: dict[str, model.Award]
    trades: dict[str, model.Trade]
    tokens: dict[str, model.Token]
    counters: dict[str, model.Counter]
    sites: dict[str, model.SiteKind]
    tie_break: model.TieBreak | None
    settings: dict[str, int | str]
    params: dict[str, int]
    setup: model.Setup | None
    turn: model.Turn | None
    dice: model.Dice | None
    victories: tuple[model.Victory, ...]
    actions: dict[str, model.CustomAction]
    projects: dict[str, model.Project]
    rules: tuple[model.Rule, ...]
    map: model.Map | None
    roll_cards: model.RollCards | None = None  # a deck revealed in place of the dice
    measures: dict[str, model.Measure] = field(default_factory=dict)
    decls: dict[tuple[str, str], model.Decl] = field(repr=False, default_factory=dict)

    @overload
    def setting(self, name: str) -> int | str | None: ...
    @overload
    def setting(self, name: str, default: int | str) -> int | str: ...
    @overload
    def setting(self, name: str, default: None) -> int | str | None: ...
    def setting(self, name: str, default: int | str | None = None) -> int | str | None:
        return self.settings.get(name, default)


def resolve_options(scenario: model.Scenario, chosen: dict[str, str] | None) -> dict[str, str]:
    chosen = dict(chosen or {})
    out: dict[str, str] = {}
    by_name = {o.name: o for o in scenario.options}
    for name in sorted(chosen):
        if name not in by_name:
            known = ", ".join(sorted(by_name)) or "none"
            raise ConfigurationError("option/unknown", f"unknown option {name!r} (options: {known})")
    for opt in scenario.options:
        item = chosen.get(opt.name, opt.default)
        if item not in {i.name for i in opt.items}:
            items = ", ".join(i.name for i in opt.items)
            raise ConfigurationError(
                "option/unknown_item", f"option {opt.name!r} has no item {item!r} (items: {items})"
            )
        out[opt.name] = item
    return out


def section_applies(section: model.Section, players: int, options: dict[str, str]) -> bool:
    if section.players and players not in section.players:
        return False
    return all(options.get(c.option) == c.item for c in section.choices)


def configure(
    scenario: model.Scenario, players: int, options: dict[str, str] | None = None
) -> Ruleset:
    if not scenario.players_min <= players <= scenario.players_max:
        raise ConfigurationError(
            "players/out_of_range",
            f"{scenario.title} is for {scenario.players_min}-{scenario.players_max} players, not {players}",
        )
    opts = resolve_options(scenario, options)
    decls: dict[tuple[str, str], model.Decl] = {}
    for section in scenario.sections:
        if not section_applies(section, players, opts):
            continue
        for d in section.decls:
            if isinstance(d, model.Remove):
                decls.pop((d.of, d.name), None)
            else:
                decls.pop((d.KIND, d.name), None)  # re-declaring moves it to the end
                decls[(d.KIND, d.name)] = d

    params: dict[str, int] = {}
    for opt in scenario.options:
        item = next(i for i in opt.items if i.name == opts[opt.name])
        if item.value is not None:
            params[opt.name] = item.value

    def of(cls: type[D]) -> list[D]:
        # each declaration class has its own KIND, so this is the (KIND, _) keys of `cls`
        return [d for d in decls.values() if isinstance(d, cls)]

    for p in of(model.Param):
        params.setdefault(p.name, p.value)

    settings: dict[str, int | str] = {}
    for s in of(model.Setting):
        value = params.get(s.param, s.value) if s.param else s.value
        if value is not None:
            settings[s.name] = value

    banks = of(model.Bank)
    bank = {a.name: a.count for a in banks[-1].amounts} if banks else {}
    setups, turns, maps, dice = of(model.Setup), of(model.Turn), of(model.Map), of(model.Dice)
    tie_breaks = of(model.TieBreak)
    return Ruleset(
        scenario=scenario.name,
        title=scenario.title,
        players=players,
        options=opts,
        resources=tuple(r.name for r in of(model.Resource)),
        terrains={t.name: t for t in of(model.Terrain)},
        bank=bank,
        pieces={p.name: p for p in of(model.Piece)},
        decks={d.name: d for d in of(model.Deck)},
        awards={a.name: a for a in of(model.Award)},
        trades={t.name: t for t in of(model.Trade)},
        tokens={t.name: t for t in of(model.Token)},
        counters={c.name: c for c in of(model.Counter)},
        sites={s.name: s for s in of(model.SiteKind)},
        tie_break=tie_breaks[-1] if tie_breaks else None,
        settings=settings,
        params=params,
        setup=setups[-1] if setups else None,
        turn=turns[-1] if turns else None,
        dice=dice[-1] if dice else None,
        roll_cards=of(model.RollCards)[-1] if of(model.RollCards) else None,
        measures={m.name: m for m in of(model.Measure)},
        victories=tuple(of(model.Victory)),
        actions={a.name: a for a in of(model.CustomAction)},
        projects={p.name: p for p in of(model.Project)},
        rules=tuple(of(model.Rule)),
        map=_overridden(maps[-1], of(model.StartOverride), of(model.HarborsOverride)) if maps else None,
        decls=decls,
    )


def _overridden(m: model.Map, starts: list[model.StartOverride],
                harbors: list[model.HarborsOverride]) -> model.Map:
    """The map with the `start` and `harbors` lines declared outside it in place of its own."""
    if harbors:
        last = harbors[-1]
        plans = last.plans if last.method is None else tuple(replace(h, method=last.method) for h in m.harbors)
        m = replace(m, harbors=plans)
    if starts:
        moved = {o.name: o.start for o in starts}
        kept = tuple(s for s in m.starts if s.key() not in moved)
        m = replace(m, starts=kept + tuple(moved[o.name] for o in starts))
    return m
