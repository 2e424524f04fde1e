"""What the studio's tests share: the folder served (a copy of a few example files),
the studio running on a free loopback port in a thread of the test process, and how
Chromium is started. (A module of its own: every test folder's conftest is named
`conftest`, so tests import these as tests.studio.helpers.)"""

from __future__ import annotations

import re
import shutil
import threading
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
HERE = Path(__file__).resolve().parent
ARTIFACTS = HERE / "artifacts"  # screenshots of each view (git-ignored)
CHROMIUM = Path("/usr/bin/chromium")
CODE = r"^[a-z_]+/[a-z_]+$"  # an error code: `group/name`
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]


def make_folder(path: Path) -> Path:
    """The folder the studio serves in the tests: the seven-hex island, a board that
    grows with the players, a broken file, a scenario in a subfolder, and a file that is
    not a scenario."""
    path.mkdir(parents=True, exist_ok=True)
    shutil.copy(ROOT / "examples" / "seven_hex_island.catan", path / "island.catan")
    shutil.copy(ROOT / "examples" / "broken_island.catan", path / "broken.catan")
    shutil.copy(HERE / "growing.catan", path / "growing.catan")
    (path / "maps").mkdir(exist_ok=True)
    shutil.copy(HERE / "duel.catan", path / "maps" / "duel.catan")
    (path / "notes.txt").write_text("not a scenario\n", encoding="utf-8")
    return path


def error_of(response, status: int | None = None) -> dict:
    """The error a studio answer carries, checked: JSON `{"error": {code, message}}`,
    a `group/name` code, no traceback, a 4xx status (`status` when given)."""
    assert response.headers["content-type"].startswith("application/json"), response.text[:200]
    body = response.json()
    assert set(body) == {"error"}, body
    err = body["error"]
    assert isinstance(err["code"], str) and isinstance(err["message"], str)
    assert re.match(CODE, err["code"]), err
    assert "Traceback" not in response.text
    if status is not None:
        assert response.status_code == status, (response.status_code, err)
    assert 400 <= response.status_code < 500, (response.status_code, err)
    return err


class Running:
    """A studio served on a loopback port by uvicorn in a thread."""

    def __init__(self, folder: Path):
        from catandsl.studio.app import create_app, listen, server

        self.folder = folder
        self.app = create_app(folder)
        self.sock = listen("127.0.0.1", 0)
        self.url = f"http://127.0.0.1:{self.sock.getsockname()[1]}"
        self.server = server(self.app, self.sock)
        self.thread = threading.Thread(target=self.server.run, kwargs={"sockets": [self.sock]}, daemon=True)
        self.thread.start()
        for _ in range(200):  # a bound on the wait, not a speed: it only catches a server that never starts
            if self.server.started:
                break
            threading.Event().wait(0.05)
        assert self.server.started, "the studio did not start"

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(20)
        self.sock.close()
