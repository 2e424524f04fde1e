"""The scenarios the studio serves: every `.catan` file under its folder and every
shipped scenario, each named by a reference that never is a raw path.

A reference is `dir:REL` (a file under the folder, REL with `/`) or `shipped:NAME` (a
shipped scenario's name, `catandsl list`). `resolve` refuses anything else: an absolute
path, `..`, a NUL byte, a name that is not a `.catan` file, and any path whose real
location (symlinks followed) lies outside the folder.

Compiling is cached per file by the size and modification time of every file it read,
so a listing or a change of player count does not compile again, and an edit on disk
(of the file or of one it imports) does.
"""

from __future__ import annotations

import os
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from catandsl.studio.errors import StudioError

MAX_FILES = 2000  # .catan files listed under the folder
MAX_REF = 1000


@dataclass(frozen=True)
class Entry:
    ref: str
    path: Path
    label: str  # what the list shows: the path under the folder, or the shipped name


def _stamp(paths) -> tuple:
    out = []
    for p in paths:
        try:
            st = os.stat(p)
            out.append((str(p), st.st_size, st.st_mtime_ns))
        except OSError:
            out.append((str(p), -1, -1))
    return tuple(out)


class Library:
    def __init__(self, root: Path):
        self.root = root.resolve()
        self._lock = threading.Lock()
        self._compiling = threading.Lock()
        self._compiled: dict[tuple[str, str], tuple[tuple, Any]] = {}  # (what, path) -> (stamp, result)

    # ---- references --------------------------------------------------------------------

    def entries(self) -> tuple[list[Entry], list[Entry]]:
        """(files under the folder, shipped scenarios not among them), each sorted."""
        from catandsl import resources

        mine: list[Entry] = []
        for dirpath, dirnames, filenames in os.walk(self.root, followlinks=False):
            dirnames[:] = sorted(d for d in dirnames if not d.startswith("."))
            for name in sorted(filenames):
                if not name.endswith(".catan") or len(mine) >= MAX_FILES:
                    continue
                path = Path(dirpath) / name
                real = path.resolve()
                if not real.is_file() or not real.is_relative_to(self.root):
                    continue  # a symlink out of the folder is not listed (nor served)
                rel = path.relative_to(self.root).as_posix()
                mine.append(Entry(f"dir:{rel}", real, rel))
        seen = {e.path for e in mine}
        shipped = [Entry(f"shipped:{s.name}", s.path.resolve(), s.name) for s in resources.shipped_scenarios()
                   if s.path.resolve() not in seen]
        return mine, shipped

    def resolve(self, ref: object) -> Entry:
        """The file a reference names, or a StudioError saying why not."""
        if not isinstance(ref, str) or not ref:
            raise StudioError("path/missing", "no scenario given (a reference like dir:NAME.catan or shipped:base)")
        if len(ref) > MAX_REF or "\x00" in ref:
            raise StudioError("path/invalid", "that is not a scenario reference")
        kind, _, name = ref.partition(":")
        if kind == "shipped":
            from catandsl import resources

            found = next((s for s in resources.shipped_scenarios() if s.name == name), None)
            if found is None:
                raise StudioError("path/unknown", f"no shipped scenario named {name!r}")
            return Entry(ref, found.path.resolve(), found.name)
        if kind != "dir":
            raise StudioError("path/invalid", f"a scenario reference starts with dir: or shipped:, not {kind!r}")
        return self._under_root(name)

    def _under_root(self, rel: str) -> Entry:
        parts = rel.replace("\\", "/").split("/")
        if not rel or rel.startswith(("/", "\\")) or (len(rel) > 1 and rel[1] == ":") or ".." in parts:
            raise StudioError("path/outside", f"{rel!r} is not a path inside the served folder")
        if not rel.endswith(".catan"):
            raise StudioError("path/not_scenario", f"{rel!r} is not a .catan file")
        real = (self.root / "/".join(parts)).resolve()
        if not real.is_relative_to(self.root):
            raise StudioError("path/outside", f"{rel!r} leads outside the served folder")
        if not real.is_file():
            raise StudioError("path/unknown", f"no file {rel!r} in the served folder")
        return Entry(f"dir:{'/'.join(parts)}", real, "/".join(parts))

    def relative(self, path: Path | str) -> str | None:
        """A file's path under the folder (as `dir:` references and the watcher name it), or None."""
        real = Path(path).resolve()
        return real.relative_to(self.root).as_posix() if real.is_relative_to(self.root) else None

    # ---- compiling ---------------------------------------------------------------------

    def _cached(self, what: str, entry: Entry, make):
        key = (what, str(entry.path))
        with self._lock:
            hit = self._compiled.get(key)
        if hit is not None and _stamp(p for p, *_ in hit[0]) == hit[0]:
            return hit[1]
        before = _stamp([entry.path])  # taken first: an edit while compiling makes the result stale
        with self._compiling:  # one compile at a time: the endpoints run in threads, the parser is shared
            result, read = make()
        stamp = before + _stamp(p for p in read if p != entry.path)
        with self._lock:
            if len(self._compiled) > 4 * MAX_FILES:
                self._compiled.clear()
            self._compiled[key] = (stamp, result)
        return result

    def compiled(self, entry: Entry):
        """(scenario or None, diagnostics, sources): the compiler alone, no trial game."""
        from catandsl.compiler import compile_path

        def make():
            scenario, diags, sources = compile_path(entry.path)
            return (scenario, diags, sources), _files_read(sources)

        return self._cached("compile", entry, make)

    def linted(self, entry: Entry):
        """`catandsl lint`'s result for the file (check's diagnostics and the map findings),
        with the lint settings of the folder's pyproject.toml."""
        from catandsl.lint import ConfigError, find_pyproject, lint_path, load_config

        def make():
            try:
                config = load_config(find_pyproject(self.root))
            except ConfigError:
                config = None  # a broken pyproject.toml: the defaults, as the language server does
            result = lint_path(entry.path, config)
            return result, _files_read(result.sources)

        return self._cached("lint", entry, make)

    def summary(self, entry: Entry) -> dict[str, Any]:
        """What the list shows of one file: title, player counts, options, or its errors."""
        scenario, diags, _ = self.compiled(entry)
        out: dict[str, Any] = {"ref": entry.ref, "label": entry.label}
        errors = [d for d in diags if d.is_error]
        if scenario is None:
            out.update(ok=False, errors=len(errors), first=errors[0].message if errors else "")
            return out
        from catandsl.checks import is_library

        out.update(ok=True, name=scenario.name, title=scenario.title, library=is_library(scenario),
                   players={"min": scenario.players_min, "max": scenario.players_max},
                   options=[{"name": o.name, "title": o.title, "default": o.default,
                             "items": [{"name": i.name, "title": i.title} for i in o.items]}
                            for o in scenario.options])
        return out


def _files_read(sources) -> list[Path]:
    out = []
    for name in sources.texts:
        p = Path(name)
        if p.exists():
            out.append(p.resolve())
    return out
