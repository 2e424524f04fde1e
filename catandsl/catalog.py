"""The shipped scenarios as data, for `catandsl list`: each one's name, aliases, file,
title, player counts and options (or its errors, when it does not compile).

Compiling every shipped scenario takes seconds, so the summary is kept in the per-user
cache (catandsl/cache.py) under a hash of everything it is made from: the shipped
files, the standard library they import, the grammar, and the source of the stages a
compile runs through (syntax, compiler, ir, rules, board: tests/test_layers.py keeps the
compiler from importing anything else). A change to any of them is a new key, so the
summary is compiled afresh; an unreadable or damaged cache file is compiled afresh too.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

from catandsl import cache, resources

FORMAT = 1  # bump when an entry's shape changes
_PACKAGE = Path(__file__).resolve().parent
_COMPILE_SOURCES = ("syntax", "compiler", "ir", "rules", "board", "diagnostics.py", "resources.py", "catalog.py")


def shipped_entries() -> list[dict]:
    """Every shipped scenario as data (compiled, without the trial game), from the cache
    when nothing it depends on has changed."""
    shipped = resources.shipped_scenarios()
    dir_fd = cache.open_directory()
    if dir_fd is None:
        return compile_entries(shipped)
    try:
        name = f"list-{summary_key(shipped)}.json"
        data = cache.read(dir_fd, name)
        if data is not None:
            try:
                entries = json.loads(data)
            except ValueError:
                entries = None
            if isinstance(entries, list) and all(isinstance(e, dict) for e in entries):
                return entries
        entries = compile_entries(shipped)
        cache.write(dir_fd, name, json.dumps(entries).encode())
        cache.prune(dir_fd, "list-")
        return entries
    finally:
        os.close(dir_fd)


def compile_entries(shipped: list[resources.Shipped]) -> list[dict]:
    """Every shipped scenario compiled into its entry."""
    from catandsl.compiler import compile_path

    root = resources.scenarios_dir() if shipped else None
    out = []
    for s in shipped:
        entry: dict = {"name": s.name, "aliases": list(s.aliases),
                       "file": s.path.relative_to(root).as_posix() if root else s.path.name}
        scenario, diags, _ = compile_path(s.path)
        if scenario is None:
            entry["errors"] = [d.to_json() for d in diags if d.is_error]
        else:
            entry.update({
                "scenario": scenario.name, "title": scenario.title,
                "players": {"min": scenario.players_min, "max": scenario.players_max},
                "options": [{"name": o.name, "title": o.title, "default": o.default,
                             "items": [{"name": i.name, "title": i.title, "value": i.value,
                                        "default": i.name == o.default} for i in o.items]}
                            for o in scenario.options],
            })
        out.append(entry)
    return out


def summary_key(shipped: list[resources.Shipped]) -> str:
    """A hash of every input of the summary: the shipped scenarios (names, places and
    text), every standard library file, the grammar and the compiling stages' source."""
    h = hashlib.sha256(f"catandsl-list:{FORMAT}".encode())

    def add(label: str, path: Path) -> None:
        data = path.read_bytes()
        h.update(f"\0{label}\0{len(data)}\0".encode())
        h.update(data)

    for s in shipped:
        h.update(f"\0scenario\0{s.name}\0{s.aliases}\0{s.path}".encode())
        add("text", s.path)
    for folder, pattern in ((resources.stdlib_dir(), "*.catan"), (resources.grammar_path().parent, "*.lark")):
        for path in sorted(folder.rglob(pattern)):
            add(path.relative_to(folder).as_posix(), path)
    for part in _COMPILE_SOURCES:
        top = _PACKAGE / part
        for path in sorted(top.rglob("*.py")) if top.is_dir() else [top]:
            add(path.relative_to(_PACKAGE).as_posix(), path)
    return h.hexdigest()[:32]
