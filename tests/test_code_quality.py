"""The package passes its own type and lint checks (settings in pyproject.toml), so the
README's test command, which CI runs, checks them too."""

from __future__ import annotations

import ast
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


def _test_sources() -> list[tuple[str, ast.Module]]:
    return [(str(p.relative_to(ROOT)), ast.parse(p.read_text(encoding="utf-8")))
            for p in sorted((ROOT / "tests").rglob("*.py"))]


def _private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


def test_no_test_reads_a_private_name_of_the_package():
    """A test goes through the package's public names: what it needs of a module is its
    API (made public where a test needs it), not a helper that may change freely."""
    found = []
    for path, tree in _test_sources():
        bound: set[str] = set()  # names bound to something of catandsl
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("catandsl"):
                for alias in node.names:
                    if _private(alias.name):
                        found.append(f"{path}:{node.lineno}: from {node.module} import {alias.name}")
                    bound.add(alias.asname or alias.name)
            elif isinstance(node, ast.Import):
                bound.update(a.asname or a.name.split(".")[0] for a in node.names if a.name.startswith("catandsl"))
        for node in ast.walk(tree):
            if (isinstance(node, ast.Attribute) and _private(node.attr) and isinstance(node.value, ast.Name)
                    and node.value.id in bound):
                found.append(f"{path}:{node.lineno}: {node.value.id}.{node.attr}")
    assert not found, "\n".join(found)


def test_no_test_imports_another_test_module():
    """Helpers shared by tests live in tests/conftest.py or a helper module (not named
    test_*), so a test module is never loaded twice or run through another's imports."""
    found = []
    for path, tree in _test_sources():
        for node in ast.walk(tree):
            names = ([node.module or ""] if isinstance(node, ast.ImportFrom)
                     else [a.name for a in node.names] if isinstance(node, ast.Import) else [])
            for name in names:
                if name.startswith("tests") and name.rsplit(".", 1)[-1].startswith("test_"):
                    found.append(f"{path}:{node.lineno}: {name}")
    assert not found, "\n".join(found)
