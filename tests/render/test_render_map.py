"""`catandsl render`: the board as a game starts on it (the neutral pieces on their starts,
the map's sites with their numbers, a note for a piece that starts off the board), and a
title that names the seed only when the board depends on it."""

import xml.etree.ElementTree as ET

import pytest

from catandsl.board import instantiate
from catandsl.cli import main
from catandsl.compiler import compile_path
from catandsl.ir import configure
from catandsl.render.state_svg import render_map
from catandsl.render.titles import board_title
from tests.conftest import ROOT

BASE = ROOT / "scenarios" / "base.catan"
CLOTH = ROOT / "scenarios" / "seafarers" / "cloth_for_catan.catan"
FOUR = ROOT / "scenarios" / "seafarers" / "four_islands.catan"
TINY = ROOT / "examples" / "seven_hex_island.catan"


def compiled(path):
    scenario, diags, _ = compile_path(path)
    assert scenario is not None, diags
    return scenario


def drawn(svg, cls):
    root = ET.fromstring(svg)
    return [e for e in root.iter() if cls in e.get("class", "").split()]


def render(tmp_path, *args):
    out = tmp_path / "board.svg"
    assert main(["render", *map(str, args), "-o", str(out)]) == 0
    return out.read_text()


def test_the_robber_and_the_pirate_stand_on_their_starts(tmp_path):
    svg = render(tmp_path, CLOTH, "--players", "4")
    rs = configure(compiled(CLOTH), 4, {})
    board = instantiate(rs, 1)
    neutral = {e.get("data-piece"): int(e.get("data-at")) for e in drawn(svg, "neutral")}
    assert neutral == {"robber": board.starts["robber"], "pirate": board.starts["pirate"]}
    assert board.hexes[neutral["robber"]] == (0, 3) and board.hexes[neutral["pirate"]] == (6, 4)
    assert drawn(svg, "note") == []  # nothing starts off the board


def test_the_base_robber_starts_on_the_desert(tmp_path):
    svg = render(tmp_path, BASE)
    (robber,) = [e for e in drawn(svg, "neutral") if e.get("data-piece") == "robber"]
    deserts = [e for e in drawn(svg, "hex") if e.get("data-terrain") == "desert"]
    assert len(deserts) == 1
    board = instantiate(configure(compiled(BASE), 4, {}), 1)
    assert board.terrain(int(robber.get("data-at"))) == "desert"


def test_the_sites_are_drawn_with_their_numbers(tmp_path):
    svg = render(tmp_path, CLOTH)
    sites = drawn(svg, "site")
    scenario = compiled(CLOTH)
    rs = configure(scenario, 4, {})
    placed = rs.map.sites
    assert len(sites) == len(placed) == 8
    assert [int(e.get("data-number")) for e in sites] == [s.number for s in placed]
    assert all(int(e.get("data-stock")) == 5 for e in sites)  # each village starts with 5 cloth
    numbers = [t.text for e in sites for t in e.iter("{http://www.w3.org/2000/svg}text")]
    for s in placed:
        assert str(s.number) in numbers


def test_a_piece_that_starts_off_the_board_is_noted(tmp_path):
    text = TINY.read_text().replace("start robber on desert", "start robber off board")
    off = tmp_path / "off.catan"
    off.write_text(text)
    svg = render(tmp_path, off)
    assert drawn(svg, "neutral") == []
    (note,) = drawn(svg, "note")
    assert note.text == "robber: off the board at the start"


def test_render_map_without_a_ruleset_is_the_bare_board():
    board = instantiate(configure(compiled(BASE), 4, {}), 1)
    svg = render_map(board)
    assert drawn(svg, "piece") == [] and drawn(svg, "site") == [] and drawn(svg, "note") == []


@pytest.mark.parametrize("path, players, options, seed, title", [
    (BASE, 4, {}, 7, "Catan — layout beginner"),  # the rulebook's fixed map: the seed changes nothing
    (BASE, 3, {}, 7, "Catan — layout beginner"),  # the same map for 3 and 4 players
    (BASE, 4, {"layout": "random"}, 7, "Catan — layout random, seed 7"),
    # a map per player count and per item of three options, each a shuffled pool
    (FOUR, 3, {}, 2, "The Four Islands — 3 players, edition seed, tables seed, harbor_setup placed, seed 2"),
    (CLOTH, 4, {}, 1, "Cloth for Catan — seed 1"),  # one map for 3 and 4 players
    (TINY, 2, {}, 5, "Seven-Hex Island — seed 5"),
])
def test_the_title_names_what_the_board_depends_on(path, players, options, seed, title):
    assert board_title(compiled(path), players, options, seed) == title


def test_the_command_prints_and_draws_the_title(tmp_path, capsys):
    svg = render(tmp_path, BASE, "--seed", "7")
    (title,) = drawn(svg, "title")
    assert title.text == "Catan — layout beginner"
    assert "seed" not in capsys.readouterr().out
    svg = render(tmp_path, BASE, "--seed", "7", "--option", "layout=random")
    (title,) = drawn(svg, "title")
    assert title.text == "Catan — layout random, seed 7"
