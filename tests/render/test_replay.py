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
    def placements(frame):
        return [line for line in frame["log"] if not line.startswith(" ")]

    assert len(placements(setup[3])) == 2 * len(placements(setup[0]))
    assert frames[0]["label"] == "start" and frames[0]["log"] == [f"start: P{first + 1} goes first"]
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


def test_each_frame_holds_the_hands_cards_awards_and_scores_of_its_moment(played):
    game, state, entries = played
    frames, _ = record(game, entries)
    data = replay_data(render_replay(game, entries))
    assert data["resources"] == list(game.resources)
    assert data["cards"] == [c.name for c in game.cards]
    assert data["awards"] == [a.title for a in game.awards]
    # replay the log and compare each frame with the state at its end
    s = game.new_initial_state()
    k = 0
    ends = []
    for f in frames:
        k += sum(1 for line in f.log if not line.startswith(" "))
        ends.append(k)
    boundaries = dict.fromkeys(ends)
    states = {}
    for i, e in enumerate(entries, start=1):
        s.apply_action(e["action"])
        if i in boundaries:
            states[i] = s.clone()
    for end, d in zip(ends[1:], data["frames"][1:]):
        at = states[end]
        assert d["scores"] == at.scores()
        assert d["hands"] == at.hands
        assert d["cards"] == at.cards and d["played"] == at.played
        assert d["awards"] == at.award_holder
    first, last = data["frames"][0], data["frames"][-1]
    assert first["scores"] == [0, 0, 0, 0] != last["scores"]  # frame 1 is not the end
    assert sum(map(sum, first["hands"])) == 0
    knight = data["cards"].index("knight")
    assert any(f["played"][p][knight] for f in data["frames"] for p in range(4))
    assert any(h >= 0 for h in last["awards"])
    assert data["result"].startswith(f"winner: P{state.winner + 1} ")


def test_the_page_shows_each_frame_its_own_result_line(played):
    game, state, entries = played
    page = render_replay(game, entries)
    # the script swaps the result line: the winner on the last frame, the scores of the moment elsewhere
    assert "i === frames.length - 1 ? data.result" in page and "scores at this step: " in page
    for needed in ("development cards", "played", "awards", "hand"):
        assert f"<th>{needed}</th>" in page


def test_sites_are_in_every_frame_with_their_stock():
    from catandsl.players import RandomPlayer

    game = new_game(ROOT / "scenarios" / "seafarers" / "cloth_for_catan.catan", 4, {}, 2)
    state, entries = play_game(game, [RandomPlayer(k) for k in range(4)], seed=2)
    data = replay_data(render_replay(game, entries))
    stocks = []
    for f in data["frames"]:
        svg = data["sites"][f["sites"]]
        found = re.findall(r'class="site" data-kind="\w+" data-number="(\d+)" data-stock="(\d+)"', svg)
        assert [int(n) for n, _ in found] == [s.number for s in game.sites]
        stocks.append(sum(int(k) for _, k in found))
    assert stocks[0] == 40 and stocks[-1] == sum(map(sum, state.token_stock)) < 40
    assert stocks == sorted(stocks, reverse=True)  # villages only give cloth away
    assert any("cloth" in t for t in data["tokens"]) and any(sum(t) for t in data["frames"][-1]["tokens"])
    assert '<g id="sites">' in render_replay(game, entries[:5])
