"""The folder the studio serves, walked as `catandsl serve` run in a project's folder
needs: no hidden folder (`.venv`, `.git`), no virtual environment by any name, no
caches, nothing past the depth and count limits; a file that cannot be read is a row
with its problem, never an error for the whole list."""

from __future__ import annotations

import os

import pytest
from starlette.testclient import TestClient

from catandsl.studio import library
from catandsl.studio.app import create_app
from catandsl.studio.library import Library
from tests.studio.helpers import ROOT

ISLAND = (ROOT / "examples" / "seven_hex_island.catan").read_text(encoding="utf-8")


@pytest.fixture
def folder(tmp_path):
    root = tmp_path / "project"
    for rel in ("island.catan", "maps/duel.catan", ".venv/lib/hidden.catan", ".git/x.catan",
                "env2/lib/site.catan", "node_modules/pkg/n.catan", "__pycache__/c.catan"):
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(ISLAND, encoding="utf-8")
    (root / "env2" / "pyvenv.cfg").write_text("home = /usr/bin\n", encoding="utf-8")  # a venv by another name
    deep = root.joinpath(*[f"d{k}" for k in range(library.MAX_DEPTH + 2)])
    deep.mkdir(parents=True)
    (deep / "too_deep.catan").write_text(ISLAND, encoding="utf-8")
    (root / "gone.catan").symlink_to(root / "nowhere.catan")
    (root / "loop_a.catan").symlink_to(root / "loop_b.catan")
    (root / "loop_b.catan").symlink_to(root / "loop_a.catan")
    return root


def test_the_walk_skips_hidden_folders_environments_and_caches(folder):
    mine, _ = Library(folder).entries()
    labels = {e.label for e in mine}
    assert {"island.catan", "maps/duel.catan", "gone.catan", "loop_a.catan", "loop_b.catan"} == labels


def test_the_walk_stops_at_its_limits(folder, monkeypatch):
    monkeypatch.setattr(library, "MAX_FILES", 2)
    assert len(Library(folder).entries()[0]) == 2
    monkeypatch.setattr(library, "MAX_FILES", 2000)
    monkeypatch.setattr(library, "MAX_FOLDERS", 1)  # the served folder alone
    assert all("/" not in e.label for e in Library(folder).entries()[0])
    monkeypatch.setattr(library, "MAX_FOLDERS", 5000)
    monkeypatch.setattr(library, "MAX_DEPTH", 1)
    assert {e.label for e in Library(folder).entries()[0] if "/" in e.label} == {"maps/duel.catan"}


def test_a_broken_or_looping_link_is_a_row_with_its_problem(folder):
    with TestClient(create_app(folder, watch=False), base_url="http://127.0.0.1:8000",
                    raise_server_exceptions=False) as client:
        r = client.get("/api/scenarios")
        assert r.status_code == 200
        rows = {f["label"]: f for f in r.json()["files"]}
        assert rows["gone.catan"]["problem"] == "path/unreadable" and not rows["gone.catan"]["ok"]
        assert "does not exist" in rows["gone.catan"]["first"]
        assert "loops" in rows["loop_a.catan"]["first"]
        r = client.get("/api/author", params={"ref": "dir:loop_a.catan"})
        assert 400 <= r.status_code < 500 and r.json()["error"]["code"].startswith("path/")
        r = client.post("/api/games", json={"ref": "dir:gone.catan"})
        assert 400 <= r.status_code < 500


def test_serving_a_project_folder_lists_its_scenarios_not_its_environment(tmp_path, monkeypatch):
    """A project with a virtual environment full of files: the walk visits the project's
    folders alone (counted, not timed)."""
    venv = tmp_path / ".venv"
    for k in range(50):
        (venv / f"pkg{k}").mkdir(parents=True)
    (tmp_path / "mine.catan").write_text(ISLAND, encoding="utf-8")
    visited = []
    real_walk = os.walk

    def counting(top, *a, **kw):
        for step in real_walk(top, *a, **kw):
            visited.append(step[0])
            yield step

    monkeypatch.setattr(os, "walk", counting)
    mine, _ = Library(tmp_path).entries()
    assert [e.label for e in mine] == ["mine.catan"] and len(visited) == 1
