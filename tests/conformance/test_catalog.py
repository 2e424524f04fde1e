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

# Options whose other readings no row plays yet.
UNSHOWN: frozenset[str] = frozenset()


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


def _readings(r) -> tuple[str, list[str]]:
    """The default and the readings of the option or param a row names."""
    name = (r.option or r.alternative).split("=")[0]
    for o in scenario(PLAYED_BY.get(r.source, r.source)).options:
        if o.name == name:
            return o.default, [i.name for i in o.items]
    # a param the file declares: its value is the default, any other a scenario's choice
    found = re.search(rf"^\s*param {name} (\S+)", (ROOT / r.source).read_text(encoding="utf-8"), re.M)
    assert found, f"{r.test}: no option or param {name}"
    return found.group(1), []


def test_options_named_have_the_defaults_given():
    for _, r in all_rules():
        if r.option:
            default, _ = _readings(r)
            assert r.option.split("=")[1] == default, f"{r.test}: {r.option}, but the default is {default}"


def test_alternatives_named_are_readings_the_option_offers():
    """A row that plays another reading names one the option has (or another value of the
    param), never the default."""
    for _, r in all_rules():
        if r.alternative:
            default, items = _readings(r)
            item = r.alternative.split("=")[1]
            assert item != default, f"{r.test}: {r.alternative} is the default"
            assert not items or item in items, f"{r.test}: {item} is none of {items}"


def test_every_option_a_row_names_has_a_row_for_each_reading():
    """An unsure rule's option is shown both ways: a row for its default and one for every
    other reading."""
    shown: dict[tuple[str, str], set[str]] = {}
    for _, r in all_rules():
        if r.option or r.alternative:
            name, item = (r.option or r.alternative).split("=")
            shown.setdefault((PLAYED_BY.get(r.source, r.source), name), set()).add(item)
    missing = []
    for (path, name), items in sorted(shown.items()):
        for o in scenario(path).options:
            if o.name == name and {i.name for i in o.items} - items and name not in UNSHOWN:
                missing.append(f"{name}: {sorted({i.name for i in o.items} - items)}")
    assert not missing, "options with readings no row plays: " + "; ".join(missing)


def test_at_least_150_rules():
    assert len(all_rules()) >= 150
