"""Output files: every problem with one (a missing folder, a folder given as the file, a
file where a folder should be, no permission, two outputs naming one file, an output that
is the scenario being read) is one plain line on stderr and exit 2, found before any work
is done; never an internal error."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

from catandsl.cli import arguments, main
from tests.conftest import ROOT

BASE = str(ROOT / "scenarios" / "base.catan")

# (command line before the output, the output's option or None for a positional-free -o)
WRITERS = [
    (["render", BASE, "-o"], "-o", "x.svg"),
    (["compile", BASE, "-o"], "-o", "x.json"),
    (["play", BASE, "--players", "3", "--log"], "--log", "g.log"),
    (["play", BASE, "--players", "3", "--svg"], "--svg", "g.svg"),
    (["play", BASE, "--players", "3", "--html"], "--html", "g.html"),
]


def one_line_usage_error(code, err, *needles):
    assert code == 2, err
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("catandsl: cannot write ") or lines[0].startswith("catandsl: "), err
    assert "internal error" not in err and "bug" not in err
    for n in needles:
        assert n in err, (n, err)


@pytest.mark.parametrize("args, option, name", WRITERS, ids=[w[1] + ":" + w[0][0] for w in WRITERS])
def test_a_missing_folder(tmp_path, capsys, args, option, name):
    target = tmp_path / "missing" / name
    code = main([*args, str(target)])
    one_line_usage_error(code, capsys.readouterr().err, f"({option})", "does not exist", str(target.parent))
    assert not target.parent.exists()


@pytest.mark.parametrize("args, option, name", WRITERS, ids=[w[1] + ":" + w[0][0] for w in WRITERS])
def test_a_folder_given_as_the_file(tmp_path, capsys, args, option, name):
    code = main([*args, str(tmp_path)])
    one_line_usage_error(code, capsys.readouterr().err, "is a folder")


@pytest.mark.parametrize("args, option, name", WRITERS, ids=[w[1] + ":" + w[0][0] for w in WRITERS])
def test_a_file_where_a_folder_should_be(tmp_path, capsys, args, option, name):
    (tmp_path / "plain").write_text("x")
    code = main([*args, str(tmp_path / "plain" / name)])
    one_line_usage_error(code, capsys.readouterr().err, "is a file, not a folder")


def test_no_permission_is_found_before_the_game(tmp_path, capsys, monkeypatch):
    played = []
    monkeypatch.setattr("catandsl.players.play_game", lambda *a, **k: played.append(1))
    real_access = os.access
    monkeypatch.setattr(arguments.os, "access",
                        lambda p, mode: False if str(p) == str(tmp_path) else real_access(p, mode))
    code = main(["play", BASE, "--log", str(tmp_path / "g.log")])
    one_line_usage_error(code, capsys.readouterr().err, "permission denied", "(--log)")
    assert played == []


def test_a_write_that_fails_anyway_is_a_usage_error(tmp_path, capsys, monkeypatch):
    def refuse(self, *a, **k):
        raise PermissionError(13, "Permission denied", str(self))

    monkeypatch.setattr(Path, "write_text", refuse)
    code = main(["compile", BASE, "-o", str(tmp_path / "x.json")])
    one_line_usage_error(code, capsys.readouterr().err, "permission denied", "(-o)")


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes through any permission bits")
def test_a_read_only_folder(tmp_path, capsys):
    ro = tmp_path / "ro"
    ro.mkdir()
    ro.chmod(0o500)
    try:
        code = main(["render", BASE, "-o", str(ro / "b.svg")])
    finally:
        ro.chmod(0o700)
    one_line_usage_error(code, capsys.readouterr().err, "permission denied")


def test_two_outputs_naming_one_file(tmp_path, capsys):
    same = str(tmp_path / "a.out")
    code = main(["play", BASE, "--svg", same, "--html", same])
    one_line_usage_error(code, capsys.readouterr().err, "--svg and --html name the same file")
    assert not Path(same).exists()


def test_an_output_that_is_the_scenario(tmp_path, capsys):
    scenario = tmp_path / "island.catan"
    scenario.write_text((ROOT / "examples" / "seven_hex_island.catan").read_text())
    before = scenario.read_text()
    code = main(["compile", str(scenario), "-o", str(scenario)])
    one_line_usage_error(code, capsys.readouterr().err, "the scenario file being read")
    assert scenario.read_text() == before


def test_render_needs_svg_or_png(tmp_path, capsys):
    code = main(["render", BASE, "-o", str(tmp_path / "b.txt")])
    one_line_usage_error(code, capsys.readouterr().err, ".svg or .png")


def test_png_without_cairosvg_is_one_line(tmp_path, capsys, monkeypatch):
    monkeypatch.setitem(sys.modules, "cairosvg", None)  # makes `import cairosvg` fail
    code = main(["render", BASE, "-o", str(tmp_path / "b.png")])
    one_line_usage_error(code, capsys.readouterr().err, "cairosvg", "catandsl[png]")
    assert not (tmp_path / "b.png").exists()


def test_through_the_real_command(tmp_path):
    """The same, as a user runs it: no traceback, no internal error, exit 2."""
    p = subprocess.run([sys.executable, "-m", "catandsl", "render", "base", "-o", "missing/x.svg"],
                       cwd=tmp_path, capture_output=True, text=True)
    assert p.returncode == 2
    assert p.stderr == "catandsl: cannot write missing/x.svg (-o): the folder missing does not exist\n"
    assert p.stdout == ""


def test_outputs_that_can_be_written_are(tmp_path):
    log, svg, html = tmp_path / "g.log", tmp_path / "g.svg", tmp_path / "g.html"
    assert main(["play", BASE, "--players", "3", "--seed", "2", "--format", "json",
                 "--log", str(log), "--svg", str(svg), "--html", str(html)]) == 0
    assert log.read_text().splitlines()[-1].startswith("winner: P")
    assert svg.read_text().lstrip().startswith("<") and "<html" in html.read_text()
    out = tmp_path / "ir.json"
    assert main(["compile", BASE, "-o", str(out)]) == 0 and out.read_text().startswith("{")
