"""The scenarios the studio serves: every `.catan` file under its folder and every
shipped scenario, each named by a reference that never is a raw path.

A reference is `dir:REL` (a file under the folder, REL with `/`) or `shipped:NAME` (a
shipped scenario's name, `catandsl list`). `resolve` refuses anything else: an absolute
path, `..`, a NUL byte, a name that is not a `.catan` file, and any path whose real
location (symlinks followed) lies outside the folder.

Compiling is cached per file by the size and modification time of every file it read,
so a listing or a change of player count does not compile again, and an edit on disk
(of the file or of one it imports) does. A compile runs in a worker process
(workers.py), in the folder of the files it reads: paths in diagnostics are relative to
the served folder (`shipped` files to catandsl's own), and `public` takes any absolute
path of the server's out of what the studio answers. Two requests for the same
compile wait for one. A file that costs more than the workers' bound is a
`scenario/too_costly` error, kept like a result until the file changes.

The walk of the folder skips hidden folders (`.venv`, `.git` ...), folders that are
virtual environments by any name (they hold `pyvenv.cfg`) and the usual caches
(`SKIPPED`), goes at most `MAX_DEPTH` folders down and through at most `MAX_FOLDERS`
folders, and lists at most `MAX_FILES` files: served from a home folder, it stays
quick. A file that cannot be read (a link to nothing, a link that loops) is listed
with its problem in its row.

A listing never waits for a compile: a file not compiled yet is listed `pending`, and
compiled in the background, one file at a time, as a client of its own whose jobs go
after every request's (workers.py).
"""

from __future__ import annotations

import logging
import os
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from catandsl.studio.clients import BACKGROUND, current_client
from catandsl.studio.errors import StudioError

log = logging.getLogger("catandsl.studio")

MAX_FILES = 2000  # .catan files listed under the folder
MAX_DEPTH = 8  # folders walked below the served one
MAX_FOLDERS = 5000  # folders walked in all
SKIPPED = frozenset({"node_modules", "__pycache__", "site-packages", "venv"})  # never hold a scenario
MAX_REF = 1000
SHOWN_SHIPPED = "<catandsl>/"  # what stands for catandsl's own folder in what the studio answers


@dataclass(frozen=True)
class Entry:
    """A scenario the studio lists: its reference, its file and its label."""

    ref: str
    path: Path
    label: str  # what the list shows: the path under the folder, or the shipped name
    problem: str = ""  # why the file cannot be read (its row says so), else ""


def _stamp(paths) -> tuple:
    out = []
    for p in paths:
        try:
            st = os.stat(p)
            out.append((str(p), st.st_size, st.st_mtime_ns))
        except OSError:
            out.append((str(p), -1, -1))
    return tuple(out)


def _walked(folder: Path) -> bool:
    """Whether the listing walks into a folder: not a hidden one, a cache, or a
    virtual environment."""
    name = folder.name
    return not name.startswith(".") and name not in SKIPPED and not (folder / "pyvenv.cfg").exists()


def _data_root() -> Path:
    """catandsl's own folder of stdlib/ and scenarios/."""
    from catandsl import resources

    return resources.stdlib_dir().parent.resolve()


class Library:
    """The served folder's scenarios and the shipped ones, and their compiles."""

    def __init__(self, root: Path):
        self.root = root.resolve()
        self._lock = threading.Lock()
        self._compiled: dict[tuple[str, str], tuple[tuple, Any]] = {}  # (what, path) -> (stamp, result)
        self._flights: dict[tuple[str, str], threading.Event] = {}  # compiles under way
        self._queued: dict[Path, Entry] = {}  # files the listing waits for, in order
        self._background: threading.Thread | None = None
        self.compiles = 0  # jobs run for this library (the tests count them)
        self._paths = [(f"{self.root}{os.sep}", ""), (f"{_data_root()}{os.sep}", SHOWN_SHIPPED)]

    # ---- references --------------------------------------------------------------------

    def entries(self) -> tuple[list[Entry], list[Entry]]:
        """(files under the folder, shipped scenarios not among them), each sorted."""
        from catandsl import resources

        mine: list[Entry] = []
        for here, filenames in self._walk():
            for name in filenames:
                if not name.endswith(".catan") or len(mine) >= MAX_FILES:
                    continue
                entry = self._file_entry(here / name)
                if entry is not None:
                    mine.append(entry)
            if len(mine) >= MAX_FILES:
                break
        seen = {e.path for e in mine}
        shipped = [Entry(f"shipped:{s.name}", s.path.resolve(), s.name) for s in resources.shipped_scenarios()
                   if s.path.resolve() not in seen]
        return mine, shipped

    def _walk(self):
        """(folder, its file names sorted) for each folder the listing walks, the served
        one first: no hidden folder, environment or cache, at most MAX_DEPTH down and
        MAX_FOLDERS in all."""
        folders = 0
        for dirpath, dirnames, filenames in os.walk(self.root, followlinks=False):
            folders += 1
            here = Path(dirpath)
            deep = len(here.relative_to(self.root).parts) >= MAX_DEPTH
            dirnames[:] = [] if deep or folders >= MAX_FOLDERS else sorted(
                d for d in dirnames if _walked(here / d))
            yield here, sorted(filenames)

    def folders(self) -> list[Path]:
        """The folders the listing walks (the watcher watches these alone)."""
        return [here for here, _ in self._walk()]

    def _file_entry(self, path: Path) -> Entry | None:
        """A listed file's entry, one with its problem when it cannot be read, or None for
        a link out of the folder (not listed, nor served)."""
        rel = path.relative_to(self.root).as_posix()
        problem = ""
        try:
            real = path.resolve(strict=True)
        except RuntimeError:  # a loop of links
            return Entry(f"dir:{rel}", path, rel, "a symbolic link that loops: it leads to no file")
        except OSError:
            return Entry(f"dir:{rel}", path, rel, "a symbolic link to a file that does not exist")
        if not real.is_relative_to(self.root):
            return None
        if not real.is_file():
            problem = "not a file"
        elif not os.access(real, os.R_OK):
            problem = "the file cannot be read (permissions)"
        return Entry(f"dir:{rel}", real, rel, problem)

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
        try:
            real = (self.root / "/".join(parts)).resolve()
        except (RuntimeError, OSError):  # a loop of links
            raise StudioError("path/unreadable", f"{rel!r} is a symbolic link that loops") from None
        if not real.is_relative_to(self.root):
            raise StudioError("path/outside", f"{rel!r} leads outside the served folder")
        if not real.is_file():
            raise StudioError("path/unknown", f"no file {rel!r} in the served folder")
        return Entry(f"dir:{'/'.join(parts)}", real, "/".join(parts))

    def relative(self, path: Path | str) -> str | None:
        """A file's path under the folder (as `dir:` references and the watcher name it), or
        None. A relative path is one a compile named, relative to the folder."""
        real = (self.root / path).resolve()
        return real.relative_to(self.root).as_posix() if real.is_relative_to(self.root) else None

    def public(self, value: Any) -> Any:
        """`value` (JSON) with the server's absolute paths taken out of every string: a
        file under the folder by its path there, catandsl's own files under `<catandsl>/`."""
        if isinstance(value, str):
            if os.sep in value:
                for prefix, shown in self._paths:
                    value = value.replace(prefix, shown)
            return value
        if isinstance(value, dict):
            return {k: self.public(v) for k, v in value.items()}
        if isinstance(value, list):
            return [self.public(v) for v in value]
        return value

    # ---- compiling ---------------------------------------------------------------------

    def _folder_of(self, entry: Entry) -> Path:
        """Where a compile of the entry runs: the served folder, or catandsl's own."""
        return self.root if entry.ref.startswith("dir:") else _data_root()

    def _hit(self, key: tuple[str, str]):
        with self._lock:
            hit = self._compiled.get(key)
        if hit is not None and _stamp(p for p, *_ in hit[0]) == hit[0]:
            return hit
        return None

    def is_cached(self, what: str, entry: Entry) -> bool:
        return self._hit((what, str(entry.path))) is not None

    def _cached(self, what: str, entry: Entry):
        """The job's result for the entry, compiled when the cache has none that is
        current; a compile already under way is waited for, not repeated."""
        from catandsl.studio.workers import TooCostly, pool

        key = (what, str(entry.path))
        while True:
            hit = self._hit(key)
            if hit is not None:
                result = hit[1]
                if isinstance(result, StudioError):
                    raise StudioError(result.code, result.message)
                return result
            with self._lock:
                other = self._flights.get(key)
                if other is None:
                    flight = self._flights[key] = threading.Event()
            if other is None:
                break
            other.wait()
        try:
            before = _stamp([entry.path])  # taken first: an edit while compiling makes the result stale
            folder = self._folder_of(entry)
            with self._lock:
                self.compiles += 1
            try:
                result, read = pool().run(what, folder, str(entry.path.relative_to(folder)), str(self.root))
            except TooCostly:
                from catandsl.studio.workers import CPU_SECONDS

                result, read = StudioError("scenario/too_costly", f"checking {entry.label} takes more than "
                                           f"{CPU_SECONDS:g} s of CPU time: the studio gave up on it"), []
            stamp = before + _stamp(p for p in read if p != entry.path)
            with self._lock:
                if len(self._compiled) > 4 * MAX_FILES:
                    self._compiled.clear()
                self._compiled[key] = (stamp, result)
        finally:
            with self._lock:
                del self._flights[key]
            flight.set()
        if isinstance(result, StudioError):
            raise StudioError(result.code, result.message)
        return result

    def compiled(self, entry: Entry):
        """(scenario or None, diagnostics, sources): the compiler alone, no trial game."""
        return self._cached("compile", entry)

    def linted(self, entry: Entry):
        """`catandsl lint`'s result for the file (check's diagnostics and the map findings),
        with the lint settings of the folder's pyproject.toml."""
        return self._cached("lint", entry)

    def listed(self, entry: Entry) -> dict[str, Any]:
        """The summary of a file compiled already; else `pending`, its compile queued for
        the background (the page asks again). A file that cannot be read, or whose
        compile fails, is a row with its problem: never an error for the whole list."""
        if entry.problem:
            return {"ref": entry.ref, "label": entry.label, "ok": False, "errors": 0, "first": entry.problem,
                    "problem": "path/unreadable"}
        if self.is_cached("compile", entry):
            try:
                return self.summary(entry)
            except StudioError as e:
                return {"ref": entry.ref, "label": entry.label, "ok": False, "errors": 0, "first": e.message,
                        "problem": e.code}
        with self._lock:
            self._queued.setdefault(entry.path, entry)
            if self._background is None:
                self._background = threading.Thread(target=self._compile_queued, name="catandsl-listing",
                                                    daemon=True)
                self._background.start()
        return {"ref": entry.ref, "label": entry.label, "ok": False, "pending": True}

    def close(self) -> None:
        """Forget the compiles queued for the listing (the one under way ends by itself)."""
        with self._lock:
            self._queued.clear()

    def _compile_queued(self) -> None:
        current_client.set(BACKGROUND)  # this thread's own context: its jobs go after every request's
        while True:
            with self._lock:
                if not self._queued:
                    self._background = None
                    return
                entry = next(iter(self._queued.values()))
            try:
                self.summary(entry)
            except Exception:  # noqa: BLE001 - a bug: logged; the listing shows the file's error when asked
                log.exception("compiling %s for the listing failed", entry.label)
            finally:
                with self._lock:
                    self._queued.pop(entry.path, None)

    def summary(self, entry: Entry) -> dict[str, Any]:
        """What the list shows of one file: title, player counts, options, or its errors."""
        out: dict[str, Any] = {"ref": entry.ref, "label": entry.label}
        try:
            scenario, diags, _ = self.compiled(entry)
        except StudioError as e:
            if e.code != "scenario/too_costly":
                raise
            out.update(ok=False, errors=0, first=e.message, problem=e.code)
            return out
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
