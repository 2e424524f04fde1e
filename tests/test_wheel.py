"""`pip install catandsl` works, not just an editable checkout: build the wheel, install it
into a fresh virtual environment and check a scenario from outside the source tree."""

import os
import shutil
import subprocess
import sys
import venv

import pytest

from tests.conftest import ROOT


@pytest.mark.slow
def test_wheel_installs_and_checks_a_scenario(tmp_path):
    dist = tmp_path / "dist"
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(dist), str(ROOT)],
                   check=True, capture_output=True, text=True)
    (wheel,) = dist.glob("catandsl-*.whl")
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
    where = subprocess.run([str(py), "-c", "import catandsl, catandsl.resources as r; print(catandsl.__file__); print(r.grammar_path()); print(r.stdlib_dir())"],
                           cwd=elsewhere, capture_output=True, text=True, env=env, check=True).stdout
    assert str(ROOT) not in where  # the installed copy, with its own grammar and stdlib
    assert "site-packages" in where
