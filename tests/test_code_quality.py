"""The package passes its own type and lint checks (settings in pyproject.toml), so the
README's test command, which CI runs, checks them too."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", *args], cwd=ROOT, capture_output=True, text=True)


def test_ruff_finds_nothing():
    p = _run("ruff", "check", "catandsl")
    assert p.returncode == 0, p.stdout + p.stderr


def test_mypy_finds_nothing():
    p = _run("mypy")
    assert p.returncode == 0, p.stdout + p.stderr
