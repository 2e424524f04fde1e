import os
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import board_scenarios as bs
import pytest

from catandsl.board import instantiate
from catandsl.ir import configure, model
from catandsl.render import palette
from catandsl.render.svg import pip_count, render_board, render_png

SVG = "{http://www.w3.org/2000/svg}"
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def board():
    return bs.board(seed=5)


def elements(svg: str, *classes: str):
    root = ET.fromstring(svg)
    return [e for e in root.iter() if set(classes) <= set(e.get("class", "").split())]


def test_standard_island_parts(board):
    svg = render_board(board)
    assert len(elements(svg, "hex", "land")) == 19
    assert len(elements(svg, "hex", "water", "frame")) == 18
    assert len(elements(svg, "hex")) == 37
    assert len(elements(svg, "frame-outline")) == 1
    assert len(elements(svg, "token")) == 18
    assert len(elements(svg, "harbor")) == 9
    assert elements(svg, "coord") == [] and elements(svg, "title") == []


def test_tokens_show_number_pips_and_red_six_and_eight(board):
    tokens = elements(render_board(board), "token")
    assert sorted(int(t.get("data-number")) for t in tokens) == sorted(bs.VALUES)
    for t in tokens:
        n = int(t.get("data-number"))
        text = t.find(f"{SVG}text")
        assert text.text == str(n)
        assert (text.get("fill") == palette.RED) == (n in (6, 8))
        assert len([e for e in t if e.get("class") == "pip"]) == pip_count(n)


def test_pips_count_the_dice_rolls():
    numbers = (2, 3, 4, 5, 6, 8, 9, 10, 11, 12)
    assert [pip_count(n) for n in numbers] == [1, 2, 3, 4, 5, 5, 4, 3, 2, 1]


def test_harbors_show_their_ratio_and_resource(board):
    harbors = elements(render_board(board), "harbor")
    ratios = sorted(h.get("data-ratio") for h in harbors)
    assert ratios == ["2:1"] * 5 + ["3:1"] * 4
    titles = sorted(h.find(f"{SVG}title").text for h in harbors)
    assert "2:1 brick" in titles and titles.count("3:1") == 4
    brick = next(h for h in harbors if h.find(f"{SVG}title").text == "2:1 brick")
    assert brick.find(f"{SVG}circle").get("fill") == palette.TERRAIN_COLOURS["hills"]


def test_terrain_colours(board):
    svg = render_board(board)
    for e in elements(svg, "hex", "land"):
        assert e.get("fill") == palette.TERRAIN_COLOURS[e.get("data-terrain")]
    sea = palette.TERRAIN_COLOURS["sea"]
    frame_fill = palette.shade(sea, palette.FRAME_SHADE)
    assert {e.get("fill") for e in elements(svg, "frame")} == {frame_fill}


def test_unknown_terrains_get_a_stable_palette_colour():
    swamp = palette.terrain_colour("swamp")
    assert swamp in palette.LAND_PALETTE and palette.terrain_colour("swamp") == swamp
    lagoon = palette.terrain_colour("lagoon", model.Terrain("lagoon", water=True))
    assert lagoon in palette.WATER_PALETTE
    # crc32, not hash(): the same colour in any interpreter, whatever PYTHONHASHSEED.
    code = "from catandsl.render import palette; print(palette.terrain_colour('swamp'))"
    for seed in ("1", "99"):
        out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                             env=dict(os.environ, PYTHONHASHSEED=seed, PYTHONPATH=str(ROOT)),
                             check=True)
        assert out.stdout.strip() == swamp


def test_coordinates_and_title_are_optional_and_escaped(board):
    svg = render_board(board, coordinates=True, title="Island <one> & two")
    assert len(elements(svg, "coord")) == 37
    (title,) = elements(svg, "title")
    assert title.text == "Island <one> & two"


def test_same_board_same_picture(board):
    assert render_board(board) == render_board(bs.board(seed=5))


def test_a_map_without_frame_or_numbers():
    hexes = (model.HexSlot(0, 0, terrain="swamp"), model.HexSlot(1, 0, terrain="sea"))
    m = model.Map("tiny", hexes)
    scenario = bs.scenario(m, extra=(model.Terrain("swamp", produces="ore"),))
    svg = render_board(instantiate(configure(scenario, 3), 1))
    assert len(elements(svg, "hex", "land")) == 1
    assert elements(svg, "frame-outline") == [] and elements(svg, "token") == []


def test_png_without_cairosvg_names_the_extra(monkeypatch, tmp_path):
    monkeypatch.setitem(sys.modules, "cairosvg", None)  # makes `import cairosvg` fail
    with pytest.raises(RuntimeError, match=r"pip install '?catandsl\[png\]"):
        render_png("<svg/>", tmp_path / "b.png")
    assert not (tmp_path / "b.png").exists()


def test_board_package_does_not_need_drawsvg():
    code = (
        "import sys, catandsl.board, catandsl.render.svg; "
        "print('drawsvg' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         cwd=ROOT)
    assert out.stdout.strip() == "False"
