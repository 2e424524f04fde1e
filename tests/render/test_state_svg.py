"""render_state draws every piece of a state, in its owner's colour, and a legend."""

import json
import xml.etree.ElementTree as ET
from collections import Counter
from pathlib import Path

import pytest

from catandsl import new_game
from catandsl.players import GreedyPlayer, RandomPlayer
from catandsl.render import palette
from catandsl.render.state_svg import render_state

ROOT = Path(__file__).resolve().parents[2]


def play(game, seats, steps=None):
    state = game.new_initial_state()
    n = 0
    while not state.is_terminal() and (steps is None or n < steps):
        a = state.sample_chance() if state.is_chance_node() else seats[state.current_player()].choose(state)
        state.apply_action(a)
        n += 1
    return state


@pytest.fixture(scope="module")
def game():
    return new_game(ROOT / "scenarios" / "base.catan", 4, {}, 1)


def drawn(svg):
    root = ET.fromstring(svg)
    return [e for e in root.iter() if "piece" in e.get("class", "").split()]


def expected(game, state):
    """(piece name, owner) counts straight from the serialized state."""
    data = json.loads(state.serialize())
    names = [p.name for p in game.pieces]
    out = Counter()
    for owners, pieces in ((data["corner_owner"], data["corner_piece"]),
                           (data["path_owner"], data["path_piece"])):
        for o, pi in zip(owners, pieces):
            if o >= 0:
                out[(names[pi], o)] += 1
    for pi, at in enumerate(data["neutral_at"]):
        if at >= 0:
            out[(names[pi], -1)] += 1
    return out


@pytest.mark.parametrize("steps", [0, 16, 120, None])
def test_pieces_drawn_match_the_state(game, steps):
    state = play(game, [GreedyPlayer(p) for p in range(4)], steps)
    svg = render_state(game, state, title="t")
    got = Counter((e.get("data-piece"), int(e.get("data-owner"))) for e in drawn(svg))
    assert got == expected(game, state)
    assert got[("robber", -1)] == 1
    if steps is None:
        assert sum(v for (name, o), v in got.items() if name == "settlement") \
            + sum(v for (name, o), v in got.items() if name == "city") >= 8


def test_piece_colours_and_classes(game):
    state = play(game, [RandomPlayer(p) for p in range(4)], 300)
    for e in drawn(render_state(game, state)):
        owner = int(e.get("data-owner"))
        classes = e.get("class").split()
        assert e.get("data-piece") in classes
        fills = {c.get("fill") for c in e if c.get("fill")} | {c.get("stroke") for c in e if c.get("stroke")}
        if owner >= 0:
            assert palette.player_colour(owner) in fills
        else:
            assert "neutral" in classes


def test_legend_shows_each_players_points_and_the_winner(game):
    state = play(game, [GreedyPlayer(p) for p in range(4)])
    root = ET.fromstring(render_state(game, state))
    entries = [e for e in root.iter() if e.get("class") == "legend-entry"]
    assert [int(e.get("data-vp")) for e in entries] == state.scores()
    texts = ["".join(e.itertext()) for e in entries]
    if state.winner is not None and state.winner >= 0:
        assert "winner" in texts[state.winner]
    assert texts[0].startswith("P1:")


def test_same_state_same_picture(game):
    a = play(game, [RandomPlayer(p) for p in range(4)], 200)
    b = game.deserialize_state(a.serialize())
    assert render_state(game, a) == render_state(game, b)


def test_every_legend_entry_lies_inside_the_picture(game):
    """Four players take two rows; with no tokens in the scenario the rows keep no room
    for them, so the second row ends inside the picture (it was cut off)."""
    root = ET.fromstring(render_state(game, game.new_initial_state()))
    _, top, _, height = (float(v) for v in root.get("viewBox").split())
    rows = [float(e.get("y")) + float(e.get("height")) for e in root.iter()
            if e.tag.endswith("rect") and e.get("height") == "16.0"]
    assert len(rows) == 4 and max(rows) <= top + height
