"""docs/conformance.md against the tests it lists: the table is what the tests generate,
every line it cites says what it quotes, every option it names has that default, every
test it names exists, and every conformance test is in it."""

from __future__ import annotations

import re

from tests.conformance.catalog import DOC, ROOT, all_rules, defined_tests, locate, table
from tests.conformance.positions import BASE, NEW_SHORES, TB, scenario

# The scenario that plays each ruleset's rules (and so has its options).
PLAYED_BY = {
    "stdlib/base.catan": BASE,
    "stdlib/event_cards.catan": BASE,
    "stdlib/seafarers.catan": NEW_SHORES,
    "stdlib/traders_barbarians.catan": TB,
}


def test_the_table_is_current():
    assert DOC.read_text(encoding="utf-8") == table(), "run: python tests/conformance/catalog.py --write"


def test_every_cited_line_says_what_the_table_quotes():
    for _, r in all_rules():
        n = locate(r)  # raises where the quote is missing or ambiguous
        assert r.quote in (ROOT / r.source).read_text(encoding="utf-8").splitlines()[n - 1], r.test


def test_every_test_named_exists():
    missing = [f"{r.module}::{r.test}" for _, r in all_rules() if not (ROOT / r.module).exists()
               or r.test not in defined_tests(r.module)]
    assert not missing, "\n".join(["tests the table names but nobody defines:", *missing])


def test_every_conformance_test_states_its_rule():
    listed = {(r.module, r.test) for _, r in all_rules()}
    for path in sorted((ROOT / "tests" / "conformance").glob("test_*.py")):
        module = str(path.relative_to(ROOT))
        if path.name == "test_catalog.py":
            continue
        unlisted = sorted(t for t in defined_tests(module) if (module, t) not in listed)
        assert not unlisted, f"{module}: mark these with @rule(...) or list them in elsewhere.json: {unlisted}"
    assert all(r.text.endswith(".") and len(r.text) > 20 for _, r in all_rules())
    names = [r.test for _, r in all_rules()]
    assert len(names) == len(set(names))


def test_options_named_have_the_defaults_given():
    for _, r in all_rules():
        if not r.option:
            continue
        name, default = r.option.split("=")
        options = {o.name: o.default for o in scenario(PLAYED_BY.get(r.source, r.source)).options}
        if name in options:
            assert options[name] == default, f"{r.test}: {name} defaults to {options[name]}"
        else:  # a param the file declares
            text = (ROOT / r.source).read_text(encoding="utf-8")
            assert re.search(rf"^\s*param {name} {default}\b", text, re.M), f"{r.test}: no option or param {name}"


def test_at_least_150_rules():
    assert len(all_rules()) >= 150
