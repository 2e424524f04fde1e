"""What the commands' arguments name, turned into values or one-line usage errors: a
scenario (a path or a shipped scenario's name), output files (refused before any work
when they cannot be written), `--option NAME=ITEM`, `--bots`, `--format`.

A scenario argument is a path to a .catan file or, when no such file exists, the name of
a scenario shipped with catandsl (`catandsl play base`; `catandsl list` shows them).
"""

from __future__ import annotations

import os
from enum import StrEnum
from pathlib import Path
from typing import NoReturn

import typer

from catandsl.cli.common import EXIT_ERRORS, fail, print_diagnostics


class Format(StrEnum):
    """`--format` of the commands that print text for people or JSON for programs."""

    text = "text"
    json = "json"


# ---- scenarios -------------------------------------------------------------------------------


def scenario_path(arg: str | Path) -> Path:
    """The file a scenario argument names: the path itself when it exists (or looks like
    a path: it ends in .catan or has a folder in it, so the compiler reports a missing
    file as usual), else the shipped scenario of that name. A bare name that is neither
    is a usage error, with the closest shipped names."""
    from catandsl import resources

    path = Path(arg)
    text = str(arg)
    if path.exists():
        return path
    shipped = resources.find_scenario(text)
    if shipped is not None:
        return shipped
    if text.endswith(".catan") or "/" in text or os.sep in text:
        return path
    import difflib

    canonical = {n: s.name for s in resources.shipped_scenarios() for n in (s.name, *s.aliases)}
    close = list(dict.fromkeys(canonical[m] for m in difflib.get_close_matches(text, list(canonical), n=5,
                                                                                cutoff=0.5)))[:3]
    hint = f"; did you mean {' or '.join(close)}?" if close else ""
    fail(f"no file or shipped scenario named {text!r}{hint} (`catandsl list` shows the shipped scenarios)")


def compile_or_exit(file: Path, fmt: str = "text"):
    """The compiled scenario (its warnings printed), or its diagnostics and exit 1. A
    file that checked clean and is unchanged since comes from its note
    (catandsl/verdicts.py), without the parser or the compiler; a clean check is noted
    with its scenario."""
    from catandsl import verdicts

    kept = verdicts.recall_scenario(file)
    if kept is not None:
        return kept
    from catandsl.checks import check_path

    scenario, diags, sources = check_path(file)
    if scenario is not None and not diags:
        verdicts.note(file, scenario, sources, keep_scenario=True)
    if diags:
        print_diagnostics(diags, sources, fmt)
    if scenario is None:
        raise typer.Exit(EXIT_ERRORS)
    return scenario


def board_failed(e, seed: int, fmt: str = "text") -> NoReturn:
    """A map that cannot be dealt with this seed (`check` deals a sample of seeds, so
    this is a deal it did not try): the board's error at the map's line, as `check`
    shows it, and exit 1."""
    from dataclasses import replace

    from catandsl.diagnostics import Sources

    d = e.to_diagnostic()
    d = replace(d, message=f"{d.message} (with seed {seed})")
    sources = Sources()
    try:
        sources.add(d.span.file, Path(d.span.file).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError):
        pass  # the message stands without the quoted line
    print_diagnostics([d], sources, fmt)
    raise typer.Exit(EXIT_ERRORS)


def parse_options(pairs: list[str] | None) -> dict[str, str]:
    """`--option NAME=ITEM`, repeated, as a dict."""
    out = {}
    for p in pairs or []:
        if "=" not in p:
            raise typer.BadParameter(f"{p!r}: write options as NAME=ITEM", param_hint="--option")
        k, v = p.split("=", 1)
        out[k.strip()] = v.strip()
    return out


def bot_names(bots: str) -> list[str]:
    """`--bots random,greedy,mcts:N`: the names, each a known bot."""
    from catandsl.players import BOT_NAMES, is_bot

    names = [b.strip() for b in bots.split(",") if b.strip()]
    unknown = [b for b in names if not is_bot(b)]
    if unknown or not names:
        raise typer.BadParameter(f"unknown bot {unknown[0] if unknown else '(none)'}; bots: {BOT_NAMES}",
                                 param_hint="--bots")
    return names


# ---- output files ----------------------------------------------------------------------------


def _output_problem(path: Path) -> str | None:
    """Why `path` cannot be written, or None: a missing folder, a folder given as the
    file, a file where a folder should be, no permission."""
    if not str(path) or path.name in ("", ".", ".."):
        return "that names a folder, not a file"
    if path.is_dir():
        return "it is a folder; give a file name inside it"
    parent = path.parent
    if not parent.is_dir():
        existing = next((p for p in parent.parents if p.exists()), None) if not parent.exists() else parent
        if existing is not None and existing.exists() and not existing.is_dir():
            return f"{existing} is a file, not a folder"
        return f"the folder {parent} does not exist"
    if path.exists():
        if not os.access(path, os.W_OK):
            return "permission denied"
    elif not os.access(parent, os.W_OK | os.X_OK):
        return f"permission denied: cannot create files in {parent}"
    return None


def _why(e: OSError, path: Path) -> str:
    if isinstance(e, IsADirectoryError):
        return "it is a folder; give a file name inside it"
    if isinstance(e, FileNotFoundError) and not path.parent.is_dir():
        return f"the folder {path.parent} does not exist"
    if isinstance(e, NotADirectoryError):
        return "a part of the path is a file, not a folder"
    if isinstance(e, PermissionError):
        return "permission denied"
    return e.strerror or str(e)


def check_outputs(outputs: list[tuple[Path | None, str]], inputs: tuple[Path, ...] = ()) -> None:
    """Refuse, before any work is done, output files that cannot be written, two outputs
    naming the same file, and an output that would overwrite an input."""
    seen: dict[Path, str] = {}
    for path, option in outputs:
        if path is None:
            continue
        problem = _output_problem(path)
        if problem:
            fail(f"cannot write {path} ({option}): {problem}")
        key = path.resolve()
        if key in seen:
            fail(f"{seen[key]} and {option} name the same file, {path}")
        seen[key] = option
        for source in inputs:
            if source.exists() and key == source.resolve():
                fail(f"cannot write {path} ({option}): it is the scenario file being read")


def write_output(path: Path, data: str | bytes, option: str) -> None:
    """Write one output file; any problem is a one-line usage error (exit 2)."""
    try:
        if isinstance(data, bytes):
            path.write_bytes(data)
        else:
            path.write_text(data, encoding="utf-8")
    except OSError as e:
        fail(f"cannot write {path} ({option}): {_why(e, path)}")
