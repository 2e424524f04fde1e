"""`lint_path`: everything `check` does, then the map checks of every configuration's
map over `samples` deals.

A fixed map is checked once. A shuffled one is dealt with seeds `seed`, `seed + 1`, ...
(the same deals `play --seed S` would lay), and a finding seen on some of them is
reported once per line, saying on how many and with the first seed that shows it, as
`check` reports its own deal problems (compiler/validate.py)."""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from pathlib import Path

from catandsl.diagnostics import Diagnostic, Sources, Span, sort_key
from catandsl.ir import model
from catandsl.ir.ruleset import Ruleset
from catandsl.lint.codes import CODES
from catandsl.lint.config import LintConfig
from catandsl.lint.maps import MapView, check_deal, missing_starts

# `# catandsl: ignore[L0201]` or `ignore[L0201, L0202]` on the line a finding points at
_IGNORE = re.compile(r"#\s*catandsl:\s*ignore\[([A-Za-z0-9_,\s]*)\]")


@dataclass
class LintResult:
    """A file's diagnostics (`check`'s and the lint findings), sorted, with its sources."""

    path: Path
    scenario: model.Scenario | None
    diagnostics: list[Diagnostic]
    sources: Sources

    @property
    def errors(self) -> int:
        return sum(1 for d in self.diagnostics if d.is_error)

    @property
    def warnings(self) -> int:
        return sum(1 for d in self.diagnostics if not d.is_error)


def lint_path(path: str | Path, config: LintConfig | None = None) -> LintResult:
    """`check`'s diagnostics and the lint findings of one file. The map is linted even
    when the trial game stopped (E0701): a map too small for its players stops the
    set-up, and L0102 says why."""
    from catandsl.checks import is_library, trial_diagnostics
    from catandsl.compiler import compile_path
    from catandsl.compiler.loader import display_name

    config = config or LintConfig()
    path = Path(path)
    scenario, found, sources = compile_path(path)
    if scenario is not None and scenario.sections and not is_library(scenario):
        span = Span(display_name(path), 1, 1)
        trial = trial_diagnostics(scenario, span)
        reported = {(d.code, d.span) for d in found}
        found = found + trial + [d for d in lint_scenario(scenario, span, config)
                                 if (d.code, d.span) not in reported]
        if trial:
            scenario = None  # as `check` says: not a scenario that plays
    kept = [d for d in found if not is_ignored(d, config, sources)]
    return LintResult(path, scenario, sorted(kept, key=sort_key), sources)


def lint_scenario(scenario: model.Scenario, span: Span, config: LintConfig) -> list[Diagnostic]:
    """The map checks of every configuration (each distinct map once, at its most players)."""
    from catandsl.compiler.validate import MAX_CONFIGURATIONS, configurations, count_configurations
    from catandsl.ir.ruleset import ConfigurationError, configure

    if count_configurations(scenario) > MAX_CONFIGURATIONS:
        return []  # `check` said so (E0606)
    maps: dict[tuple, tuple[int, Ruleset]] = {}  # map key -> (most players, its ruleset)
    out: list[Diagnostic] = []
    for players, options in configurations(scenario):
        try:
            rs = configure(scenario, players, options)
        except ConfigurationError:
            continue  # `check` reported it
        if rs.map is None:
            continue
        out += missing_starts(rs, span)
        key = (id(rs.map), tuple((name, id(t)) for name, t in rs.terrains.items()))
        if key not in maps or maps[key][0] < players:
            maps[key] = (players, rs)
    for players, rs in maps.values():
        out += _sampled(rs, players, span, config)
    return _unique(out)


def _sampled(rs, players: int, span: Span, config: LintConfig) -> list[Diagnostic]:
    from catandsl.board import BoardError
    from catandsl.board.instantiate import deal

    failing: dict[tuple, list] = {}  # (code, span) -> [first finding, its seed, deals showing it]
    dealt = 0
    first = None
    for seed in range(config.seed, config.seed + config.samples):
        try:
            d = deal(rs, seed)
        except BoardError as e:
            # a deal `check` did not try may break the map: counted like any finding
            # (lint_path drops it when `check` reported the same line)
            dealt += 1
            f = Diagnostic(e.code, e.message, Span(e.source.file, e.source.line, e.source.column)
                           if e.source is not None else span, help=e.help)
            entry = failing.setdefault((f.code, f.span), [f, seed, 0])
            entry[2] += 1
            continue
        if first is not None and d.fixed(first):
            break  # a fixed map: every deal is the first
        first = first or d
        dealt += 1
        seen: set[tuple] = set()
        for f in check_deal(MapView(rs, d, span), players, config):
            key = (f.code, f.span)
            if key in seen:
                continue  # one count per deal
            seen.add(key)
            entry = failing.setdefault(key, [f, seed, 0])
            entry[2] += 1
    out = []
    for f, seed, count in failing.values():
        if dealt > 1:
            how = f"on every one of the {dealt} deals" if count == dealt else f"on {count} of the {dealt} deals"
            f = replace(f, message=f"{f.message}: {how} checked, the first with seed {seed}")
        out.append(f)
    return out


def _unique(diags: list[Diagnostic]) -> list[Diagnostic]:
    seen: set[tuple] = set()
    out = []
    for d in diags:
        key = (d.code, d.span, d.message)
        if key not in seen:
            seen.add(key)
            out.append(d)
    return out


def ignored_codes(line: str | None) -> set[str]:
    """The codes a `# catandsl: ignore[...]` comment on this source line switches off."""
    if not line:
        return set()
    return {c.strip() for m in _IGNORE.finditer(line) for c in m.group(1).split(",") if c.strip()}


def is_ignored(d: Diagnostic, config: LintConfig, sources: Sources) -> bool:
    """Whether a lint finding is switched off: by `[tool.catandsl.lint] ignore`, or by a
    `# catandsl: ignore[CODE]` comment on its line (or on the line closing the map
    picture it is in). `check`'s own diagnostics never are."""
    if d.code not in CODES:
        return False  # `check`'s errors say the file is no scenario: they cannot be switched off
    if d.code in config.ignore:
        return True
    line = d.span.line
    codes = ignored_codes(sources.line(d.span.file, line))
    closing = _picture_closing(sources, d.span.file, line)
    if closing is not None:  # a picture's cells hold no comments: the line that closes it does
        codes |= ignored_codes(sources.line(d.span.file, closing))
    return d.code in codes


def _picture_closing(sources: Sources, file: str, line: int) -> int | None:
    """The line whose triple quote closes the multi-line string holding `line`, if any:
    a comment can follow it there."""
    text = sources.texts.get(file)
    if text is None:
        return None
    lines = text.split("\n")
    inside = False
    for content in lines[:line - 1]:
        inside ^= content.count('"""') % 2 == 1
    if not inside:
        return None
    for number in range(line, len(lines) + 1):
        if '"""' in lines[number - 1]:
            return number
    return None
