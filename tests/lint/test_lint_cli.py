"""`catandsl lint` and `catandsl explain` from the command line: golden outputs in every
format, the SARIF checked against the SARIF 2.1.0 schema (vendored beside this file),
exit codes, `--samples` deterministic, pyproject.toml settings and ignore comments.

    python tests/lint/test_lint_cli.py --update    # rewrite tests/lint/golden/
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import jsonschema
import pytest

from catandsl.cli import main

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = ROOT / "tests" / "lint" / "golden"
SCHEMA = ROOT / "tests" / "lint" / "sarif-schema-2.1.0.json"
# an error (L0104), warnings at fixed cells, a harbor, and a shuffled map over 8 deals
FILES = ["tests/fixtures/lint/L0104_fail.catan", "tests/fixtures/lint/L0201_fail.catan",
         "tests/fixtures/lint/L0205_fail.catan", "scenarios/base.catan"]
FORMATS = {"text": "txt", "json": "json", "sarif": "sarif", "github": "github.txt"}
VERSION = "0.0.0-golden"


def lint(capsys, *args) -> tuple[int, str, str]:
    code = main(["lint", *args])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture(autouse=True)
def _in_checkout(monkeypatch):
    monkeypatch.chdir(ROOT)  # file names relative to the checkout, its pyproject.toml
    monkeypatch.setattr("catandsl.cli.lint.version", lambda: VERSION)  # goldens outlive releases


def _output(capsys, fmt: str) -> str:
    code, out, _ = lint(capsys, "--format", fmt, "--samples", "8", *FILES)
    assert code == 1  # L0104 is an error
    return out


@pytest.mark.parametrize("fmt", list(FORMATS))
def test_golden_output(capsys, fmt):
    golden = GOLDEN / f"lint.{FORMATS[fmt]}"
    assert _output(capsys, fmt) == golden.read_text(encoding="utf-8"), \
        "run: python tests/lint/test_lint_cli.py --update"


def test_sarif_is_valid_sarif_2_1_0(capsys):
    log = json.loads(_output(capsys, "sarif"))
    schema = json.loads(SCHEMA.read_text(encoding="utf-8"))
    jsonschema.Draft4Validator.check_schema(schema)
    jsonschema.Draft4Validator(schema).validate(log)
    results = log["runs"][0]["results"]
    assert {r["ruleId"] for r in results} >= {"L0104", "L0201", "L0205"}
    rules = log["runs"][0]["tool"]["driver"]["rules"]
    assert all(rules[r["ruleIndex"]]["id"] == r["ruleId"] for r in results)


def test_text_points_at_the_line_with_a_caret(capsys):
    out = _output(capsys, "text")
    assert "tests/fixtures/lint/L0201_fail.catan:7:15: warning[L0201]" in out
    assert "    7 |           w12 h6  p8  h10\n      |               ^\n" in out
    assert "on 8 of the 8 deals checked" in out or "of the 8 deals checked" in out


def test_exit_codes(capsys, tmp_path):
    assert lint(capsys, "tests/fixtures/lint/L0201_pass.catan")[0] == 0
    assert lint(capsys, "tests/fixtures/lint/L0201_fail.catan")[0] == 0  # a warning
    assert lint(capsys, "--strict", "tests/fixtures/lint/L0201_fail.catan")[0] == 1
    assert lint(capsys, "tests/fixtures/lint/L0104_fail.catan")[0] == 1
    assert lint(capsys, "tests/fixtures/bad/E0302_unknown_resource.catan")[0] == 1
    code, _, err = lint(capsys, "--format", "xml", "tests/fixtures/lint/L0201_pass.catan")
    assert code == 2 and "--format" in err
    assert lint(capsys, "--samples", "0", "scenarios/base.catan")[0] == 2
    assert main(["lint"]) == 2
    capsys.readouterr()


def test_samples_are_deterministic_for_a_seed_under_any_hash_seed():
    outs = []
    for hash_seed, samples in (("0", "12"), ("1", "12"), ("2", "12")):
        env = {**os.environ, "PYTHONHASHSEED": hash_seed}
        p = subprocess.run([sys.executable, "-m", "catandsl", "lint", "--format", "json", "--samples", samples,
                            "--seed", "5", "scenarios/base.catan"], cwd=ROOT, env=env,
                           capture_output=True, text=True)
        assert p.returncode == 0, p.stderr
        outs.append(p.stdout)
    assert outs[0] == outs[1] == outs[2]
    assert "the first with seed" in outs[0]


def test_another_seed_deals_other_maps(capsys):
    first = lint(capsys, "--format", "json", "--samples", "6", "--seed", "1", "scenarios/base.catan")[1]
    other = lint(capsys, "--format", "json", "--samples", "6", "--seed", "100", "scenarios/base.catan")[1]
    assert first != other


def test_pyproject_switches_codes_off_and_sets_limits(capsys, tmp_path, monkeypatch):
    fixture = (ROOT / "tests/fixtures/lint/L0201_fail.catan").read_text(encoding="utf-8")
    (tmp_path / "map.catan").write_text(fixture, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    assert "L0201" in lint(capsys, "--strict", "map.catan")[1]
    (tmp_path / "pyproject.toml").write_text('[tool.catandsl.lint]\nignore = ["L0201"]\n', encoding="utf-8")
    code, out, _ = lint(capsys, "--strict", "map.catan")
    assert code == 0 and "L0201" not in out
    (tmp_path / "pyproject.toml").write_text("[tool.catandsl.lint]\nstrong_intersection = 9\n", encoding="utf-8")
    assert "L0208" in lint(capsys, "map.catan")[1]


@pytest.mark.parametrize("text, says", [
    ("[tool.catandsl.lint\n", "not valid TOML"),
    ("[tool.catandsl.lint]\nignor = []\n", "no setting `ignor`"),
    ('[tool.catandsl.lint]\nignore = ["L9999"]\n', "L9999, which is no lint code"),
    ('[tool.catandsl.lint]\nignore = "L0201"\n', "list of codes"),
    ("[tool.catandsl.lint]\nsamples = 0\n", "`samples` must be a whole number from 1"),
    ('[tool.catandsl.lint]\nscarce_share = "half"\n', "`scarce_share` must be a number"),
    ("[tool.catandsl]\nlint = 3\n", "must be a table"),
])
def test_a_bad_pyproject_is_a_usage_error(capsys, tmp_path, text, says):
    bad = tmp_path / "pyproject.toml"
    bad.write_text(text, encoding="utf-8")
    code, out, err = lint(capsys, "--config", str(bad), "tests/fixtures/lint/L0201_pass.catan")
    assert code == 2 and says in err and "Traceback" not in err


def test_an_ignore_comment_on_the_line_switches_a_code_off(capsys, tmp_path):
    lines = (ROOT / "tests/fixtures/lint/L0104_fail.catan").read_text(encoding="utf-8").split("\n")
    assert lines[3] == "  map {"
    lines[3] += "  # catandsl: ignore[L0104]"
    (tmp_path / "map.catan").write_text("\n".join(lines), encoding="utf-8")
    assert lint(capsys, "--strict", str(tmp_path / "map.catan"))[0] == 0


def test_an_ignore_comment_on_a_picture_switches_a_code_off(capsys, tmp_path):
    lines = (ROOT / "tests/fixtures/lint/L0201_fail.catan").read_text(encoding="utf-8").split("\n")
    # the finding is in the picture, which holds no comments: the line closing it does
    assert lines[10].strip() == '"""'
    lines[10] += "   # catandsl: ignore[L0202, L0201]"
    (tmp_path / "map.catan").write_text("\n".join(lines), encoding="utf-8")
    code, out, _ = lint(capsys, "--strict", str(tmp_path / "map.catan"))
    assert code == 0 and "L0201" not in out
    lines[10] = lines[10].replace("L0201", "L0203")
    (tmp_path / "map.catan").write_text("\n".join(lines), encoding="utf-8")
    assert "L0201" in lint(capsys, str(tmp_path / "map.catan"))[1]


def test_explain(capsys):
    assert main(["explain", "L0201"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("## L0201: 6 and 8 side by side") and "**Fix**" in out and "## L0202" not in out
    assert main(["explain", "e0302"]) == 0
    assert capsys.readouterr().out.startswith("## E0302: unknown name")
    assert main(["explain", "L0209"]) == 2
    assert "did you mean" in capsys.readouterr().err


if __name__ == "__main__" and "--update" in sys.argv:
    import contextlib
    import io

    import catandsl.cli.lint

    os.chdir(ROOT)
    catandsl.cli.lint.version = lambda: VERSION
    for fmt, suffix in FORMATS.items():
        buffer = io.StringIO()
        with contextlib.redirect_stdout(buffer):
            main(["lint", "--format", fmt, "--samples", "8", *FILES])
        (GOLDEN / f"lint.{suffix}").write_text(buffer.getvalue(), encoding="utf-8")
    print(f"updated {GOLDEN.relative_to(ROOT)}")


def test_lint_walks_a_folder_as_fmt_does(tmp_path):
    """`lint DIR` lints every .catan file under the folder, as `fmt DIR` formats them;
    a folder with none is a usage error."""
    folder = tmp_path / "maps"
    (folder / "deeper").mkdir(parents=True)
    for name in ("base.catan", "deeper/again.catan"):
        (folder / name).write_text((ROOT / "scenarios" / "base.catan").read_text(encoding="utf-8"),
                                   encoding="utf-8")
    p = subprocess.run([sys.executable, "-m", "catandsl", "lint", "--format", "json", "--samples", "2", str(folder)],
                       capture_output=True, text=True, cwd=ROOT)
    assert p.returncode == 0, p.stderr
    files = sorted(Path(r["file"]).name for r in json.loads(p.stdout))
    assert files == ["again.catan", "base.catan"]
    (tmp_path / "none").mkdir()
    p = subprocess.run([sys.executable, "-m", "catandsl", "lint", str(tmp_path / "none")],
                       capture_output=True, text=True, cwd=ROOT)
    assert p.returncode == 2 and "no .catan file under" in p.stderr
