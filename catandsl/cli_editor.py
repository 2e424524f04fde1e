"""The editor commands of `catandsl`: `fmt` (the canonical layout) and `lsp` (the
language server). Kept apart from cli.py so that each is one registration there."""

from __future__ import annotations

import difflib
import sys
from pathlib import Path

from catandsl.diagnostics import CatanError, Sources, format_all, printable


def register_editor_commands(app) -> None:
    import typer

    from catandsl import cli

    @app.command("fmt")
    def fmt(
        files: list[Path] = typer.Argument(..., help=".catan files, or directories to search for them"),
        check: bool = typer.Option(False, "--check", help="write nothing; exit 1 if a file is not formatted"),
        diff: bool = typer.Option(False, "--diff", help="write nothing; print what would change as a diff"),
    ):
        """Lay .catan files out the one canonical way (comments and map pictures kept)."""
        raise cli._Exit(format_files(files, check=check, diff=diff))

    @app.command("lsp")
    def lsp():
        """Run the language server on stdin/stdout (for editors; needs catandsl[lsp])."""
        try:
            from catandsl.lsp.server import serve
        except ImportError:
            print("catandsl: the language server needs its extra: pip install 'catandsl[lsp]'", file=sys.stderr)
            raise cli._Exit(cli.EXIT_USAGE) from None
        serve(cli.version())
        raise cli._Exit(cli.EXIT_OK)


def catan_files(paths: list[Path]) -> list[Path]:
    """The files named, and every .catan file under the directories named, sorted."""
    out: list[Path] = []
    for p in paths:
        out.extend(sorted(p.rglob("*.catan")) if p.is_dir() else [p])
    return out


def format_files(paths: list[Path], check: bool = False, diff: bool = False) -> int:
    """Format (or with check/diff only inspect) each file; the exit code."""
    from catandsl import cli
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
        return cli.EXIT_INTERNAL
    if errors:
        return cli.EXIT_ERRORS
    return cli.EXIT_ERRORS if unformatted and check else cli.EXIT_OK
