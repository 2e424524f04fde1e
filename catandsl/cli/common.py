"""What every command of `catandsl` shares: the exit codes, the one-line failure, the
version, and printing (plain text pieces with colour on a terminal, diagnostics).

A command ends with `raise typer.Exit(code)` or by returning (exit 0); `fail` prints
`catandsl: MESSAGE` on stderr and exits with a code. `catandsl.cli.main` turns typer's
usage errors into exit 2 and anything unexpected into exit 70 with a request to report it.
"""

from __future__ import annotations

import os
import sys
from typing import NoReturn, Protocol, TypeGuard

import typer

from catandsl.diagnostics import printable

EXIT_OK = 0
EXIT_ERRORS = 1  # diagnostics with errors, a game that stopped
EXIT_USAGE = 2  # an unknown option, bot or scenario name, an output file that cannot be written
EXIT_INTERNAL = 70  # a bug in catandsl (sysexits' EX_SOFTWARE)
EXIT_INTERRUPTED = 130  # Ctrl-C, as a shell reports it


def fail(message: str, code: int = EXIT_USAGE) -> NoReturn:
    """One line on stderr, `catandsl: MESSAGE`, and the exit code."""
    print(printable(f"catandsl: {message}"), file=sys.stderr)
    raise typer.Exit(code)


def version() -> str:
    """The version of catandsl (a test keeps it equal to the distribution's metadata)."""
    from catandsl import __version__

    return __version__


class UsageError(Protocol):
    """What typer raises for a bad command line: it shows itself."""

    def show(self) -> None: ...


def is_usage_error(e: Exception) -> TypeGuard[UsageError]:
    # typer's errors are ClickExceptions (its own copy of click, or click itself before 0.26)
    click_error = next(c for c in typer.BadParameter.__mro__ if c.__name__ == "ClickException")
    return isinstance(e, click_error)


# ---- printing --------------------------------------------------------------------------------


def console(stderr: bool = False):
    """A rich console that prints text as it is: no markup, no emoji codes (`:100:` in a
    location, `[bold]` in a title), no highlighting. Colour comes only from `say`'s styles."""
    from rich.console import Console

    return Console(stderr=stderr, highlight=False, soft_wrap=True, markup=False, emoji=False)


def _styled(stream) -> bool:
    """Whether rich would style text on this stream: a terminal, or told to (rich's
    FORCE_COLOR and TTY_COMPATIBLE). Elsewhere it prints the text alone."""
    if os.environ.get("FORCE_COLOR") or os.environ.get("TTY_COMPATIBLE"):
        return True
    try:
        return stream.isatty()
    except (AttributeError, ValueError):  # a replaced or closed stream
        return False


def say(*parts: str | tuple[str, str], stderr: bool = False) -> None:
    """Print one line of plain text pieces and (text, style) pieces; every text as it is,
    control characters made visible. Styles show on a terminal (through rich); a pipe or
    a file gets the same text without loading rich."""
    stream = sys.stderr if stderr else sys.stdout
    texts = [printable(p[0]) if isinstance(p, tuple) else printable(p) for p in parts]
    if not _styled(stream):
        print("".join(texts).expandtabs(8), file=stream)  # rich expands tabs to 8 columns too
        return
    from rich.text import Text

    console(stderr).print(Text.assemble(*((t, p[1]) if isinstance(p, tuple) else t for t, p in zip(texts, parts))))


def print_diagnostics(diags, sources, fmt: str) -> None:
    """Diagnostics as JSON on stdout, or as text on stderr (the first line in colour)."""
    from catandsl.diagnostics import format_text, to_json

    if fmt == "json":
        print(to_json(diags))
        return
    for d in diags:
        colour = "red" if d.is_error else "yellow"
        head, _, rest = format_text(d, sources).partition("\n")
        say((head, f"bold {colour}"), stderr=True)
        if rest:
            say(rest, stderr=True)
        say(stderr=True)


def simulate_with_progress(run, file, games, **kw):
    """`run(file, games, progress=..., **kw)` (catandsl.simulate.simulate) under a
    progress bar on stderr that is gone when the games are."""
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    with Progress(TextColumn("games"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
                  console=console(stderr=True), transient=True) as bar:
        task = bar.add_task("games", total=games)
        return run(file, games, progress=lambda done: bar.update(task, completed=done), **kw)
