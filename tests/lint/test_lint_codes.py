"""Each lint code has a failing fixture and a passing one (tests/fixtures/lint/), a
section in docs/lint.md whose example is what `catandsl lint` prints for the failing
fixture today, and `catandsl explain` prints that section.

    python tests/lint/test_lint_codes.py --update    # rewrite the examples in docs/lint.md
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

from catandsl.lint import CODES, LintConfig, lint_path
from catandsl.lint.explain import explain
from catandsl.lint.formats import to_text

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "tests" / "fixtures" / "lint"
DOC = ROOT / "docs" / "lint.md"
CONFIG = LintConfig(samples=4)


def rendered(code: str) -> str:
    """What `catandsl lint` prints for the failing fixture (paths relative to the checkout)."""
    return to_text([lint_path(FIXTURES / f"{code}_fail.catan", CONFIG)])


def regenerate(doc: str) -> str:
    """docs/lint.md with each code's example blocks filled from its failing fixture."""
    for code in CODES:
        fixture = (FIXTURES / f"{code}_fail.catan").read_text(encoding="utf-8")
        section = re.compile(rf"(## {code}: .*?\n```catan\n).*?(```\n\n```text\n).*?(```\n)", re.S)
        doc, n = section.subn(lambda m, f=fixture, c=code: m.group(1) + f + m.group(2) + rendered(c) + m.group(3),
                              doc, count=1)
        assert n == 1, f"docs/lint.md has no section with examples for {code}"
    return doc


@pytest.fixture(autouse=True)
def _in_checkout(monkeypatch):
    monkeypatch.chdir(ROOT)  # diagnostics name files relative to the working folder


@pytest.mark.parametrize("code", list(CODES))
def test_the_failing_fixture_shows_the_code(code):
    result = lint_path(FIXTURES / f"{code}_fail.catan", CONFIG)
    codes = [d.code for d in result.diagnostics]
    assert code in codes, codes
    assert all(d.severity == CODES[code][0] for d in result.diagnostics if d.code == code)
    assert all(d.span.line >= 2 for d in result.diagnostics), "a finding points at a line of the map"


@pytest.mark.parametrize("code", list(CODES))
def test_the_passing_fixture_is_clean(code):
    result = lint_path(FIXTURES / f"{code}_pass.catan", CONFIG)
    assert result.diagnostics == [], to_text([result])


def test_every_code_is_documented_and_explained():
    doc = DOC.read_text(encoding="utf-8")
    documented = re.findall(r"^## (L\d{4}): ", doc, re.M)
    assert documented == list(CODES)
    for code in CODES:
        text = explain(code)
        assert text is not None and text.startswith(f"## {code}: {CODES[code][1]}")
        assert "**Fix**" in text and f"{code}_fail.catan" in text


def test_the_examples_in_the_docs_are_current():
    doc = DOC.read_text(encoding="utf-8")
    assert regenerate(doc) == doc, "run: python tests/lint/test_lint_codes.py --update"


def test_a_deal_that_breaks_the_map_is_counted_with_its_seed(monkeypatch):
    # a deal `check` did not try (its own seeds passed) that cannot be laid: reported with
    # how many of the sampled deals break and the first seed, like any finding
    import importlib

    from catandsl.board import BoardError
    from catandsl.ir import model

    instantiate = importlib.import_module("catandsl.board.instantiate")  # the module, not the function
    real = instantiate.deal
    where = model.Source("scenarios/base.catan", 67, 7)

    def deal(rs, seed):
        if seed in (103, 105):
            raise BoardError("E0410", "no deal of the numbers keeps 6, 8 apart", where)
        return real(rs, seed)

    monkeypatch.setattr(instantiate, "deal", deal)
    result = lint_path(ROOT / "scenarios/base.catan", LintConfig(samples=8, seed=100))
    broken = [d for d in result.diagnostics if d.code == "E0410"]
    assert len(broken) == 1 and broken[0].span.line == 67 and broken[0].is_error
    assert broken[0].message.endswith("on 2 of the 8 deals checked, the first with seed 103")


if __name__ == "__main__" and "--update" in sys.argv:
    import os

    os.chdir(ROOT)
    DOC.write_text(regenerate(DOC.read_text(encoding="utf-8")), encoding="utf-8")
    print(f"updated {DOC.relative_to(ROOT)}")
