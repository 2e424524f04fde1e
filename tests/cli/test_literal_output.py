"""Text from a file is printed as it is written: a location such as `:100:` is not an
emoji code, a title such as `[bold red]x[/]` or `:thumbs_up:` is not markup, in every
output that shows it (check, balance, render, lint, simulate; the SVG and HTML files)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import ROOT

TITLE = ":thumbs_up: [bold red]loud[/] :100: [link=https://example.org]here[/link] <b>&amp;</b>"


def run(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    p = subprocess.run([sys.executable, "-m", "catandsl", *args], cwd=cwd, capture_output=True, text=True,
                       env={"COLUMNS": "200", "PATH": "/usr/bin:/bin"})
    assert "Traceback" not in p.stdout + p.stderr, p.stderr
    return p


@pytest.fixture(scope="module")
def files(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("literal")
    island = (ROOT / "examples" / "seven_hex_island.catan").read_text(encoding="utf-8")
    title = TITLE.replace('"', "")
    titled = island.replace('"Seven-Hex Island"', f'"{title}"')
    assert titled != island
    (folder / "loud.catan").write_text(titled, encoding="utf-8")
    # a mistake on line 100: the location reads `bad.catan:100:3`
    lines = titled.splitlines()
    at = next(k for k, line in enumerate(lines) if "uses base" in line)
    padded = lines[:at] + [""] * (99 - at) + ["  cost brick + timber"] + lines[at:]
    (folder / "bad.catan").write_text("\n".join(padded) + "\n", encoding="utf-8")
    assert (folder / "bad.catan").read_text(encoding="utf-8").splitlines()[99] == "  cost brick + timber"
    return folder


def no_emoji(text: str) -> None:
    assert not re.search("[\U0001F300-\U0001FAFF]", text), text


def test_a_location_at_line_100_is_printed_as_it_is(files):
    for command in (["check", "bad.catan"], ["balance", "bad.catan"], ["lint", "bad.catan"]):
        p = run(*command, cwd=files)
        out = p.stdout + p.stderr
        assert "bad.catan:100:3: error[E0301]" in out, (command, out)
        assert "  100 |   cost brick + timber" in out
        no_emoji(out)


def test_a_title_full_of_markup_is_printed_as_it_is(files):
    title = TITLE.replace('"', "")
    p = run("check", "loud.catan", cwd=files)
    assert p.returncode == 0 and f"ok loud.catan: {title} (2-3 players)" in p.stdout, p.stdout
    p = run("balance", "loud.catan", "--samples", "2", cwd=files)
    assert p.stdout.startswith(f"{title}: 3 players"), p.stdout
    p = run("render", "loud.catan", "-o", "loud.svg", cwd=files)
    assert p.stdout.startswith("wrote loud.svg: ") and title in p.stdout, p.stdout
    p = run("simulate", "loud.catan", "--games", "1", "--players", "2", cwd=files)
    assert p.stdout.startswith(f"{title}: 1 games"), p.stdout
    for out in (p.stdout, p.stderr):
        no_emoji(out)


def test_svg_and_html_hold_the_title_as_text(files):
    from html import escape

    assert run("render", "loud.catan", "-o", "board.svg", cwd=files).returncode == 0
    assert run("play", "loud.catan", "--players", "2", "--html", "game.html", cwd=files).returncode == 0
    assert run("balance", "loud.catan", "--samples", "2", "--html", "balance.html", cwd=files).returncode == 0
    title = TITLE.replace('"', "")
    for name in ("board.svg", "game.html", "balance.html"):
        text = (files / name).read_text(encoding="utf-8")
        assert escape(title, quote=False) in text, name
        assert "<b>&amp;</b>" not in text.replace(escape("<b>&amp;</b>", quote=False), ""), name
        no_emoji(text)
