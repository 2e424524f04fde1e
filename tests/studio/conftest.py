"""The studio's fixtures: a served folder, the studio on a loopback port, and one
headless Chromium for the session (Debian's, through Playwright).

Without Chromium or Playwright the browser tests are skipped on a developer's machine
and fail under CI (CI=true), where .ci/run installs both.

Browser test modules are named `test_studio_browser*.py`: the session's Playwright keeps
an event loop running in the main thread once started, so they sort after the modules
that run one of their own (test_shares.py, with asyncio.run)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.studio.helpers import ARTIFACTS, CHROMIUM, CHROMIUM_ARGS, Running, make_folder


@pytest.fixture(scope="session")
def studio_dir(tmp_path_factory) -> Path:
    return make_folder(tmp_path_factory.mktemp("studio") / "served")


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
