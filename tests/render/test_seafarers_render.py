"""Seafarers in pictures: ships (dashed, with a hull), the pirate as a neutral piece,
special victory point tokens beside their buildings and home-island tags, in the SVG and
in the HTML replay, counted against the state."""

import json
import re
import xml.etree.ElementTree as ET
from collections import Counter
from pathlib import Path

import pytest

from catandsl import new_game
from catandsl.players import RandomPlayer
from catandsl.render.replay import render_replay
from catandsl.render.snapshot import snapshot
from catandsl.render.state_svg import render_state

ROOT = Path(__file__).resolve().parents[2]


def _classes(e):
    return e.get("class", "").split()


@pytest.fixture(scope="module")
def played():
    """Four Islands, 4 players, random play until a special victory point is earned."""
    g = new_game(ROOT / "scenarios" / "seafarers" / "four_islands.catan", 4, {}, 2)
    for seed in range(1, 30):
        seats = [RandomPlayer(seed * 10 + k) for k in range(4)]
        s = g.new_initial_state()
        log = []
        while not s.is_terminal() and not s.vp_tokens:
            a = s.sample_chance() if s.is_chance_node() else seats[s.current_player()].choose(s)
            log.append({"player": s.current_player(), "action": a, "text": s.action_to_string(a)})
            s.apply_action(a)
        if s.vp_tokens:
            return g, s, log
    pytest.fail("no special victory point in 29 games")


def test_vp_tokens_drawn_match_the_state(played):
    g, s, _ = played
    root = ET.fromstring(render_state(g, s))
    tokens = [e for e in root.iter() if "vp-token" in _classes(e)]
    got = Counter((int(e.get("data-owner")), int(e.get("data-at")), int(e.get("data-count")))
                  for e in tokens)
    assert got == Counter(tuple(t) for t in s.vp_tokens)
    assert sum(int(e.get("data-count")) for e in tokens) == sum(n for *_, n in s.vp_tokens)
    for p, c, _ in s.vp_tokens:  # beside a building of their owner
        assert s.corner_owner[c] == p
    assert snapshot(g, s).tokens() == sum(n for *_, n in s.vp_tokens)
    # the points in the legend include them
    legend = {int(e.get("data-player")): int(e.get("data-vp"))
              for e in root.iter() if "legend-entry" in _classes(e)}
    assert legend == dict(enumerate(s.scores()))


def test_home_island_tags_drawn(played):
    g, s, _ = played
    root = ET.fromstring(render_state(g, s))
    tags = Counter((int(e.get("data-owner")), e.get("data-piece"), int(e.get("data-at")))
                   for e in root.iter() if "island-tag" in _classes(e))
    assert tags == Counter(tuple(t) for t in s.island_tags)
    assert tags and all(t == "home" for _, t, _ in tags)


def test_ships_differ_from_roads_and_the_pirate_is_neutral(played):
    g, s, _ = played
    root = ET.fromstring(render_state(g, s))
    ships = [e for e in root.iter() if "ship" in _classes(e)]
    roads = [e for e in root.iter() if "road" in _classes(e)]
    names = [P.name for P in g.pieces]
    assert len(ships) == sum(1 for pi in s.path_piece if pi >= 0 and names[pi] == "ship")
    assert ships and roads
    for e in ships:
        assert any("hull" in _classes(c) for c in e.iter())
        assert any(c.get("stroke-dasharray") for c in e.iter())
    for e in roads:
        assert not any("hull" in _classes(c) or c.get("stroke-dasharray") for c in e.iter())
    pirates = [e for e in root.iter() if "pirate" in _classes(e)]
    assert len(pirates) == 1 and "neutral" in _classes(pirates[0])
    assert int(pirates[0].get("data-owner")) == -1
    assert int(pirates[0].get("data-at")) == s.neutral_at[names.index("pirate")]


def test_replay_shows_tokens_ships_and_the_pirate(played):
    g, s, log = played
    page = render_replay(g, log)
    data = json.loads(re.search(r'id="replay-data">(.*?)</script>', page, re.S).group(1))
    last = data["frames"][-1]
    shown = "".join(data["elements"][k] for k in last["pieces"])
    assert shown.count('class="piece vp-token"') == len(s.vp_tokens)
    counts = [int(c) for c in re.findall(r'class="piece vp-token"[^>]*data-count="(\d+)"', shown)]
    assert sum(counts) == sum(n for *_, n in s.vp_tokens)
    assert shown.count('class="hull"') == shown.count('class="piece ship"') > 0
    assert shown.count('class="piece pirate neutral"') == 1
    # before any token was earned, none is shown
    assert 'vp-token' not in "".join(data["elements"][k] for k in data["frames"][0]["pieces"])


def test_cli_play_writes_svg_and_html(tmp_path):
    import subprocess
    import sys
    svg, html = tmp_path / "x.svg", tmp_path / "x.html"
    subprocess.run([sys.executable, "-m", "catandsl", "play",
                    "scenarios/seafarers/four_islands.catan", "--players", "4", "--seed", "2",
                    "--svg", str(svg), "--html", str(html)], cwd=ROOT, check=True,
                   capture_output=True)
    root = ET.fromstring(svg.read_text())
    drawn = Counter(c for e in root.iter() for c in _classes(e))
    assert drawn["pirate"] == 1 and drawn["ship"] > 0 and drawn["hull"] == drawn["ship"]
    assert "replay-data" in html.read_text()
