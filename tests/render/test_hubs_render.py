"""A hub hex's centre point and spurs in the board picture, named by their ids, and a
road on a spur drawn along it."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

import catandsl
from catandsl.board import geometry as geo
from catandsl.render.state_svg import render_map, render_state
from catandsl.render.svg import SIZE
from tests.conftest import HUB_ISLAND, game_of
from tests.engine.helpers import blank, put


@pytest.fixture(scope="module")
def game(tmp_path_factory):
    return game_of(tmp_path_factory, HUB_ISLAND)


def elements(svg: str, cls: str) -> list[ET.Element]:
    return [e for e in ET.fromstring(svg).iter() if cls in e.get("class", "").split()]


def title(e: ET.Element) -> str:
    return next(t.text for t in e if t.tag.endswith("title"))


def test_the_map_draws_the_centre_and_the_spurs_with_their_ids(game):
    b = game.board
    svg = render_map(b, game.ruleset)
    [hub] = elements(svg, "hub")
    assert hub.get("data-hex") == "0,-1"
    [centre] = elements(svg, "hub-centre")
    assert centre.get("data-id") == "(0,-1) C" == title(centre)
    assert int(centre.get("data-at")) == b.intersection_id(0, -1, "C")
    x, y = geo.pixel((0, -1), SIZE)
    assert (float(centre.get("cx")), float(centre.get("cy"))) == pytest.approx((x, y))
    spurs = elements(svg, "spur")
    assert [s.get("data-id") for s in spurs] == [
        "(0,-1) C-NE", "(0,-1) C-SE", "(0,-1) C-S", "(0,-1) C-SW"]
    assert [title(s) for s in spurs] == [s.get("data-id") for s in spurs]
    assert [int(s.get("data-at")) for s in spurs] == list(b.hex_spurs[b.hex_index[(0, -1)]])


def test_a_board_without_hubs_draws_none(tmp_path):
    g = catandsl.new_game("scenarios/base.catan", 3, {}, 1)
    svg = render_map(g.board, g.ruleset)
    assert not elements(svg, "hub") and not elements(svg, "spur")


def test_a_road_on_a_spur_is_drawn_on_it(game):
    b = game.board
    s = blank(game)
    x = b.path_id(0, -1, "C-S")
    put(s, 0, "road", x)
    [road] = [e for e in elements(render_state(game, s), "road") if e.get("data-at") == str(x)]
    assert road.get("data-owner") == "0"
