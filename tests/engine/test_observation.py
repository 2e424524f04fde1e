"""observation(player): what one player may see (hidden information)."""

from __future__ import annotations

from catandsl.engine import actions as A
from tests.conftest import base_game
from tests.engine.helpers import act, blank, give, put, to_main


def _with_cards(g, hidden: str, hand, other):
    """Player 1 holds one `hidden` development card and `hand`; player 2 holds `other`
    (so that the bank is the same in every variant)."""
    s = blank(g)
    put(s, 1, "settlement", 18)
    c = g.card_index[hidden]
    s.cards[1][c] += 1
    s.deck[c] -= 1
    give(s, 1, *hand)
    give(s, 2, *other)
    give(s, 0, 1, 0, 0, 2, 0)
    s.changed()
    to_main(s)
    return s


def test_observation_ignores_another_players_hidden_cards():
    g = base_game()
    a = _with_cards(g, "knight", (1, 0, 2, 0, 0), (0, 1, 0, 1, 1))
    b = _with_cards(g, "victory_point", (0, 1, 0, 1, 1), (1, 0, 2, 0, 0))
    assert a.serialize() != b.serialize()
    assert a.observation(0) == b.observation(0)
    assert a.observation(3) == b.observation(3)
    assert a.observation(1) != b.observation(1)  # player 1 sees their own cards
    obs = a.observation(0)
    assert obs["hands"][0] == [1, 0, 0, 2, 0] and obs["hands"][1] == 3
    assert obs["cards"][1] == 1 and obs["deck"] == sum(a.deck)
    assert "seed" not in obs
    assert obs["scores"] == [0, 1, 0, 0]  # the VP card of b stays hidden too
    assert b.observation(0)["scores"] == [0, 1, 0, 0] and b.observation(1)["scores"][1] == 2


def test_observation_hides_a_stolen_cards_identity_and_leaves_the_state_alone():
    g = base_game()
    states = []
    for stolen in ("brick", "wool"):
        s = blank(g)
        put(s, 1, "settlement", 18)
        give(s, 1, 1, 0, 1, 0, 0)
        act(s, A.Roll(7))
        act(s, A.Move("robber", 5))
        act(s, A.Steal(1))
        act(s, A.Stolen(stolen))
        states.append(s)
    a, b = states
    assert a.hands[0] != b.hands[0]
    for p in (2, 3):
        assert a.observation(p) == b.observation(p)
    before = a.serialize()
    a.observation(2)
    assert a.serialize() == before
