"""`catandsl serve`: the web studio (catandsl/studio/), registered by `cli._app()`.
Kept apart from cli.py so that it is one registration there."""

from __future__ import annotations

import sys
from pathlib import Path


def register_studio_commands(app) -> None:
    import typer

    from catandsl import cli

    @app.command("serve")
    def serve(
        folder: Path = typer.Argument(Path("."), help="the folder whose .catan files the studio serves"),
        port: int = typer.Option(8000, "--port", min=0, max=65535, help="the port to listen on"),
        host: str = typer.Option("127.0.0.1", "--host",
                                 help="the address to listen on (loopback by default; 0.0.0.0 for every one)"),
    ):
        """Serve the web studio: the scenario list, the author view (board, diagnostics, reload
        on change), play against bots, and replays (needs the `studio` extra)."""
        if not folder.is_dir():
            cli._fail(f"{folder} is not a folder (catandsl serve FOLDER)")
        try:
            from catandsl.studio.app import serve as run
        except ImportError as e:
            print(f"catandsl: the studio needs its extra: pip install 'catandsl[studio]' ({e.name} is missing)",
                  file=sys.stderr)
            raise cli._Exit(cli.EXIT_USAGE) from None
        try:
            run(folder, host, port)
        except OSError as e:
            cli._fail(f"cannot listen on {host}:{port}: {e.strerror or e}")
        raise cli._Exit(cli.EXIT_OK)
