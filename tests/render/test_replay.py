"""The HTML replay: one page, no network, one frame per set-up block and per turn."""

import json
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest

from catandsl import new_game
from catandsl.players import GreedyPlayer, play_game
from catandsl.render.replay import record, render_replay

ROOT = Path(__file__).resolve().parents[2]


class Collect(HTMLParser):
    def __init__(self):
        super().__init__()
        self.tags, self.ids, self.srcs, self.open = [], {}, [], []

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        self.tags.append(tag)
        if "id" in a:
            self.ids[a["id"]] = tag
        for k in ("src", "href"):
            if a.get(k):
                self.srcs.append(a[k])


@pytest.fixture(scope="module")
def played():
    game = new_game(ROOT / "scenarios" / "base.catan", 4, {}, 2)
    state, entries = play_game(game, [GreedyPlayer(p) for p in range(4)], seed=2)
    return game, state, entries


def replay_data(page):
    m = re.search(r'<script type="application/json" id="replay-data">(.*?)</script>', page, re.S)
    return json.loads(m.group(1))


def test_page_parses_and_is_self_contained(played):
    game, state, entries = played
    page = render_replay(game, entries, title="t")
    p = Collect()
    p.feed(page)
    p.close()
    for needed in ("prev", "next", "slider", "play", "pieces", "legend", "log", "scores"):
        assert needed in p.ids, needed
    assert "svg" in p.tags and "script" in p.tags
    assert p.srcs == []  # nothing loaded from anywhere
    assert "http://" not in page.replace("http://www.w3.org", "") and "https://" not in page


def test_one_frame_per_turn_and_the_final_scores(played):
    game, state, entries = played
    data = replay_data(render_replay(game, entries))
    frames = data["frames"]
    turns = [f["turn"] for f in frames if f["label"].startswith("turn")]
    assert turns == list(range(1, state.turns + 1))
    setup = [f for f in frames if f["label"].startswith("set-up")]
    # snake order from the start player, one frame per player's consecutive placements:
    # the last seat places twice in a row
    first = state.start_player
    order = [(first + k) % 4 for k in range(4)]
    assert [f["player"] for f in setup] == order + order[-2::-1]
    assert len(setup[3]["log"]) == 2 * len(setup[0]["log"])
    assert frames[0]["label"] == "start" and frames[0]["log"] == [f"dice: start_player {first}"]
    assert frames[-1]["scores"] == state.scores() == data["final"]["scores"]
    assert data["final"]["winner"] == state.winner
    assert sum(len(f["log"]) for f in frames) == len(entries) + sum(len(e["notes"]) for e in entries)


def test_frames_match_a_replay_of_the_log(played):
    game, state, entries = played
    frames, final = record(game, entries)
    assert final.serialize() == state.serialize()
    data = replay_data(render_replay(game, entries))
    for f, d in zip(frames, data["frames"]):
        assert len(d["pieces"]) == len(f.pieces)
        assert d["scores"] == list(f.scores)
    # the pieces only grow between frames, except the robber, which moves
    for a, b in zip(data["frames"], data["frames"][1:]):
        assert len(b["pieces"]) >= len(a["pieces"])
