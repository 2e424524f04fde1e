"""editors/vscode/ hangs together: the manifest names files that exist, the grammar it
names is the one tested in test_textmate.py, and the client starts a real command."""

from __future__ import annotations

import json
import re
from pathlib import Path

from typer.main import get_command

from catandsl.cli.app import app

FOLDER = Path(__file__).resolve().parents[2] / "editors" / "vscode"
MANIFEST = json.loads((FOLDER / "package.json").read_text(encoding="utf-8"))


def test_the_manifest_names_existing_files():
    (language,) = MANIFEST["contributes"]["languages"]
    assert language["extensions"] == [".catan"]
    config = json.loads((FOLDER / language["configuration"]).read_text(encoding="utf-8"))
    assert config["comments"]["lineComment"] == "#"
    (grammar,) = MANIFEST["contributes"]["grammars"]
    tm = json.loads((FOLDER / grammar["path"]).read_text(encoding="utf-8"))
    assert grammar["scopeName"] == tm["scopeName"] and grammar["language"] == language["id"]
    assert (FOLDER / MANIFEST["main"]).is_file() and (FOLDER / "README.md").is_file()


def test_the_client_starts_catandsl_lsp():
    default = MANIFEST["contributes"]["configuration"]["properties"]["catandsl.server.command"]["default"]
    assert default == ["catandsl", "lsp"]
    assert "lsp" in get_command(app).commands
    client = (FOLDER / MANIFEST["main"]).read_text(encoding="utf-8")
    assert "catandsl.server.command" in client or '"catandsl"' in client
    assert re.search(r"\bvscode-languageclient\b", client)
    assert "vscode-languageclient" in MANIFEST["dependencies"]
