import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


@pytest.fixture
def root() -> Path:
    return ROOT


def compile_text(tmp_path: Path, text: str, name: str = "s.catan"):
    """Write a scenario to a temp file and compile it: (scenario, diagnostics)."""
    from catandsl.compiler import compile_path

    p = tmp_path / name
    p.write_text(text, encoding="utf-8")
    scenario, diags, _ = compile_path(p)
    return scenario, diags


def game_of(tmp_path_factory, text: str, players: int = 3, seed: int = 1, options: dict | None = None):
    """A game of a scenario written in a test: the text compiled from a temp file (all
    stages, check's trial game included) and started for `players` with `seed`."""
    import catandsl

    path = tmp_path_factory.mktemp("scenario") / "scenario.catan"
    path.write_text(text, encoding="utf-8")
    return catandsl.new_game(catandsl.load(path), players, options or {}, seed)
