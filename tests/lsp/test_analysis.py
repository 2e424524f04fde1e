"""The language server's knowledge without the protocol (catandsl/lsp/analysis.py):
hovers, completions in context, declarations and definitions."""

from __future__ import annotations

from pathlib import Path

from catandsl.compiler.declarations import BODY
from catandsl.lsp import analysis as an

ROOT = Path(__file__).resolve().parents[2]

TEXT = '''scenario tiny "Tiny" {
  uses base
  # How the board is laid out.
  option layout "Layout" {
    item fixed "fixed" default
    item odd "odd"
  }
  when layout is fixed {
    map { hex (0, 0) forest 8 }
  }
  when layout is odd {
    map { hex (0, 0) hills 8 }
  }
}
'''


def _at(text: str, needle: str, nth: int = 0) -> tuple[int, int]:
    lines = text.split("\n")
    hits = [(n, line.index(needle)) for n, line in enumerate(lines) if needle in line]
    return hits[nth]


def _analysis(tmp_path: Path, text: str = TEXT) -> an.Analysis:
    path = tmp_path / "tiny.catan"
    path.write_text(text, encoding="utf-8")
    return an.analyse(text, str(path))


def test_the_file_compiles(tmp_path):
    a = _analysis(tmp_path)
    assert a.diagnostics == [] and a.scenario is not None


def test_hover_a_declaration_shows_its_comment(tmp_path):
    a = _analysis(tmp_path)
    line, col = _at(TEXT, "layout", 1)  # `when layout is fixed`
    assert an.hover(a, line, col + 1) == "`option layout`, declared at line 4\n\nHow the board is laid out."


def test_hover_a_head_word_from_the_compiler_tables(tmp_path):
    a = _analysis(tmp_path)
    line, col = _at(TEXT, "option")
    text = an.hover(a, line, col + 2)
    assert text.startswith("`option`: written in a ruleset's or scenario's body")
    assert "option" in BODY


def test_hover_a_name_declared_in_stdlib(tmp_path):
    a = _analysis(tmp_path)
    line, col = _at(TEXT, "forest")
    assert an.hover(a, line, col + 1) == "`terrain forest`, declared in `base.catan` line " + str(
        an.definition(a, line, col + 1).line)


def test_complete_the_items_of_an_option(tmp_path):
    a = _analysis(tmp_path)
    text = TEXT.replace("when layout is odd", "when layout is ")
    b = an.analyse(text, a.filename)  # does not parse: the last good version knows the names
    assert b.scenario is None
    line, col = _at(text, "when layout is ", 1)
    items = an.completions(b, a.scenario, line, col + len("when layout is "))
    assert [(c.label, c.kind) for c in items] == [("fixed", "item"), ("odd", "item")]


def test_complete_a_head_word_at_the_start_of_a_line(tmp_path):
    a = _analysis(tmp_path)
    labels = {c.label for c in an.completions(a, None, 1, 2) if c.kind == "keyword"}
    assert set(BODY) <= labels


def test_a_primitive_completes_as_a_snippet(tmp_path):
    a = _analysis(tmp_path)
    (give,) = [c for c in an.completions(a, None, 1, 2) if c.label == "give_tokens"]
    assert give.insert.startswith("give_tokens(${1:") and give.detail.startswith("give_tokens(")


def test_declarations_and_uses_definition(tmp_path):
    a = _analysis(tmp_path)
    (top,) = an.declarations(a.tree)
    assert (top.kind, top.name) == ("scenario", "tiny")
    assert [(d.kind, d.name) for d in top.children] == [("option", "layout"), ("map", "map"), ("map", "map")]
    line, col = _at(TEXT, "base")
    assert Path(an.definition(a, line, col).file) == ROOT / "stdlib" / "base.catan"


def test_nothing_at_a_position_that_is_not_there(tmp_path):
    a = _analysis(tmp_path)
    assert an.hover(a, 500, 3) is None and an.definition(a, -1, 0) is None
    assert an.word_at(TEXT, 0, 10_000) is None


def test_the_command_says_which_extra_it_needs_without_pygls():
    import subprocess
    import sys

    code = ("import sys; sys.modules['pygls'] = None; sys.modules['lsprotocol'] = None; "  # as if not installed
            "from catandsl.cli import main; sys.exit(main(['lsp']))")
    p = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True)
    assert p.returncode == 2 and "pip install 'catandsl[lsp]'" in p.stderr and "Traceback" not in p.stderr


def test_on_save_the_lint_findings_come_too(tmp_path):
    """Typing compiles only; saving runs the trial games and `lint` (L0201: a 6 beside an
    8), unless a comment switches the finding off."""
    text = (Path(__file__).resolve().parents[1] / "fixtures" / "lint" / "L0201_fail.catan").read_text()
    path = tmp_path / "hot.catan"
    path.write_text(text, encoding="utf-8")
    typed = an.analyse(text, str(path))
    saved = an.analyse(text, str(path), trial=True)
    assert "L0201" not in {d.code for d in typed.diagnostics}
    hot = [d for d in saved.diagnostics if d.code == "L0201"]
    assert hot and all(d.span.file == str(path) for d in hot)
    quiet = text.replace('    """\n    legend', '    """  # catandsl: ignore[L0201]\n    legend')
    assert "L0201" not in {d.code for d in an.analyse(quiet, str(path), trial=True).diagnostics}
