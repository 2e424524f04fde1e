"""The feature observation (extra `rl`): named from the scenario's declarations, laid out
in blocks a network can reshape, showing each seat the board from its own side and
nothing another seat hides."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("numpy", reason="the `rl` extra is not installed")
import numpy as np  # noqa: E402

import catandsl  # noqa: E402
from catandsl.adapters.features import FeatureObserver  # noqa: E402
from catandsl.engine.observer import Observer  # noqa: E402
from catandsl.players import RandomPlayer  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def base():
    return catandsl.new_game(catandsl.load(ROOT / "scenarios/base.catan"), players=3, seed=1)


def _row(f: FeatureObserver, x: np.ndarray, block: str, row: int) -> dict[str, float]:
    b = f.blocks[block]
    values = x[b.start:b.stop].reshape(b.rows, len(b.columns))[row]
    return {c: float(v) for c, v in zip(b.columns, values) if v}


def test_blocks_tile_the_vector_and_every_number_is_named(base):
    f = FeatureObserver(Observer(base))
    starts = sorted((b.start, b.stop) for b in f.blocks.values())
    assert starts[0][0] == 0 and starts[-1][1] == f.size == len(f.names)
    assert all(a[1] == b[0] for a, b in zip(starts, starts[1:]))
    assert len(set(f.names)) == f.size
    b = base.board
    assert f.blocks["hex"].rows == len(b.hexes) and f.blocks["path"].rows == len(b.paths)
    assert [c for c in f.blocks["hex"].columns if c.startswith("terrain=")] == [f"terrain={t}" for t in b.terrain_names]
    assert "hex[0].robber" in f.names and "player[+2].award=longest_road" in f.names
    assert f"game.prompt={Observer(base).prompt_kinds[0]}" in f.names
    assert f.names[f.blocks["me"].start] == f"me.hand={base.resources[0]}"


def test_sites_show_owners_from_the_viewers_side_and_hexes_their_pips_and_robber(base):
    f = FeatureObserver(Observer(base))
    at = base.board.intersections.index((0, 0, "N"))
    s = catandsl.position(base).place(2, "settlement", (0, 0, "N")).place(1, "road", (1, -1, "W")).state()
    assert _row(f, f.tensor(s, 2), "intersection", at) == {"owner=me": 1.0, "piece=settlement": 1.0}
    assert _row(f, f.tensor(s, 0), "intersection", at) == {"owner=+2": 1.0, "piece=settlement": 1.0}
    assert _row(f, f.tensor(s, 1), "intersection", at) == {"owner=+1": 1.0, "piece=settlement": 1.0}
    path = base.board.paths.index((1, -1, "W"))
    assert _row(f, f.tensor(s, 0), "path", path) == {"owner=+1": 1.0, "piece=road": 1.0}
    x = f.tensor(s, 0)
    robber = s.neutral_at[base.piece_index["robber"]]
    for h in range(len(base.board.hexes)):
        row = _row(f, x, "hex", h)
        number = base.board.hex_number[h]
        assert row.get("pips", 0.0) == (6 - abs(7 - number) if number else 0)
        assert row.get("robber", 0.0) == (1.0 if h == robber else 0.0)
        assert row[f"terrain={base.board.terrain_names[base.board.hex_terrain[h]]}"] == 1.0


def test_a_seat_sees_its_own_cards_and_only_counts_of_the_others(base):
    f = FeatureObserver(Observer(base))
    one = catandsl.position(base).hand(0, brick=2, ore=1).hand(2, wool=3).state()
    other = catandsl.position(base).hand(0, wool=3).hand(2, brick=2, ore=1).state()
    assert np.array_equal(f.tensor(one, 1), f.tensor(other, 1))  # seats 0 and 2 swapped hands: 1 cannot tell
    x = f.tensor(one, 0)
    assert _row(f, x, "me", 0) == {"hand=brick": 2.0, "hand=ore": 1.0}
    assert _row(f, x, "player", 0)["hand"] == 3.0 and _row(f, x, "player", 2)["hand"] == 3.0  # +2: seat 2
    assert _row(f, f.tensor(one, 1), "me", 0) == {}


def test_points_awards_and_the_prompt_as_the_game_goes(base):
    f = FeatureObserver(Observer(base))
    s = base.new_initial_state()
    bots = [RandomPlayer(k) for k in range(3)]
    while not s.is_terminal() and s.actions_applied < 1500:
        s.apply_action(s.sample_chance() if s.is_chance_node() else bots[s.current_player()].choose(s))
    for seat in range(3):
        x = f.tensor(s, seat)
        players = x[f.blocks["player"].start:f.blocks["player"].stop].reshape(3, -1)
        cols = f.blocks["player"].columns
        view = s.observation(seat)
        order = [(seat + k) % 3 for k in range(3)]
        assert players[:, cols.index("points")].tolist() == [view["scores"][p] for p in order]
        for k, award in enumerate(base.awards):
            holder = s.award_holder[k]
            assert players[:, cols.index(f"award={award.name}")].tolist() == \
                [1.0 if p == holder else 0.0 for p in order]
        game = _row(f, x, "game", 0)
        assert game[f"prompt={type(s.top()).KIND}"] == 1.0
        assert game.get("to_act", 0.0) == (1.0 if s.current_player() == seat else 0.0)


def test_an_offer_its_answers_and_ones_own_draft_from_each_side(base):
    """The `offer` and `trade` blocks: the proposed offer and each seat's answer, seen
    alike by all; a draft, by its composer alone."""
    from catandsl.engine.actions import action_from_json

    f = FeatureObserver(Observer(base))
    s = catandsl.position(base).hand(0, brick=2).hand(1, ore=1).hand(2, ore=1).turn(0, rolled=True).state()
    for a in ({"kind": "new_offer"}, {"kind": "offer_add", "side": "give", "item": "brick"},
              {"kind": "offer_add", "side": "get", "item": "ore"}):
        s.apply_action(action_from_json(a))
    assert _row(f, f.tensor(s, 0), "offer", 0) == {"draft_give=brick": 1.0, "draft_get=ore": 1.0}
    assert _row(f, f.tensor(s, 0), "trade", 1) == {"draft_to": 1.0} == _row(f, f.tensor(s, 0), "trade", 2)
    assert not _row(f, f.tensor(s, 1), "offer", 0) and not _row(f, f.tensor(s, 1), "trade", 2)  # not its draft
    for a in ({"kind": "propose"}, {"kind": "accept"}):
        s.apply_action(action_from_json(a))
    for seat in range(3):  # seat 2 is to answer; the rows are seats from the viewer's side
        x = f.tensor(s, seat)
        assert _row(f, x, "offer", 0) == {"give=brick": 1.0, "get=ore": 1.0}
        assert _row(f, x, "trade", (0 - seat) % 3) == {"proposer": 1.0}
        assert _row(f, x, "trade", (1 - seat) % 3) == {"asked": 1.0, "accepted": 1.0}
        assert _row(f, x, "trade", (2 - seat) % 3) == {"asked": 1.0}
    assert "trade[+1].counter_give=ore" in f.names and f.blocks["trade"].rows == 3
