"""The studio's fixtures: a served folder (a copy of a few example files), the studio
running on a free loopback port in a thread of the test process, and one headless
Chromium for the session (Debian's, through Playwright).

Without Chromium or Playwright the browser tests are skipped on a developer's machine
and fail under CI (CI=true), where .ci/run installs both."""

from __future__ import annotations

import os
import shutil
import threading
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
HERE = Path(__file__).resolve().parent
ARTIFACTS = HERE / "artifacts"  # screenshots of each view (git-ignored)
CHROMIUM = Path("/usr/bin/chromium")
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


@pytest.fixture(scope="session")
def studio_dir(tmp_path_factory) -> Path:
    return make_folder(tmp_path_factory.mktemp("studio") / "served")


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


@pytest.fixture(scope="session")
def studio(studio_dir):
    running = Running(studio_dir)
    yield running
    running.stop()


def _missing_browser() -> str | None:
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "Playwright is not installed (pip install -e '.[test]')"
    if not CHROMIUM.exists():
        return f"{CHROMIUM} is missing (apt-get install chromium)"
    return None


@pytest.fixture(scope="session")
def browser():
    why = _missing_browser()
    if why is not None:
        if os.environ.get("CI"):
            pytest.fail(f"the browser tests need Chromium and Playwright under CI: {why}")
        pytest.skip(why)
    from playwright.sync_api import sync_playwright

    ARTIFACTS.mkdir(exist_ok=True)
    with sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


@pytest.fixture
def page(browser):
    context = browser.new_context(viewport={"width": 1360, "height": 940})
    context.set_default_timeout(30_000)  # catches a hang, never a slow machine
    pg = context.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    yield pg
    context.close()
    assert not errors, f"the page's JavaScript failed: {errors}"
