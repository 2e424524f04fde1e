"""Face-down hexes in pictures: `render`, a state's picture and the replay draw a hex of a
hidden pool as a tile's back with no number, and a revealed hex as its terrain."""

import xml.etree.ElementTree as ET

import catandsl
from catandsl.board import instantiate
from catandsl.compiler import compile_path
from catandsl.engine.actions import Build
from catandsl.ir import configure
from catandsl.players import GreedyPlayer, play_game
from catandsl.render.replay import record
from catandsl.render.state_svg import render_map, render_state
from catandsl.rules.hexes import RevealNumber, RevealTile
from tests.conftest import ROOT, all_face_down
from tests.engine.helpers import act, give, put

FOG = ROOT / "examples" / "fog_bank.catan"


def drawn(svg, cls):
    root = ET.fromstring(svg)
    return [e for e in root.iter() if cls in e.get("class", "").split()]


def test_the_map_shows_its_hidden_pool_face_down():
    scenario, _, _ = compile_path(FOG)
    rs = configure(scenario, 3, {})
    svg = render_map(instantiate(rs, 1), rs)
    assert len(drawn(svg, "face-down")) == 12
    assert len(drawn(svg, "token")) == 6  # the island's numbers; none on the fog


def test_a_revealed_hex_is_drawn_as_its_terrain():
    g = catandsl.new_game(catandsl.load(FOG), 3, {}, 1)
    s = all_face_down(g)  # every fog hex face down, player 0 in the main phase
    b = g.board
    fog = b.hex_id(1, -2)  # a hex of the fog, beside the island's (1, -1)
    coast = next(c for c in b.hex_corners[fog] if any(not b.hex_water[h] for h in b.corner_hexes[c]))
    road = next(k for k in b.corner_paths[coast] if fog in b.path_hexes[k] and
                any(not b.hex_water[h] for h in b.path_hexes[k]))
    put(s, 0, "settlement", coast)
    give(s, 0, 1, 1, 0, 0, 0)
    before = len(drawn(render_state(g, s), "face-down"))
    act(s, Build("road", road))
    act(s, RevealTile("gold"))
    act(s, RevealNumber(5))
    svg = render_state(g, s)
    assert len(drawn(svg, "face-down")) == before - 1
    gold = [e for e in drawn(svg, "hex") if e.get("data-terrain") == "gold"]
    assert len(gold) == 1
    assert any(e.get("data-number") == "5" for e in drawn(svg, "token"))


def test_the_replay_turns_hexes_up_frame_by_frame():
    g = catandsl.new_game(catandsl.load(FOG), 3, {}, 8)
    _, entries = play_game(g, [GreedyPlayer(p) for p in range(3)])
    frames, final = record(g, entries)
    counts = [f.hexes.count('class="hex face-down"') for f in frames]
    assert counts[0] == 12 and counts[-1] == len(final.face_down) < 12
    assert counts == sorted(counts, reverse=True)  # once up, a hex stays up
