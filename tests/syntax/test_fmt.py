"""`catandsl fmt`: one canonical layout that keeps comments, pictures and meaning.

- a golden case: a badly laid-out file and its canonical layout;
- every shipped .catan file is formatted, and laying it out badly at random (other
  indentation, other spaces between tokens) and formatting it again gives it back
  byte for byte, with the same IR (positions aside) and every comment;
- generated scenarios (tests/fuzz_semantic.py), laid out badly at random, format
  idempotently to the same text as the generated file, with the same IR and diagnostic
  codes; a file that does not parse is refused with the parser's diagnostic, never a
  traceback;
- the command: --check, --diff, writing in place.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from catandsl.compiler import compile_ast
from catandsl.diagnostics import CatanError, Sources
from catandsl.ir import scenario_to_json
from catandsl.syntax.fmt import format_source
from catandsl.syntax.parser import lexemes, parse
from tests.fuzz_semantic import generate, materialize

ROOT = Path(__file__).resolve().parents[2]
# Every shipped file; the bad fixtures are inputs for diagnostics at fixed positions.
SHIPPED = sorted(p for d in ("stdlib", "scenarios", "examples", "tests/fixtures") for p in (ROOT / d).rglob("*.catan")
                 if "fixtures/bad" not in p.as_posix())

MESSY = '''\
# a comment before everything


scenario tiny   "Tiny"{
uses base
      victory 12   # the target
  turn_limit   300 # a cap


    map {
  rows at ( 0 , -1 ) """
      ~  f8  ~
        h5  ~
  """
      legend {
   ~ sea
 f forest
        hh hills
      }
      harbors fixed [
   3:1 at (0,-1)NW,
        wool 2 : 1 at (0, -1) NE,
       ]
  }
  terrain f {produces lumber}
   terrain longer {water}
  rule r {
  on rolled(7) if dice_total() >= 7 and not (-1 > - 2) {
       let x=1 + -2 * 3
     give_tokens(player,gold,2)  # paid
  }

  }
}
'''

GOLDEN = '''\
# a comment before everything

scenario tiny "Tiny" {
  uses base
  victory 12      # the target
  turn_limit 300  # a cap

  map {
    rows at (0, -1) """
      ~  f8  ~
        h5  ~
  """
    legend {
      ~  sea
      f  forest
      hh hills
    }
    harbors fixed [
      3:1 at (0, -1) NW,
      wool 2:1 at (0, -1) NE,
    ]
  }
  terrain f      { produces lumber }
  terrain longer { water }
  rule r {
    on rolled(7) if dice_total() >= 7 and not (-1 > -2) {
      let x = 1 + -2 * 3
      give_tokens(player, gold, 2)  # paid
    }
  }
}
'''


def test_golden():
    assert format_source(MESSY) == GOLDEN


def test_golden_is_idempotent():
    assert format_source(GOLDEN) == GOLDEN


def test_continuation_lines_start_under_the_text_after_their_bracket():
    text = "ruleset r {\n  piece p {\n    on path where (land(at)\n  and water(at))\n  }\n}\n"
    assert format_source(text).split("\n")[2:4] == ["    on path where (land(at)",
                                                     "                   and water(at))"]


def test_a_call_and_a_coordinate_stay_apart():
    # `hex (1, 2)` is a name and a coordinate; `land(at)` a call: the space is meaning
    text = 'ruleset r {\n  x hex (1, 2) where land(at)\n  dice 2d6\n}\n'
    assert format_source(text) == text
    assert format_source(text.replace("hex (1", "hex  (1")) == text


def test_every_comment_is_kept_in_order():
    out = format_source(MESSY)
    comments = [x.text for x in lexemes(MESSY) if x.type == "COMMENT"]
    assert [x.text for x in lexemes(out) if x.type == "COMMENT"] == comments


def test_a_file_that_does_not_parse_is_refused_with_its_diagnostic():
    with pytest.raises(CatanError) as e:
        format_source("ruleset r {\n  cost brick + + lumber\n}\n", "x.catan")
    assert e.value.diagnostics[0].code == "E0101"
    assert e.value.diagnostics[0].span.line == 2


def test_a_layout_that_would_change_the_meaning_is_refused(monkeypatch):
    from catandsl.syntax import fmt

    monkeypatch.setattr(fmt, "_render", lambda lines: "ruleset other {\n}\n")  # a layout bug, planted
    with pytest.raises(fmt.LayoutError):
        format_source("ruleset r {\n}\n")


# ---- shipped files ----------------------------------------------------------------------


def mess(text: str, rng: random.Random) -> str:
    """The same tokens laid out badly: random indentation, random runs of spaces where
    the file had a space (none added where it had none: `2d6`, `land(at)`), more blank
    lines where it had one, and blank lines after an opening `{`."""
    toks = lexemes(text)
    out: list[str] = []
    end = None  # (line, column) just after the previous token
    for i, t in enumerate(toks):
        if t.type == "_NL":
            out.append("\n")
            blank = i > 0 and toks[i - 1].type == "_NL"
            if (blank and rng.random() < 0.5) or (i > 0 and toks[i - 1].text == "{" and rng.random() < 0.3):
                out.append("\n" * rng.randrange(1, 3))
            end = None
            continue
        if end is None:
            out.append(" " * rng.randrange(0, 9))
        elif end != (t.line, t.column):
            out.append(" " * rng.randrange(1, 4))
        out.append(t.text)
        last_line = t.text.count("\n")
        end = (t.line + last_line, (len(t.text) - t.text.rfind("\n")) if last_line else t.column + len(t.text))
    return "".join(out)


def ir(text: str, path: Path, root: Path | None = None) -> tuple[str | None, list[str]]:
    """The IR as JSON without source positions, and the diagnostic codes."""
    scenario, diags = compile_ast(parse(text, str(path)), Sources(), root or path.parent)
    codes = [d.code for d in diags]
    if scenario is None:
        return None, codes
    return json.dumps(_no_positions(scenario_to_json(scenario)), sort_keys=True), codes


def _no_positions(x):
    if isinstance(x, dict):
        return {k: _no_positions(v) for k, v in x.items() if k not in ("line", "column", "end_line", "end_column")}
    if isinstance(x, list):
        return [_no_positions(v) for v in x]
    return x


def test_there_are_shipped_files():
    assert len(SHIPPED) >= 10


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_shipped_file_is_formatted_and_comes_back_from_a_mess(path):
    text = path.read_text(encoding="utf-8")
    assert format_source(text, str(path)) == text, f"run: catandsl fmt {path.relative_to(ROOT)}"
    messy = mess(text, random.Random(path.name))
    assert messy != text
    assert format_source(messy, str(path)) == text
    assert ir(messy, path) == ir(text, path)


# ---- generated files ---------------------------------------------------------------------

FAMILIES = ["numbers", "primitives", "nesting", "selftrigger", "without", "strings", "mixed", "shipped", "imports"]


@settings(max_examples=50, deadline=None, derandomize=True, database=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(family=st.sampled_from(FAMILIES), seed=st.integers(0, 10_000), layout=st.integers(0, 1000))
def test_generated_scenarios_keep_their_meaning(tmp_path_factory, family, seed, layout):
    """A generated file, laid out badly, formats to the layout of the file itself, with
    the same IR and diagnostic codes as the badly laid-out one; formatting is idempotent."""
    case = generate(family, seed)
    folder = tmp_path_factory.mktemp("case")
    main = materialize(case, folder)
    text = main.read_text(encoding="utf-8", errors="surrogateescape")
    try:
        parse(text, str(main))
    except CatanError:
        with pytest.raises(CatanError):
            format_source(text, str(main))
        return
    out = format_source(text, str(main))
    assert format_source(out, str(main)) == out
    messy = mess(text, random.Random(layout))
    assert format_source(messy, str(main)) == out
    assert ir(out, main, folder) == ir(messy, main, folder)


# ---- the command ------------------------------------------------------------------------------


def _run(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "catandsl", *args], capture_output=True, text=True, cwd=cwd,
                          env={"PYTHONPATH": str(ROOT), "PYTHONDONTWRITEBYTECODE": "1", "PATH": "/usr/bin:/bin"})


def test_the_command_checks_diffs_and_writes(tmp_path):
    (tmp_path / "a.catan").write_text(MESSY, encoding="utf-8")
    (tmp_path / "b.catan").write_text(GOLDEN, encoding="utf-8")
    check = _run("fmt", "--check", ".", cwd=tmp_path)
    assert check.returncode == 1 and "would reformat a.catan" in check.stderr and "b.catan" not in check.stderr
    diff = _run("fmt", "--diff", "a.catan", cwd=tmp_path)
    assert diff.returncode == 0 and "+  victory 12      # the target" in diff.stdout
    assert (tmp_path / "a.catan").read_text(encoding="utf-8") == MESSY  # --diff writes nothing
    write = _run("fmt", "a.catan", "b.catan", cwd=tmp_path)
    assert write.returncode == 0
    assert (tmp_path / "a.catan").read_text(encoding="utf-8") == GOLDEN
    assert _run("fmt", "--check", ".", cwd=tmp_path).returncode == 0


def test_the_command_reports_a_bad_file_and_leaves_it(tmp_path):
    bad = "ruleset r {\n  cost brick + + lumber\n}\n"
    (tmp_path / "bad.catan").write_text(bad, encoding="utf-8")
    r = _run("fmt", "bad.catan", cwd=tmp_path)
    assert r.returncode == 1 and "E0101" in r.stderr and "Traceback" not in r.stderr
    assert (tmp_path / "bad.catan").read_text(encoding="utf-8") == bad


def test_a_negative_number_in_a_phrase_stays_one_word():
    from catandsl.syntax.fmt import format_source as format_text

    text = 'scenario x "X" {\n  token curse { supply 10; points -1 }\n  map { hex (0, 0) forest 8 }\n}\n'
    assert format_text(text) == text
    subtraction = text.replace("points -1", "points 1").replace(
        "  map", "  rule r {\n    on dice_rolled { take_from_bank(player, wool, roll - 1) }\n  }\n  map")
    assert format_text(subtraction) == subtraction


def test_a_count_in_brackets_in_a_cost_is_laid_out_and_keeps_its_meaning():
    from catandsl.syntax.fmt import format_source as format_text
    from catandsl.syntax.parser import parse

    canonical = ('scenario x "X" {\n  counter level\n  piece tower {\n    on intersection\n'
                 '    cost (counter(player, level) + 1) grain + 2 ore\n  }\n  map { hex (0, 0) forest 8 }\n}\n')
    messy = canonical.replace("(counter(player, level) + 1) grain + 2 ore", "( counter(player,level)+1 )grain+2 ore")
    assert format_text(messy) == canonical
    assert format_text(canonical) == canonical
    cost = parse(canonical, "x.catan").items[0].body.stmts[1].block.stmts[1]
    assert [(a.resource.name, a.count, a.expr is not None) for a in cost.amounts] == \
        [("grain", 1, True), ("ore", 2, False)]
