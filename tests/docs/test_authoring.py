"""docs/authoring.md, the constructs for authors and what each saves, stays true: every
file, section, diagnostic and line it links to exists, every example line it cites
shows the construct it names, every before/after pair of docs/authoring/ checks clean,
is laid out by `fmt` and counts the lines the page says, and the Traders & Barbarians
delivery rule it shows is the ruleset's own text."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from catandsl.checks import check_path
from catandsl.syntax.fmt import format_source
from tests.conftest import ROOT

DOC = ROOT / "docs" / "authoring.md"
PAIRS = ROOT / "docs" / "authoring"
LINK = re.compile(r"\]\(([^)\s]+)\)")
CITED = re.compile(r"\[`[\w.]+:(\d+)`\]\(\.\./([^)#]+)#L\1\) `([^`]+)`")
COUNTED = re.compile(r"\[`(\w+)\.before\.catan`\]\(authoring/\1\.before\.catan\).*\| (\d+) → (\d+) \|$")
FRAGMENTS = re.compile(r"```catan-fragment\n(.*?)\n```", re.S)


def _text() -> str:
    return DOC.read_text(encoding="utf-8")


def slug(heading: str) -> str:
    """A heading's anchor as GitHub makes it: lower case, punctuation dropped, spaces as
    hyphens."""
    text = heading.strip().lower().replace("`", "")
    return re.sub(r"[^\w\- ]", "", text).replace(" ", "-")


def anchors(path: Path) -> set[str]:
    return {slug(m.group(1)) for m in re.finditer(r"^#+\s+(.*)$", path.read_text(encoding="utf-8"), re.M)}


def counted(path: Path) -> int:
    """The lines between `# counted: begin` and `# counted: end`, blank lines and
    comments left out."""
    lines = path.read_text(encoding="utf-8").split("\n")
    start = next(i for i, line in enumerate(lines) if line.strip() == "# counted: begin")
    end = next(i for i, line in enumerate(lines) if line.strip() == "# counted: end")
    return sum(1 for line in lines[start + 1:end] if line.strip() and not line.strip().startswith("#"))


def test_the_page_is_linked_from_the_reference_and_the_readme():
    assert "(authoring.md)" in (ROOT / "docs" / "language.md").read_text(encoding="utf-8")[:3000]
    assert "`authoring.md`" in (ROOT / "README.md").read_text(encoding="utf-8")


def test_every_link_leads_somewhere():
    for target in LINK.findall(_text()):
        if "://" in target:
            continue
        path_part, _, fragment = target.partition("#")
        path = (DOC.parent / path_part).resolve() if path_part else DOC
        assert path.exists(), target
        if fragment.startswith("L") and fragment[1:].isdigit():
            assert int(fragment[1:]) <= len(path.read_text(encoding="utf-8").split("\n")), target
        elif fragment:
            assert fragment in anchors(path), target


def test_every_cited_line_shows_its_construct():
    cited = CITED.findall(_text())
    assert len(cited) >= 40
    for line, path, shown in cited:
        text = (ROOT / path).read_text(encoding="utf-8").split("\n")[int(line) - 1]
        assert shown in text, (path, line, shown)


def test_every_row_names_a_diagnostic_with_a_section_or_none():
    rows = [row for row in _text().split("\n") if row.startswith("| ") and "language.md#" in row]
    assert len(rows) >= 35
    for row in rows:
        cells = row.split(" | ")
        assert cells[3] == "—" or "diagnostics.md#e" in cells[3], row


PAIR_FILES = sorted(PAIRS.glob("*.catan"))


@pytest.mark.parametrize("path", PAIR_FILES, ids=lambda p: p.name)
def test_each_pair_file_checks_clean_and_is_formatted(path):
    scenario, diagnostics, _ = check_path(path)
    assert scenario is not None and not diagnostics, [(d.code, d.message) for d in diagnostics]
    text = path.read_text(encoding="utf-8")
    assert format_source(text, str(path)) == text


def test_the_counts_are_the_counts_of_the_pairs():
    rows = [COUNTED.search(row) for row in _text().split("\n")]
    found = {m.group(1): (int(m.group(2)), int(m.group(3))) for m in rows if m}
    names = {p.name.split(".")[0] for p in PAIR_FILES}
    assert set(found) == names
    for name, (before, after) in found.items():
        assert counted(PAIRS / f"{name}.before.catan") == before, name
        assert counted(PAIRS / f"{name}.after.catan") == after, name


def test_the_deliveries_shown_are_the_rulesets_own_and_count_as_said():
    before, after = FRAGMENTS.findall(_text())
    ruleset = (ROOT / "stdlib" / "traders_barbarians.catan").read_text(encoding="utf-8")
    assert after in ruleset
    assert before.count("on traveled(wagon)") == 3 and ruleset.count("{ deliver(player, at, ") == 3

    def lines(block: str) -> int:
        return sum(1 for line in block.split("\n") if line.strip() and not line.strip().startswith("#"))

    assert (lines(before), lines(after)) == (63, 29)
    assert "63 lines." in _text() and "29 lines: 34 fewer" in _text()
