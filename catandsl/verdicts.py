"""Kept verdicts of `catandsl check`: a file that checked clean (it compiled with no
diagnostic at all and its trial games ran) is noted in the per-user cache
(catandsl/cache.py), so checking it again, unchanged, answers from the note without
loading the compiler: most of a check's time is loading the stages and compiling,
and a scenario that is not being edited gives the same verdict every time.

A note is found under a hash of the file's absolute path, its text and the code that
checks it (`code_key`: every module of the package and the grammar, by name, size and
modification time, as Python's own bytecode cache judges a source; the Python and
Lark versions). It lists every other file the check read (the standard rulesets and
imports it names) with a hash of its text; each is read and hashed again, so an edited
import is a new check. The files a scenario reads are named by its text alone (`uses`
and `import` paths, no search), so the same text and the same imports read the same
files. A file with any diagnostic, even a warning, is never noted: its check runs in
full and prints the diagnostics with their source lines.

The commands that start from a checked file (`play`, `simulate`, `compile`, `render`,
`balance`) note the compiled scenario as well, as JSON (the IR's own codec: plain
values, never a pickle), and take an unchanged file from its note without loading the
parser or the compiler (`recall_scenario`). `check` alone leaves it out: writing it
would cost every check of a file being edited, and the first command that plays the
file writes it.
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
from pathlib import Path
from typing import Any

from catandsl import cache, resources

FORMAT = 2  # bump when a note's shape changes
KEEP = 64  # notes kept (the newest); a file checked again is noted again
_PACKAGE = Path(__file__).resolve().parent
_code_key: str | None = None


def code_key() -> str:
    """A hash of the code a check runs: the package's modules and grammar (each by its
    name, size and modification time), the Python version and Lark's."""
    global _code_key
    if _code_key is None:
        h = hashlib.sha256(f"catandsl-check:{FORMAT}:{sys.version}".encode())
        for top, dirs, files in os.walk(_PACKAGE):
            dirs[:] = sorted(d for d in dirs if d != "__pycache__")
            for name in sorted(files):
                if name.endswith((".py", ".lark")):
                    st = os.stat(os.path.join(top, name))
                    h.update(f"\0{os.path.relpath(os.path.join(top, name), _PACKAGE)}\0{st.st_size}\0"
                             f"{st.st_mtime_ns}".encode())
        grammar = resources.grammar_path()  # (beside the package in a checkout, inside it in a wheel)
        st = os.stat(grammar)
        h.update(f"\0{grammar}\0{st.st_size}\0{st.st_mtime_ns}\0".encode())
        h.update(cache.lark_stamp().encode())
        _code_key = h.hexdigest()
    return _code_key


def _note_name(path: Path, text: bytes) -> str:
    h = hashlib.sha256(code_key().encode())
    h.update(f"\0{path}\0".encode())
    h.update(text)
    return f"check-{h.hexdigest()[:32]}.json"


def _digest(path: str) -> str | None:
    try:
        with open(path, "rb") as f:
            return hashlib.sha256(f.read()).hexdigest()
    except OSError:
        return None


def _recall(path: Path) -> dict[str, Any] | None:
    """The note of a clean check of this file as it is now, its other files unchanged."""
    try:
        where = path.resolve()
        text = where.read_bytes()
    except (OSError, RuntimeError):
        return None
    dir_fd = cache.open_directory()
    if dir_fd is None:
        return None
    try:
        data = cache.read(dir_fd, _note_name(where, text))
    finally:
        os.close(dir_fd)
    if data is None:
        return None
    try:
        note = json.loads(data)
        if not isinstance(note, dict) or not all(_digest(name) == digest for name, digest in note["files"]):
            return None
        return note
    except (ValueError, KeyError, TypeError):  # a damaged note: check again
        return None


def recall(path: Path) -> dict[str, Any] | None:
    """The note of a clean check of this file as it is now (`title`, `players_min`,
    `players_max`), or None: check it."""
    note = _recall(path)
    try:
        return None if note is None else {k: note[k] for k in ("title", "players_min", "players_max")}
    except KeyError:
        return None


def recall_scenario(path: Path) -> Any:
    """The compiled scenario of a clean check of this file as it is now (equal to what
    compiling it gives), or None: check it."""
    note = _recall(path)
    if note is None or "scenario" not in note:
        return None
    from catandsl.ir import IRFormatError, scenario_from_json

    try:
        return scenario_from_json(note["scenario"])
    except (IRFormatError, ValueError, KeyError, TypeError):
        return None


def note(path: Path, scenario: Any, sources: Any, *, keep_scenario: bool = False) -> None:
    """Note a clean check of `path`: its scenario (the whole of it with `keep_scenario`),
    and `sources` (the texts the check read, by name). Each file is read again: one that
    differs from what the check read (edited meanwhile, or with a byte order mark)
    leaves nothing noted."""
    try:
        where = path.resolve()
        main = str(where)
        files: list[list[str]] = []
        text = None
        for name, body in sorted(sources.texts.items()):
            full = Path(name).resolve()
            data = full.read_bytes()
            if data != body.encode("utf-8"):
                return
            if str(full) == main:
                text = data
            else:
                files.append([str(full), hashlib.sha256(data).hexdigest()])
    except (OSError, RuntimeError):
        return
    if text is None:
        return
    dir_fd = cache.open_directory()
    if dir_fd is None:
        return
    try:
        kept = {"title": scenario.title, "players_min": scenario.players_min,
                "players_max": scenario.players_max, "files": files}
        if keep_scenario:
            from catandsl.ir import scenario_to_json

            kept["scenario"] = scenario_to_json(scenario)
        cache.write(dir_fd, _note_name(where, text), json.dumps(kept).encode())
        cache.prune(dir_fd, "check-", KEEP)
    finally:
        os.close(dir_fd)
