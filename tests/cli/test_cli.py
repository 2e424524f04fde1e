"""The command line: exit codes, output, no tracebacks."""

import json
import subprocess
import sys

import jsonschema

from catandsl.cli import main
from tests.conftest import ROOT


def run(*args, cwd=ROOT):
    p = subprocess.run([sys.executable, "-m", "catandsl", *args], cwd=cwd, capture_output=True, text=True)
    assert "Traceback" not in p.stdout + p.stderr
    return p


def test_check_ok_and_errors(tmp_path):
    assert run("check", "scenarios/base.catan").returncode == 0
    bad = tmp_path / "bad.catan"
    bad.write_text('scenario "x" {\n  uses base\n  victory ten\n}\n')
    p = run("check", str(bad))
    assert p.returncode == 1
    assert "bad.catan:3:" in p.stderr and "E0302" in p.stderr


def test_usage_errors_exit_2():
    assert run("check").returncode == 2
    assert run("no-such-command").returncode == 2
    assert main(["render", "scenarios/base.catan", "-o", "x.txt"]) == 2


def test_check_json_format(tmp_path):
    p = run("check", "--format", "json", "scenarios/base.catan", "nope.catan")
    data = json.loads(p.stdout)
    assert p.returncode == 1
    assert data[0]["ok"] and not data[1]["ok"]
    assert data[1]["diagnostics"][0]["code"] == "E0005"


def test_compile_json_validates_against_schema():
    compiled = json.loads(run("compile", "scenarios/base.catan", "--json").stdout)
    schema = json.loads(run("schema").stdout)
    jsonschema.validate(compiled, schema)


def test_render_svg(tmp_path):
    out = tmp_path / "board.svg"
    p = run("render", "scenarios/base.catan", "-o", str(out), "--seed", "3", "--option", "layout=random")
    assert p.returncode == 0, p.stderr
    assert out.read_text().lstrip().startswith("<")


def test_render_bad_option_is_a_usage_error(tmp_path):
    p = run("render", "scenarios/base.catan", "-o", str(tmp_path / "b.svg"), "--option", "layout=spiral")
    assert p.returncode == 2
    assert "spiral" in p.stderr


def test_play_json_summary(tmp_path):
    log, svg = tmp_path / "game.log", tmp_path / "board.svg"
    p = run("play", "scenarios/base.catan", "--players", "4", "--seed", "3", "--bots", "greedy",
            "--format", "json", "--log", str(log), "--svg", str(svg))
    assert p.returncode == 0, p.stderr
    summary = json.loads(p.stdout)
    assert set(summary) >= {"winner", "scores", "victory_target", "turns", "reason"}
    assert summary["reason"] in ("victory", "turn_limit")
    if summary["reason"] == "victory":
        assert summary["scores"][summary["winner"]] >= summary["victory_target"] == 10
    assert log.read_text().splitlines()[-1].startswith("winner:")
    assert svg.read_text().lstrip().startswith("<")


def test_play_unknown_bot_is_a_usage_error():
    assert run("play", "scenarios/base.catan", "--bots", "clever").returncode == 2


def test_unknown_format_is_a_usage_error():
    assert run("check", "--format", "yaml", "scenarios/base.catan").returncode == 2
