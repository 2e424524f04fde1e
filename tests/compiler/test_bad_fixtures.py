"""One failing fixture per diagnostic code (tests/fixtures/bad/).

Each fixture's first line says what it must produce:

    # expect: E0302 at 7:18
    # expect: E0204 at imports/cycle_b.catan:2:1    (the error lies in a helper file)

Every fixture is checked the way `catandsl check` checks a file (`catandsl.checks.check_path`):
compiled, then, if it compiles, played for a short trial game, whose stops are E0701.

The codes that need bytes a text fixture cannot hold (a file over 1 MiB, invalid UTF-8,
a NUL byte), a path that is missing, a directory or unreadable, a broken standard
library, a map picture over the size limit and a flood of 200 errors are generated into
tmp_path by the tests below instead of being committed.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from catandsl import resources
from catandsl.checks import check_path
from catandsl.diagnostics import Diagnostic, Sources, format_all, format_text

ROOT = Path(__file__).resolve().parents[2]
BAD = ROOT / "tests" / "fixtures" / "bad"
DOC = ROOT / "docs" / "diagnostics.md"
FIXTURES = sorted(BAD.glob("*.catan"))
EXPECT = re.compile(r"^# expect: (E\d{4}) at (?:(\S+):)?(\d+):(\d+)$")

# Codes a committed fixture cannot reach; each has a generated test in this file.
GENERATED = {"E0001", "E0002", "E0003", "E0005", "E0006", "E0007", "E0008", "E0207", "E0408"}
# Codes no .catan file can produce through `check_path`, and why.
UNREACHABLE = {
    # validate_scenario reports a configuration without a map as E0605 before it
    # instantiates the board, so the board's own "no map" error never reaches a user.
    "E0423": "caught earlier as E0605",
    # validate_scenario only configures player counts and option items the scenario
    # itself declares, so `configure` cannot refuse them.
    "E0604": "only valid configurations are checked",
}


def emitted_codes() -> set[str]:
    """Every diagnostic code the package can emit, read from its source."""
    codes = set()
    for path in (ROOT / "catandsl").rglob("*.py"):
        codes |= set(re.findall(r'"(E0\d{3})"', path.read_text(encoding="utf-8")))
    return codes


def expectation(path: Path) -> tuple[str, Path, int, int]:
    first = path.read_text(encoding="utf-8").splitlines()[0]
    m = EXPECT.match(first)
    assert m, f"{path.name}: the first line must be `# expect: CODE at LINE:COL`"
    code, other, line, column = m.groups()
    return code, (BAD / other if other else path), int(line), int(column)


def check_fails(path: Path) -> tuple[list[Diagnostic], Sources]:
    """What `catandsl check` reports for a file that must fail."""
    scenario, diags, sources = check_path(path)
    assert scenario is None, f"{path.name} passed the check"
    assert any(d.is_error for d in diags)
    return diags, sources


def assert_rendered(diags: list[Diagnostic], sources: Sources) -> None:
    for d in diags:
        text = format_text(d, sources)
        assert Path(d.span.file).name in text, text
        assert f"[{d.code}]" in text, text
        assert d.span.line >= 1, text


def test_there_are_enough_fixtures():
    assert len(FIXTURES) >= 25


@pytest.mark.parametrize("path", FIXTURES, ids=lambda p: p.stem)
def test_bad_fixture(path: Path):
    code, where, line, column = expectation(path)
    assert path.name.startswith(code), "name a fixture after its code"
    diags, sources = check_fails(path)
    hits = [d for d in diags if d.code == code]
    assert hits, f"expected {code}, got {[(d.code, d.message) for d in diags]}"
    located = [
        d for d in hits
        if Path(d.span.file).resolve() == where.resolve()
        and (d.span.line, d.span.column) == (line, column)
    ]
    assert located, f"expected {code} at {where.name}:{line}:{column}, got " + ", ".join(
        f"{Path(d.span.file).name}:{d.span.line}:{d.span.column}" for d in hits
    )
    assert_rendered(diags, sources)


def test_every_code_has_a_fixture():
    covered = {p.name[:5] for p in FIXTURES}
    missing = emitted_codes() - covered - GENERATED - set(UNREACHABLE)
    assert not missing, f"codes without a fixture in tests/fixtures/bad/: {sorted(missing)}"


def test_every_code_is_documented():
    documented = set(re.findall(r"^## (E\d{4}):", DOC.read_text(encoding="utf-8"), flags=re.M))
    missing = emitted_codes() - documented
    assert not missing, f"codes without a section in docs/diagnostics.md: {sorted(missing)}"


def documented_examples() -> list[tuple[str, str]]:
    """(fixture, rendered text) for each example of docs/diagnostics.md: a link to a
    fixture named after its section's code, then the first ```text block after it."""
    examples, pending, code = [], None, None
    for line_or_block in re.split(r"(```text\n.*?\n```)", DOC.read_text(encoding="utf-8"), flags=re.S):
        if line_or_block.startswith("```text"):
            if pending:
                examples.append((pending, line_or_block[len("```text\n"):-len("\n```")]))
            pending = None
            continue
        for line in line_or_block.splitlines():
            if line.startswith("## "):
                code = line[3:8]
            m = re.match(r"\[`tests/fixtures/bad/([^`/]+)`\]", line)
            if m and m.group(1).startswith(code or "-"):
                pending = m.group(1)
    return examples


def test_documented_examples_match_the_compiler(monkeypatch):
    monkeypatch.chdir(ROOT)  # the rendered paths are relative to the checkout
    examples = documented_examples()
    assert {name for name, _ in examples} == {p.name for p in FIXTURES}
    for name, text in examples:
        _, diags, sources = check_path(Path("tests/fixtures/bad") / name)
        assert format_all(diags, sources) == text, (
            f"docs/diagnostics.md is out of date for {name}: replace its ```text block with "
            f"the output of `python -m catandsl check tests/fixtures/bad/{name}`")


# ---- all errors in one run ------------------------------------------------------------


def test_all_errors_of_a_file_in_one_run():
    diags, sources = check_fails(BAD / "many" / "three_errors.catan")
    codes = sorted(d.code for d in diags)
    assert codes == ["E0302", "E0501", "E0601"], [(d.code, d.message) for d in diags]
    assert [d.span.line for d in diags] == sorted(d.span.line for d in diags)
    assert_rendered(diags, sources)


# ---- generated: input that a committed text fixture cannot hold -----------------------


def one(tmp_path: Path, name: str, data: bytes | str) -> tuple[Diagnostic, Sources]:
    path = tmp_path / name
    if isinstance(data, str):
        data = data.encode("utf-8")
    path.write_bytes(data)
    diags, sources = check_fails(path)
    assert len(diags) == 1, diags
    assert_rendered(diags, sources)
    return diags[0], sources


def test_E0001_file_too_large(tmp_path):
    d, _ = one(tmp_path, "huge.catan", b"# " + b"x" * (1 << 20) + b"\n")
    assert (d.code, d.span.line, d.span.column) == ("E0001", 1, 1)


def test_E0001_too_many_tokens(tmp_path):
    text = 'scenario "x" {\n  uses base\n  resources ' + ", ".join(["a"] * 30_000) + "\n}\n"
    d, _ = one(tmp_path, "tokens.catan", text)
    assert (d.code, d.span.line) == ("E0001", 3)


def test_E0002_invalid_utf8(tmp_path):
    d, _ = one(tmp_path, "latin1.catan", 'scenario "Caf\xe9" {\n  title "\xe9t\xe9 "\n}\n'.encode("latin-1"))
    assert (d.code, d.span.line, d.span.column) == ("E0002", 1, 14)


def test_E0002_column_counts_characters(tmp_path):
    d, _ = one(tmp_path, "mixed.catan", 'scenario "Été" {\n'.encode() + b"\xff\n}\n")
    assert (d.code, d.span.line, d.span.column) == ("E0002", 2, 1)
    d, _ = one(tmp_path, "mixed2.catan", "# Été ".encode() + b"\xff\n")
    assert (d.code, d.span.line, d.span.column) == ("E0002", 1, 7)


def test_E0003_nul_byte(tmp_path):
    d, _ = one(tmp_path, "nul.catan", b'scenario "x" {\n  uses base\n  vic\x00tory 10\n}\n')
    assert (d.code, d.span.line, d.span.column) == ("E0003", 3, 6)


def test_E0003_control_character_and_nothing_raw_reaches_the_terminal(tmp_path):
    d, sources = one(tmp_path, "escape.catan", 'scenario "Red \x1b[31mAlert" {\n  uses base\n}\n')
    assert (d.code, d.span.line, d.span.column) == ("E0003", 1, 15)
    assert "\x1b" not in format_text(d, sources) and "\\x1b" in format_text(d, sources)


def test_E0005_missing_file(tmp_path):
    diags, _ = check_fails(tmp_path / "nowhere.catan")
    assert [d.code for d in diags] == ["E0005"]
    assert diags[0].span.line == 1


def test_E0006_directory(tmp_path):
    (tmp_path / "folder.catan").mkdir()
    diags, _ = check_fails(tmp_path / "folder.catan")
    assert [d.code for d in diags] == ["E0006"]


def test_E0007_unreadable_path(tmp_path):
    # A name longer than any file system allows fails for root too (chmod would not).
    diags, _ = check_fails(tmp_path / ("x" * 300 + ".catan"))
    assert [d.code for d in diags] == ["E0007"]
    assert diags[0].span.line == 1


def test_E0008_too_many_errors(tmp_path):
    text = (BAD / "E0301_unknown_declaration.catan").read_text(encoding="utf-8")
    path = tmp_path / "flood.catan"
    path.write_text(text.replace("  victroy 12\n", "  victroy 12\n" * 500), encoding="utf-8")
    diags, sources = check_fails(path)
    assert [d.code for d in diags] == ["E0301"] * 200 + ["E0008"]
    assert diags[-1].span == diags[-2].span  # where it stopped
    assert_rendered(diags, sources)


def test_E0207_stdlib_file_declares_another_ruleset(tmp_path, monkeypatch):
    # Only a broken installation can do this: stdlib/NAME.catan must declare `ruleset NAME`.
    stdlib = tmp_path / "stdlib"
    stdlib.mkdir()
    base = resources.stdlib_dir() / "base.catan"
    (stdlib / "base.catan").write_text(base.read_text(encoding="utf-8"), encoding="utf-8")
    (stdlib / "misnamed.catan").write_text("ruleset other {\n  victory 12\n}\n", encoding="utf-8")
    monkeypatch.setattr(resources, "stdlib_dir", lambda: stdlib)
    scenario = tmp_path / "s.catan"
    scenario.write_text((BAD.parent / "bad" / "E0301_unknown_declaration.catan").read_text()
                        .replace("victroy 12", "uses misnamed"), encoding="utf-8")
    diags, sources = check_fails(scenario)
    assert [d.code for d in diags] == ["E0207"]
    assert (Path(diags[0].span.file).name, diags[0].span.line, diags[0].span.column) == (
        "misnamed.catan", 1, 9)
    assert_rendered(diags, sources)


def test_E0408_map_picture_too_large(tmp_path):
    rows = "\n".join("      " + "f   " * 101 for _ in range(100))
    text = (f'scenario "Huge" {{\n  uses base\n  map {{\n    rows """\n{rows}\n    """\n'
            "    legend { f forest }\n  }\n}\n")
    d, _ = one(tmp_path, "huge_map.catan", text)
    assert (d.code, d.span.line, d.span.column) == ("E0408", 4, 10)


def update_documented_examples() -> None:
    """Rewrite each ```text block of docs/diagnostics.md that follows a fixture link with
    what `catandsl check` prints for that fixture now."""
    import os

    os.chdir(ROOT)
    parts = re.split(r"(```text\n.*?\n```)", DOC.read_text(encoding="utf-8"), flags=re.S)
    pending, code = None, None
    for k, part in enumerate(parts):
        if part.startswith("```text"):
            if pending:
                _, diags, sources = check_path(Path("tests/fixtures/bad") / pending)
                parts[k] = f"```text\n{format_all(diags, sources)}\n```"
            pending = None
            continue
        for line in part.splitlines():
            if line.startswith("## "):
                code = line[3:8]
            m = re.match(r"\[`tests/fixtures/bad/([^`/]+)`\]", line)
            if m and m.group(1).startswith(code or "-"):
                pending = m.group(1)
    DOC.write_text("".join(parts), encoding="utf-8")


if __name__ == "__main__":  # python tests/compiler/test_bad_fixtures.py --update
    import sys

    sys.path.insert(0, str(ROOT))
    if sys.argv[1:] == ["--update"]:
        update_documented_examples()
        print("updated docs/diagnostics.md")
