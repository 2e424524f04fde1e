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
