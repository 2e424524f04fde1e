"""Where the grammar and the standard library live, in a checkout or an installed wheel.

The wheel carries `grammars/` and `stdlib/` inside the package (hatchling force-include);
a source checkout has them at the top level beside `catandsl/`.
"""

from __future__ import annotations

from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent


def _find(name: str) -> Path:
    for candidate in (_PACKAGE / name, _PACKAGE.parent / name):
        if candidate.is_dir():
            return candidate
    raise FileNotFoundError(f"catandsl installation is missing its {name}/ directory")


def grammar_path() -> Path:
    return _find("grammars") / "catan.lark"


def stdlib_dir() -> Path:
    return _find("stdlib")
