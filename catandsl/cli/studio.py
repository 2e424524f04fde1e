"""`catandsl serve`: the web studio (catandsl/studio/, the `studio` extra)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer

from catandsl.cli.common import EXIT_USAGE, fail

app = typer.Typer()


@app.command("serve")
def serve(
    folder: Annotated[Path, typer.Argument(help="the folder whose .catan files the studio serves")] = Path("."),
    port: Annotated[int, typer.Option("--port", min=0, max=65535, help="the port to listen on")] = 8000,
    host: Annotated[str, typer.Option(
        "--host", help="the address to listen on (loopback by default; 0.0.0.0 for every one)")] = "127.0.0.1",
) -> None:
    """Serve the web studio: the scenario list, the author view (board, diagnostics, reload
    on change), play against bots, and replays (needs the `studio` extra)."""
    if not folder.is_dir():
        fail(f"{folder} is not a folder (catandsl serve FOLDER)")
    try:
        from catandsl.studio.app import serve as run
    except ImportError as e:
        print(f"catandsl: the studio needs its extra: pip install 'catandsl[studio]' ({e.name} is missing)",
              file=sys.stderr)
        raise typer.Exit(EXIT_USAGE) from None
    try:
        run(folder, host, port)
    except KeyboardInterrupt:
        return  # Ctrl+C is how a studio stops: exit 0 (uvicorn raises it again once it has shut down)
    except OSError as e:
        fail(f"cannot listen on {host}:{port}: {e.strerror or e}")
