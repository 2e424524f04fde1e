"""Shipped scenarios by name (`catandsl play base`), `catandsl list`, `--version`, and the
player count `check` prints."""

import json
import subprocess
import sys
import tomllib

import pytest

import catandsl
from catandsl import resources
from catandsl.cli import main
from catandsl.cli.arguments import scenario_path
from tests.conftest import ROOT


def run(*args, cwd=ROOT):
    p = subprocess.run([sys.executable, "-m", "catandsl", *args], cwd=cwd, capture_output=True, text=True)
    assert "Traceback" not in p.stdout + p.stderr
    return p


def test_every_scenario_file_is_shipped_under_its_name():
    files = sorted((ROOT / "scenarios").rglob("*.catan"))
    shipped = resources.shipped_scenarios()
    assert sorted(s.path.resolve() for s in shipped) == [f.resolve() for f in files]  # (a build links scenarios/)
    names = {s.name for s in shipped}
    assert {"base", "four_islands", "cloth_for_catan", "heading_for_new_shores"} <= names
    for s in shipped:
        assert resources.find_scenario(s.name) == s.path
        assert resources.find_scenario(s.name + ".catan") == s.path
        for alias in s.aliases:
            assert resources.find_scenario(alias) == s.path
    assert resources.find_scenario("seafarers/four_islands").name == "four_islands.catan"
    assert resources.find_scenario("new_shores").name == "heading_for_new_shores.catan"  # its declared name
    assert resources.find_scenario("nothing") is None and resources.find_scenario("") is None


def test_a_file_wins_over_a_shipped_name(tmp_path, monkeypatch):
    (tmp_path / "base").write_text((ROOT / "examples" / "seven_hex_island.catan").read_text())
    monkeypatch.chdir(tmp_path)
    assert scenario_path("base").resolve() == (tmp_path / "base").resolve()
    assert scenario_path("four_islands") == resources.find_scenario("four_islands")


def test_names_work_from_anywhere(tmp_path):
    p = run("check", "base", "four_islands", "new_shores", cwd=tmp_path)
    assert p.returncode == 0, p.stderr
    assert p.stdout.splitlines() == ["ok base: Catan (2-4 players)", "ok four_islands: The Four Islands (3-4 players)",
                                     "ok new_shores: Heading for New Shores (3-4 players)"]
    p = run("play", "base", "--players", "3", "--seed", "1", "--format", "json", cwd=tmp_path)
    assert p.returncode == 0, p.stderr
    assert json.loads(p.stdout)["scenario"] == "Catan"


@pytest.mark.parametrize("command", ["play", "render", "check", "compile", "simulate"])
def test_every_command_takes_a_name(tmp_path, capsys, command):
    extra = {"render": ["-o", str(tmp_path / "b.svg")], "simulate": ["--games", "1"], "play": ["--format", "json"],
             "compile": ["--summary"], "check": []}[command]
    assert main([command, "four_islands", *extra]) == 0, capsys.readouterr().err


def test_an_unknown_name_says_so_with_the_closest(capsys):
    assert main(["play", "fuor_islands"]) == 2
    err = capsys.readouterr().err
    assert err == ("catandsl: no file or shipped scenario named 'fuor_islands'; did you mean four_islands? "
                   "(`catandsl list` shows the shipped scenarios)\n")
    assert main(["check", "zzzzzz"]) == 2
    err = capsys.readouterr().err
    assert "no file or shipped scenario named 'zzzzzz'" in err and "did you mean" not in err


def test_a_missing_path_is_still_a_diagnostic():
    p = run("check", "nope.catan")
    assert p.returncode == 1 and "E0005" in p.stderr


def test_list_text():
    p = run("list")
    assert p.returncode == 0, p.stderr
    out = p.stdout
    assert "base: Catan, 2-4 players" in out
    assert "five_six: Catan for 5-6 players, 5-6 players" in out
    assert "four_islands: The Four Islands, 3-4 players" in out
    assert "--option layout=ITEM (Board layout): beginner*, random" in out
    assert "new_shores" in out  # the declared name, an alias


def test_list_json_covers_every_shipped_scenario():
    p = run("list", "--format", "json")
    assert p.returncode == 0, p.stderr
    data = json.loads(p.stdout)
    assert [e["name"] for e in data] == [s.name for s in resources.shipped_scenarios()]
    base = next(e for e in data if e["name"] == "base")
    assert base["title"] == "Catan" and base["players"] == {"min": 2, "max": 4} and base["file"] == "base.catan"
    layout = next(o for o in base["options"] if o["name"] == "layout")
    assert layout["default"] == "beginner"
    assert [(i["name"], i["default"]) for i in layout["items"]] == [("beginner", True), ("random", False)]
    for e in data:
        assert sum(i["default"] for o in e["options"] for i in o["items"]) == len(e["options"])


def test_version():
    with open(ROOT / "pyproject.toml", "rb") as f:
        declared = tomllib.load(f)["project"]["version"]
    assert catandsl.__version__ == declared  # the fallback never disagrees with the metadata
    p = run("--version")
    assert p.returncode == 0 and p.stdout == f"catandsl {declared}\n"


def test_version_without_metadata(monkeypatch, capsys):
    from importlib import metadata

    def missing(name):
        raise metadata.PackageNotFoundError(name)

    monkeypatch.setattr(metadata, "version", missing)
    assert main(["--version"]) == 0
    assert capsys.readouterr().out == f"catandsl {catandsl.__version__}\n"


def test_check_names_one_player_count(tmp_path):
    text = (ROOT / "examples" / "seven_hex_island.catan").read_text().replace("players 2..3", "players 2")
    two = tmp_path / "two.catan"
    two.write_text(text)
    p = run("check", str(two))
    assert p.returncode == 0, p.stderr
    assert p.stdout.strip().endswith("Seven-Hex Island (2 players)")
    p = run("check", str(ROOT / "examples" / "seven_hex_island.catan"))
    assert p.stdout.strip().endswith("Seven-Hex Island (2-3 players)")
