"""Where the grammar, the standard library and the shipped scenarios live, in a checkout
or an installed wheel.

The wheel carries `grammars/`, `stdlib/`, `scenarios/` and the docs of the codes inside the package (hatchling
force-include); a source checkout has them at the top level beside `catandsl/`.

A shipped scenario is known by its name: the file's path under `scenarios/` without
`.catan` (`base`, `seafarers/NAME`), or its file name alone when no other shipped file
has the same one (`NAME`), or the name its `scenario` line declares when that differs.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent
_DECLARED = re.compile(r"^[ \t]*scenario[ \t]+([A-Za-z_][A-Za-z0-9_]*)[ \t]+\"", re.M)


def _find(name: str) -> Path:
    for candidate in (_PACKAGE / name, _PACKAGE.parent / name):
        if candidate.is_dir():
            return candidate
    raise FileNotFoundError(f"catandsl installation is missing its {name}/ directory")


def grammar_path() -> Path:
    return _find("grammars") / "catan.lark"


def stdlib_dir() -> Path:
    return _find("stdlib")


def scenarios_dir() -> Path:
    return _find("scenarios")


def docs_dir() -> Path:
    """The documentation `catandsl explain` prints from (diagnostics.md, lint.md)."""
    return _find("docs")


@dataclass(frozen=True)
class Shipped:
    """One scenario shipped with catandsl: `name` is what `catandsl list` shows and the
    commands take; `aliases` are the other names that find it."""

    name: str
    path: Path
    aliases: tuple[str, ...] = ()


def shipped_scenarios() -> list[Shipped]:
    """Every shipped scenario, sorted by name (none if the directory is missing)."""
    try:
        root = scenarios_dir()
    except FileNotFoundError:
        return []
    files = sorted(p for p in root.rglob("*.catan") if p.is_file())
    stems: dict[str, int] = {}
    for p in files:
        stems[p.stem] = stems.get(p.stem, 0) + 1
    out = []
    for p in files:
        rel = p.relative_to(root).with_suffix("").as_posix()
        name = p.stem if stems[p.stem] == 1 else rel
        aliases = [a for a in (rel, _declared(p)) if a and a != name]
        out.append(Shipped(name, p, tuple(dict.fromkeys(aliases))))
    return sorted(out, key=lambda s: s.name)


def _declared(path: Path) -> str | None:
    try:
        m = _DECLARED.search(path.read_text(encoding="utf-8", errors="replace"))
    except OSError:
        return None
    return m.group(1) if m else None


def find_scenario(name: str) -> Path | None:
    """The shipped scenario called `name` (with or without `.catan`), or None. A name
    that two scenarios answer to (an alias of one, the name of another) finds the one
    whose own name it is."""
    key = name.removesuffix(".catan").replace("\\", "/").strip("/")
    if not key:
        return None
    shipped = shipped_scenarios()
    for s in shipped:
        if s.name == key:
            return s.path
    found = [s for s in shipped if key in s.aliases]
    return found[0].path if len(found) == 1 else None


def scenario_names() -> list[str]:
    """Every name a shipped scenario answers to (for "did you mean")."""
    return [n for s in shipped_scenarios() for n in (s.name, *s.aliases)]
