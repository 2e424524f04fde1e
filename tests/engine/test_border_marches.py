"""The Border Marches (examples/scenarios/border_marches.catan), the example of the
constructs for authors it is built on: random and greedy bots play it to the end, the
state checked after every action, and each construct takes part in the games."""

from __future__ import annotations

import pytest

import catandsl
from tests.conftest import ROOT
from tests.engine.soundness import play_bots

PATH = ROOT / "examples" / "scenarios" / "border_marches.catan"


def _play(players: int, seed: int, bots: str):
    g = catandsl.new_game(catandsl.load(PATH), players, {}, seed)
    tidings = 0
    most_levels = 0

    def watch(s, act):
        nonlocal tidings, most_levels
        if act.KIND == "draw" and act.deck == "tidings" or act.KIND == "drawn_card" and act.card in ("spy", "muster"):
            tidings += 1  # a tiding drawn, bought or won
        most_levels = max(most_levels, len(s.piece_levels))

    s, kinds = play_bots(g, seed, bots, watch)
    kinds["tiding"] = tidings
    return g, s, kinds, most_levels


@pytest.mark.parametrize("players, seed, bots", [(3, 3, "greedy"), (4, 5, "greedy"), (4, 3, "random"),
                                                 (3, 5, "random")])
def test_the_bots_play_it_to_a_victory(players, seed, bots):
    g, s, kinds, most_levels = _play(players, seed, bots)
    assert s.reason == "victory", s.reason
    assert kinds["bid"] > 0 and kinds["take_from_hand"] > 0  # sealed bids, a spy
    assert kinds["stacked"] == 3 and kinds["drawn_from_stack"] > 0  # a stack laid out, drawn from
    tidings = sum(c.count for c in g.cards if g.decks[c.deck].name == "tidings")
    assert kinds["tiding"] > tidings - 3  # more drawn than the deck held beside its stack: it reshuffled
    keep, bridge = g.piece_index["keep"], g.piece_index["bridge"]
    assert any(s.placed[p][keep] for p in range(players))  # on a settlement or a city
    assert any(s.placed[p][bridge] for p in range(players))
    assert most_levels > 0  # garrisons drilled
    assert any(sum(row) for row in s.pieces_lost)  # raiders burnt roads from a supply
