"""The Knights' Watch (examples/scenarios/knights_watch.catan), the example of the
constructs no other example uses (knights moved along their owner's network and
displacing others, banners attached to them, a free road on chosen paths, a city burnt
to a settlement, a shared counter, the whole board and a yield per terrain, a fixed roll,
an open number, a roll-again loop, a hand limit): greedy and random bots play it to a
victory, the state checked after every action, and the constructs take part."""

from __future__ import annotations

from collections import Counter

import pytest

import catandsl
from tests.conftest import ROOT
from tests.engine.soundness import play_bots

PATH = ROOT / "examples" / "scenarios" / "knights_watch.catan"


def _play(players: int, seed: int, bots: str):
    g = catandsl.new_game(catandsl.load(PATH), players, {}, seed)
    seen: Counter[str] = Counter()
    knight = g.piece_index["knight"]

    def watch(s, _act):
        seen["attached"] += bool(s.attachments)
        seen["fixed"] += bool(s.fixed_roll)
        seen["levels"] += bool(s.piece_levels)
        seen["knights"] += any(s.placed[p][knight] for p in range(players))

    s, kinds = play_bots(g, seed, bots, watch)
    return s, kinds, seen


@pytest.mark.parametrize("players, seed, bots", [(3, 1, "greedy"), (4, 2, "greedy"), (3, 1, "random"),
                                                 (4, 3, "random")])
def test_the_bots_play_it_to_a_victory(players, seed, bots):
    s, kinds, seen = _play(players, seed, bots)
    assert s.reason == "victory" and s.points(s.winner) >= 10, s.reason
    assert kinds["pick_intersection"] > 0  # knights ridden along their roads
    assert kinds["pick_option"] > 0 and seen["fixed"] > 0  # the alchemist fixed a roll
    assert kinds["rule_roll"] > 0  # the prospector rolled
    assert seen["knights"] > 0 and seen["levels"] > 0  # knights mustered at strength 1
    assert seen["attached"] > 0  # a banner raised over a knight
