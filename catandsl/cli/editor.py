"""The editor commands: `fmt` (the canonical layout) and `lsp` (the language server)."""

from __future__ import annotations

import difflib
import sys
from pathlib import Path
from typing import Annotated

import typer

from catandsl.cli.common import EXIT_ERRORS, EXIT_INTERNAL, EXIT_OK, EXIT_USAGE, version
from catandsl.diagnostics import CatanError, Sources, format_all, printable

app = typer.Typer()


@app.command("fmt")
def fmt(
    files: Annotated[list[Path], typer.Argument(help=".catan files, or directories to search for them")],
    check: Annotated[bool, typer.Option("--check", help="write nothing; exit 1 if a file is not formatted")] = False,
    diff: Annotated[bool, typer.Option("--diff", help="write nothing; print what would change as a diff")] = False,
) -> None:
    """Lay .catan files out the one canonical way (comments and map pictures kept)."""
    raise typer.Exit(format_files(files, check=check, diff=diff))


@app.command("lsp")
def lsp() -> None:
    """Run the language server on stdin/stdout (for editors; needs catandsl[lsp])."""
    try:
        from catandsl.lsp.server import serve
    except ImportError:
        print("catandsl: the language server needs its extra: pip install 'catandsl[lsp]'", file=sys.stderr)
        raise typer.Exit(EXIT_USAGE) from None
    serve(version())


def catan_files(paths: list[Path]) -> list[Path]:
    """The files named, and every .catan file under the directories named, sorted."""
    out: list[Path] = []
    for p in paths:
        out.extend(sorted(p.rglob("*.catan")) if p.is_dir() else [p])
    return out


def format_files(paths: list[Path], check: bool = False, diff: bool = False) -> int:
    """Format (or with check/diff only inspect) each file; the exit code."""
    from catandsl.syntax.fmt import LayoutError, format_source

    unformatted = errors = internal = 0
    for path in catan_files(paths):
        name = str(path)
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as e:
            print(printable(f"catandsl: cannot read {name}: {e}"), file=sys.stderr)
            errors += 1
            continue
        try:
            out = format_source(text, name)
        except CatanError as e:
            sources = Sources()
            sources.add(name, text)
            print(format_all(e.diagnostics, sources), file=sys.stderr)
            errors += 1
            continue
        except LayoutError as e:
            print(printable(f"catandsl: internal error: {e}\nThis is a bug in catandsl fmt; please report it "
                            "with the file."), file=sys.stderr)
            internal += 1
            continue
        if out == text:
            continue
        unformatted += 1
        if diff:
            sys.stdout.writelines(difflib.unified_diff(
                text.splitlines(keepends=True), out.splitlines(keepends=True), name, name))
        if check:
            print(printable(f"would reformat {name}"), file=sys.stderr)
        elif not diff:
            path.write_text(out, encoding="utf-8")
            print(printable(f"reformatted {name}"), file=sys.stderr)
    if internal:
        return EXIT_INTERNAL
    if errors:
        return EXIT_ERRORS
    return EXIT_ERRORS if unformatted and check else EXIT_OK
