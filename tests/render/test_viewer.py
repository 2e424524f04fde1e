"""Pictures drawn for a viewer: a seat reads its own hidden points, a spectator
nobody's, everyone's reader (a game of bots, an author) all of them; the HTML replay
shows another seat's hand and cards as counts and veils the card it drew."""

from __future__ import annotations

import json
import re
from pathlib import Path

import catandsl
from catandsl.players import make_bot
from catandsl.players.base import play_game
from catandsl.render.replay import render_replay
from catandsl.render.state_svg import render_state
from catandsl.rules.words import EVERYONE, SPECTATOR

ROOT = Path(__file__).resolve().parents[2]


def _game_with_a_hidden_card():
    scenario = catandsl.load(ROOT / "scenarios" / "base.catan")
    game = catandsl.new_game(scenario, players=3, seed=2)
    state, entries = play_game(game, [make_bot("greedy", 10 + p) for p in range(3)], seed=2)
    return game, state, entries


def _legend(svg: str) -> dict[int, int]:
    return {int(p): int(v) for p, v in re.findall(r'data-player="(\d+)" data-vp="(\d+)"', svg)}


def test_the_legend_shows_points_as_the_viewer_reads_them():
    game, state, _ = _game_with_a_hidden_card()
    hidden = [p for p in range(3) if state.points(p) != state.public_points(p)]
    assert hidden, "the game dealt no victory point card: pick another seed"
    p = hidden[0]
    assert _legend(render_state(game, state))[p] == state.points(p)
    assert _legend(render_state(game, state, viewer=EVERYONE))[p] == state.points(p)
    assert _legend(render_state(game, state, viewer=p))[p] == state.points(p)
    assert _legend(render_state(game, state, viewer=SPECTATOR))[p] == state.public_points(p)
    other = (p + 1) % 3
    assert _legend(render_state(game, state, viewer=other))[p] == state.public_points(p)


def test_the_html_replay_for_a_seat_hides_the_others_hands_and_draws():
    game, state, entries = _game_with_a_hidden_card()
    page = render_replay(game, entries, viewer=0)
    data = json.loads(re.search(r'<script type="application/json" id="replay-data">(.*?)</script>',
                                page, re.S).group(1).replace("<\\/", "</"))
    last = data["frames"][-1]
    assert isinstance(last["hands"][0], list) and isinstance(last["hands"][1], int)
    assert last["hands"][1] == sum(state.hands[1]) and last["cards"][2] == sum(state.cards[2])
    drawn = [e for e in entries if e.get("readers") is not None and 0 not in e["readers"]]
    assert drawn, "no secret in the game: pick another seed"
    shown = "\n".join(line for f in data["frames"] for line in f["log"])
    assert all(f"{e['who']}: {e['text']}" not in shown for e in drawn)
    assert all(f"{e['who']}: {e['veiled']}" in shown for e in drawn)
    assert data["final"]["scores"] == [state.points(0)] + [state.public_points(p) for p in (1, 2)]
    everything = render_replay(game, entries)
    assert f"{drawn[0]['who']}: {drawn[0]['text']}" in everything
