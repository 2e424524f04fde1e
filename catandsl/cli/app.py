"""The `catandsl` Typer app: the root (`--version`, the help) and every command group,
each a module of its own with its own Typer app whose commands join the root's."""

from __future__ import annotations

from typing import Annotated

import typer

from catandsl.cli import editor, games, lint, scenarios, studio
from catandsl.cli.common import version

app = typer.Typer(
    add_completion=False,
    no_args_is_help=True,
    help="A language and runtime for Catan scenarios. A FILE argument is a path to a .catan file "
         "or the name of a shipped scenario (see `catandsl list`).",
    pretty_exceptions_enable=False,
)
for group in (scenarios, games, lint, editor, studio):
    app.add_typer(group.app)


def _show_version(value: bool) -> None:
    if value:
        print(f"catandsl {version()}")
        raise typer.Exit()


@app.callback()
def root(
    show_version: Annotated[bool, typer.Option(
        "--version", help="print the version and exit", callback=_show_version, is_eager=True)] = False,
) -> None:
    pass
