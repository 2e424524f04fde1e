"""The user-facing documents point only at files that exist, and the README lists every
command the CLI has."""

import re

import pytest

from catandsl.cli.app import app
from tests.conftest import ROOT

DOCS = [ROOT / "README.md", ROOT / "docs" / "api.md", ROOT / "docs" / "architecture.md"]


@pytest.mark.parametrize("doc", DOCS, ids=lambda p: p.name)
def test_every_document_named_exists(doc):
    text = doc.read_text(encoding="utf-8")
    named = set(re.findall(r"\b([A-Za-z0-9_./-]+\.md)\b", text))
    named |= {m for m in re.findall(r"\]\(([^)#]+)\)", text) if "://" not in m}
    for name in sorted(named):
        candidates = [doc.parent / name, ROOT / name, ROOT / "docs" / name]
        assert any(c.exists() for c in candidates), f"{doc.name} points to {name}, which is not in the repository"


def test_the_readme_lists_every_command():
    from typer.main import get_command

    commands = set(get_command(app).commands)
    assert {"check", "compile", "schema", "render", "play", "simulate", "list"} <= commands
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    for command in sorted(commands):
        assert f"`catandsl {command}" in readme, command
    assert "`catandsl --version`" in readme
