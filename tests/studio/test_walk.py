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


def test_the_watcher_watches_the_walked_folders_alone(folder):
    """The watcher of the studio watches the folders the listing walks, each alone: not
    the virtual environment, nor anything past the limits."""
    from catandsl.studio.app import Studio

    studio = Studio(folder)
    watched = {p.relative_to(folder).as_posix() for p in studio.watcher.folders()}
    assert {".", "maps"} <= watched
    assert not any(w.startswith((".venv", ".git", "env2", "node_modules", "__pycache__")) for w in watched)
    assert all(len(w.split("/")) <= library.MAX_DEPTH for w in watched)


def test_a_folder_made_while_watching_is_watched_too(tmp_path):
    """A folder made while the studio runs is walked again and watched: an edit of a
    file in it reaches the listeners. (An event loop in a thread of its own: the
    session's browser keeps one running in the main thread.)"""
    import asyncio
    import threading

    from catandsl.studio.watch import Watcher

    (tmp_path / "one.catan").write_text(ISLAND, encoding="utf-8")
    lib = Library(tmp_path)
    heard: list[list[str]] = []

    async def until_heard(q, path, name: str) -> bool:
        """Write the file till the watcher tells of it: a bound on the tries, not a speed
        (the watcher starts when it starts)."""
        for attempt in range(40):
            path.write_text(ISLAND + f"# {attempt}\n", encoding="utf-8")
            try:
                while True:
                    got = await asyncio.wait_for(q.get(), 0.5)
                    heard.append(got)
                    if name in got:
                        return True
            except TimeoutError:
                continue
        return False

    async def scenario():
        watcher = Watcher(lib.root, lib.folders)
        q = watcher.listen()
        task = asyncio.create_task(watcher.run())
        try:
            assert await until_heard(q, tmp_path / "one.catan", "one.catan")  # the watcher watches
            (tmp_path / "newer").mkdir()  # made after the walk
            await until_heard(q, tmp_path / "newer" / "two.catan", "newer/two.catan")
        finally:
            watcher.stop.set()
            await task

    thread = threading.Thread(target=lambda: asyncio.run(scenario()))
    thread.start()
    thread.join(120)
    assert any("newer/two.catan" in got for got in heard), heard
