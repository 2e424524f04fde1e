"""`pip install catandsl` works, not just an editable checkout: build the wheel, install it
into a fresh virtual environment and, from outside the source tree, check a scenario, list
the shipped ones and play one by its name."""

import json
import os
import shutil
import subprocess
import sys
import tomllib
import venv
import zipfile

import pytest

from tests.conftest import ROOT


@pytest.mark.slow
def test_wheel_installs_and_checks_a_scenario(tmp_path):
    dist = tmp_path / "dist"
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(dist), str(ROOT)],
                   check=True, capture_output=True, text=True)
    (wheel,) = dist.glob("catandsl-*.whl")
    inside = set(zipfile.ZipFile(wheel).namelist())  # the studio's pages and scripts are package data
    assert {"catandsl/studio/pages/frame.html", "catandsl/studio/pages/play.html", "catandsl/studio/static/play.js",
            "catandsl/studio/static/studio.css"} <= inside
    env_dir = tmp_path / "venv"
    venv.EnvBuilder(with_pip=True).create(env_dir)
    py = env_dir / "bin" / "python"
    subprocess.run([str(py), "-m", "pip", "install", "-q", f"{wheel}[cli]"], check=True,
                   capture_output=True, text=True)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    shutil.copy(ROOT / "scenarios" / "base.catan", elsewhere / "island.catan")
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH",)}
    p = subprocess.run([str(env_dir / "bin" / "catandsl"), "check", "island.catan"], cwd=elsewhere,
                       capture_output=True, text=True, env=env)
    assert p.returncode == 0, p.stdout + p.stderr
    code = ("import catandsl, catandsl.resources as r; print(catandsl.__file__); print(r.grammar_path()); "
            "print(r.stdlib_dir()); print(r.scenarios_dir())")
    where = subprocess.run([str(py), "-c", code], cwd=elsewhere, capture_output=True, text=True, env=env,
                           check=True).stdout
    assert str(ROOT) not in where  # the installed copy, with its own grammar, stdlib and scenarios
    assert "site-packages" in where

    def catandsl(*args):
        p = subprocess.run([str(env_dir / "bin" / "catandsl"), *args], cwd=elsewhere, capture_output=True,
                           text=True, env=env)
        assert "Traceback" not in p.stdout + p.stderr
        return p

    p = catandsl("play", "base", "--players", "3", "--seed", "1")
    assert p.returncode == 0, p.stdout + p.stderr
    assert p.stdout.splitlines()[0].startswith("start: P") and p.stdout.splitlines()[-1].startswith("winner: ")
    p = catandsl("play", "four_islands", "--players", "3", "--seed", "1", "--format", "json",
                 "--log", "game.log", "--svg", "board.svg", "--html", "replay.html")
    assert p.returncode == 0, p.stdout + p.stderr
    assert (elsewhere / "game.log").exists() and (elsewhere / "board.svg").exists()
    p = catandsl("list", "--format", "json")
    assert p.returncode == 0, p.stderr
    listed = {e["name"] for e in json.loads(p.stdout)}
    assert listed == {f.stem for f in (ROOT / "scenarios").rglob("*.catan")}  # every shipped scenario
    shipped = {"base", "cloth_for_catan", "five_six", "four_islands", "heading_for_new_shores",
               "traders_and_barbarians"}
    assert shipped <= listed
    p = catandsl("check", "traders_and_barbarians")
    assert p.returncode == 0, p.stdout + p.stderr
    p = catandsl("render", "cloth_for_catan", "-o", "missing/board.svg")
    assert p.returncode == 2 and p.stderr.startswith("catandsl: cannot write missing/board.svg")
    # the docs of the codes ship in the wheel: explain and lint work outside the checkout
    p = catandsl("explain", "L0201")
    assert p.returncode == 0 and p.stdout.startswith("## L0201: "), p.stdout + p.stderr
    p = catandsl("explain", "E0302")
    assert p.returncode == 0 and p.stdout.startswith("## E0302: "), p.stdout + p.stderr
    p = catandsl("lint", "--samples", "4", "--format", "json", "island.catan")
    assert p.returncode == 0 and json.loads(p.stdout)[0]["ok"], p.stdout + p.stderr
    p = catandsl("serve", ".")  # the cli extra alone: the studio names its extra
    assert p.returncode == 2 and "catandsl[studio]" in p.stderr, p.stdout + p.stderr
    p = catandsl("--version")
    assert p.returncode == 0 and p.stdout == f"catandsl {catandsl_version()}\n"
    meta = subprocess.run([str(py), "-c", "from importlib import metadata as m; d = m.metadata('catandsl'); "
                           "print(d['License-Expression']); print(d.get_all('License-File'))"],
                          cwd=elsewhere, capture_output=True, text=True, env=env, check=True).stdout.splitlines()
    assert meta == ["MIT", "['LICENSE']"]


def catandsl_version() -> str:
    with open(ROOT / "pyproject.toml", "rb") as f:
        return tomllib.load(f)["project"]["version"]
