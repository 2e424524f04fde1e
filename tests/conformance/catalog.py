"""The catalogue of rules behind docs/conformance.md: each conformance test says, with
`@rule(...)`, which line of which .catan file states its rule, and its docstring states
the rule in plain English. The table in docs/conformance.md is generated from them, so
it cannot drift from the tests; tests/conformance/test_catalog.py checks that it is
current, that every quoted line is where the table says, and that every named option
has the default the table gives. Tests written without the mark have their rows in
elsewhere.json.

    python tests/conformance/catalog.py          # print the table
    python tests/conformance/catalog.py --write  # rewrite docs/conformance.md

Run `--write` after editing a conformance test or a .catan file the table points at.
"""

from __future__ import annotations

import ast
import importlib
import inspect
import json
import sys
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:  # so that `python tests/conformance/catalog.py` works too
    sys.path.insert(0, str(ROOT))

DOC = ROOT / "docs" / "conformance.md"

# The sections of the table, in order: (title, the test module that holds its rules).
SECTIONS = (
    ("The base game", "test_rules_base"),
    ("The base game for two: Catan for Two", "test_rules_two_players_base"),
    ("The 5-6 player extension", "test_rules_five_six"),
    ("Seafarers: the general rules", "test_rules_seafarers"),
    ("Seafarers: Heading for New Shores", "test_rules_new_shores"),
    ("Seafarers: The Four Islands", "test_rules_four_islands"),
    ("Seafarers: Cloth for Catan", "test_rules_cloth"),
    ("Traders & Barbarians", "test_rules_traders_barbarians"),
    ("Traders & Barbarians: Catan for Two", "test_rules_catan_for_two"),
    ("Event Cards", "test_rules_event_cards"),
    ("Traders & Barbarians: the Harbormaster", "test_rules_harbormaster"),
)


@dataclass(frozen=True)
class Rule:
    """One row of the table: the rule in plain English, the line of a .catan file that
    states it (found by a quote from that line, or the first line after `after` that
    holds the quote), the reading it plays where the rules reference is unsure (`option`:
    `name=item` of the option or param, its default; `alternative`: `name=item` of
    another of its readings; `fixed`: why the file offers no other reading), and the
    test that checks it."""

    text: str
    source: str
    quote: str
    test: str
    module: str
    after: str = ""
    option: str = ""
    alternative: str = ""
    fixed: str = ""


def rule(source: str, quote: str, *, after: str = "", option: str = "", alternative: str = "",
         fixed: str = "") -> Callable:
    """Mark a test with the line that states its rule: `source` a .catan file's path from
    the repository root, `quote` words on that line (unique in the file, or the first
    occurrence after the first line holding `after`). Where the rules reference is unsure,
    one of: `option`, `name=default` of the option or param that decides it (the test
    plays the default); `alternative`, `name=item` of another item (the test plays that
    reading); `fixed`, why the file takes one reading and offers no other."""
    if sum(map(bool, (option, alternative, fixed))) > 1:
        raise ValueError("a rule is read by its option's default, an alternative, or fixed: one of them")

    def mark(fn: Callable) -> Callable:
        fn.conformance = {"source": source, "quote": quote, "after": after,  # type: ignore[attr-defined]
                          "option": option, "alternative": alternative, "fixed": fixed}
        return fn

    return mark


# Rules whose tests live in modules without `@rule` marks, written by others: their rows,
# one object each (section, test, module, source, quote, rule; perhaps after and option).
ELSEWHERE = Path(__file__).with_name("elsewhere.json")


def elsewhere() -> list[tuple[str, Rule]]:
    rows = json.loads(ELSEWHERE.read_text(encoding="utf-8"))
    return [(row["section"], Rule(text=row["rule"], source=row["source"], quote=row["quote"], test=row["test"],
                                  module=row["module"], after=row.get("after", ""), option=row.get("option", ""),
                                  alternative=row.get("alternative", ""), fixed=row.get("fixed", "")))
            for row in rows]


def rules_of(module_name: str) -> list[Rule]:
    """The marked tests of one conformance module, in the order they are defined."""
    module = importlib.import_module(f"tests.conformance.{module_name}")
    out = []
    for name, fn in vars(module).items():
        mark = getattr(fn, "conformance", None)
        if name.startswith("test_") and mark is not None:
            text = " ".join((inspect.getdoc(fn) or "").split())
            out.append(Rule(text=text, test=name, module=f"tests/conformance/{module_name}.py", **mark))
    return out


def all_rules() -> list[tuple[str, Rule]]:
    out = []
    for title, module_name in SECTIONS:
        out += [(title, r) for r in rules_of(module_name)]
        out += [(t, r) for t, r in elsewhere() if t == title]
    return out


def locate(r: Rule) -> int:
    """The line number (from 1) of the rule's quote in its source (the first after the
    first line holding `after`); ValueError if the quote is missing, or repeated where no
    `after` picks one."""
    lines = _lines(r.source)
    start = 0
    if r.after:
        anchors = [k for k, text in enumerate(lines) if r.after in text]
        if not anchors:
            raise ValueError(f"{r.test}: {r.after!r} is not in {r.source}")
        start = anchors[0]
    hits = [k for k, text in enumerate(lines) if k >= start and r.quote in text]
    if not hits:
        raise ValueError(f"{r.test}: {r.quote!r} is not in {r.source}" + (f" after {r.after!r}" if r.after else ""))
    if not r.after and len(hits) > 1:
        raise ValueError(f"{r.test}: {r.quote!r} is on {len(hits)} lines of {r.source}: give `after`")
    return hits[0] + 1


@cache
def _lines(path: str) -> tuple[str, ...]:
    return tuple((ROOT / path).read_text(encoding="utf-8").splitlines())


@cache
def defined_tests(module_path: str) -> frozenset[str]:
    """The test functions a file defines (read as text, never run)."""
    tree = ast.parse((ROOT / module_path).read_text(encoding="utf-8"))
    return frozenset(n.name for n in tree.body if isinstance(n, ast.FunctionDef) and n.name.startswith("test_"))


def _cell(text: str) -> str:
    return text.replace("|", "\\|")


def table() -> str:
    """docs/conformance.md as it should read."""
    rows = all_rules()
    counts = {title: 0 for title, _ in SECTIONS}
    for title, _ in rows:
        counts[title] += 1
    out = [
        "# Conformance: the rules of Catan, one test each",
        "",
        "<!-- Generated by tests/conformance/catalog.py from the tests' docstrings and `@rule`",
        "     marks: edit those, then run `python tests/conformance/catalog.py --write`. -->",
        "",
        "This is where a reader checks that the engine plays Catan, rule by rule. Each row states",
        "a rule of the base game, of a shipped Seafarers or Traders & Barbarians scenario, or of a",
        "variant; names the line of the `.catan` file that says it (the engine knows no scenario:",
        "every rule below is data or a primitive called from that line); and names the test that",
        "plays it from a fixed position built with `catandsl.position`, with forced dice and draws.",
        "",
        "Where the rules reference is unsure between readings, the scenario file offers the others",
        "as an `option` (or a `param` a scenario may declare again): the column *Reading* names the",
        "option and the item the row plays, *(default)* when a game gets it unless told otherwise",
        "(`--option name=item` chooses another). *Fixed* marks a reading the file takes without",
        "offering another, and says why there is none to offer.",
        "",
        "`tests/conformance/test_catalog.py` keeps this page honest: the table must be what the",
        "tests generate, every quoted line must stand at the line given, every named option must",
        "have the default given, and every test named must exist. The rows of tests written",
        "without `@rule` marks come from `tests/conformance/elsewhere.json`. Run the rules with",
        "`python -m pytest -q tests/conformance`.",
        "",
        "| Section | Rules |",
        "|---|---|",
    ]
    out += [f"| [{title}](#{_anchor(title)}) | {n} |" for title, n in counts.items()]
    out += [f"| **All** | **{len(rows)}** |", ""]
    for title, _ in SECTIONS:
        out += [f"## {title}", "", "| # | Rule | Where the scenario says it | Reading | Test |",
                "|---|---|---|---|---|"]
        n = 0
        for t, r in rows:
            if t != title:
                continue
            n += 1
            line = locate(r)
            where = f"[`{r.source}:{line}`](../{r.source}#L{line}) `{_cell(r.quote)}`"
            reading = (f"`{r.option}` (default)" if r.option else f"`{r.alternative}`" if r.alternative
                       else f"fixed: {_cell(r.fixed)}" if r.fixed else "")
            test = f"[`{r.test}`](../{r.module})"
            out.append(f"| {n} | {_cell(r.text)} | {where} | {reading} | {test} |")
        out.append("")
    return "\n".join(out)


def _anchor(title: str) -> str:
    keep = "".join(ch for ch in title.lower() if ch.isalnum() or ch in " -")
    return keep.replace(" ", "-")


if __name__ == "__main__":
    text = table()
    if "--write" in sys.argv[1:]:
        DOC.write_text(text, encoding="utf-8")
    else:
        print(text)
