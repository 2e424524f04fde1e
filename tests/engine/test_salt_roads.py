"""The Salt Roads (examples/scenarios/salt_roads.catan), the example of several
travellers of a kind as a rule's target (choose_traveller, travellers, send_traveller,
add_travel_points_on) and of harbors placed on more spots than tokens and lifted by a
rule (lift_harbor): greedy and random bots play it to a victory, the state checked after
every action, and the constructs take part."""

from __future__ import annotations

import pytest

import catandsl
from tests.conftest import ROOT
from tests.engine.soundness import play_bots

PATH = ROOT / "examples" / "scenarios" / "salt_roads.catan"
TOKENS = 7  # harbor tokens, on nine spots


@pytest.mark.parametrize("players, seed, bots", [(3, 1, "greedy"), (4, 2, "greedy"), (3, 1, "random"),
                                                 (4, 2, "random")])
def test_the_bots_play_it_to_a_victory(players, seed, bots):
    g = catandsl.new_game(catandsl.load(PATH), players, {}, seed)
    wagon = g.piece_index["wagon"]
    most_wagons = 0

    def watch(s, _act):
        nonlocal most_wagons
        most_wagons = max(most_wagons, max(s.placed[p][wagon] for p in range(players)))

    s, kinds = play_bots(g, seed, bots, watch)
    assert s.reason == "victory" and s.points(s.winner) >= 10, s.reason
    assert most_wagons == 2 and kinds["travel"] > 0  # a player drove two wagons
    assert kinds["pick_traveller"] > 0  # an ambush or a tailwind picked one of them
    # the set-up lays at most one token a step; a storm lifted one that was laid again
    assert kinds["place_harbor"] > min(2 * players, TOKENS)
    assert sum(s.tokens_held[p][g.token_index["salt"]] for p in range(players)) > 0  # salt sold at a market
