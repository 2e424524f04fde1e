"""Trade (RULES.md A.5, A.8): domestic offers and answers, maritime rates, trade_build."""

from __future__ import annotations

import pytest

from catandsl.engine import IllegalAction
from catandsl.engine import actions as A
from tests.engine.helpers import act, blank, game, give, legal, put, to_main


@pytest.fixture
def g():
    return game()


def _offer_position(g):
    s = blank(g)
    give(s, 0, 2, 1, 0, 0, 0)
    give(s, 1, 0, 0, 0, 0, 1)
    give(s, 2, 0, 0, 1, 0, 0)
    give(s, 3, 0, 0, 0, 0, 1)
    to_main(s)
    return s


def test_only_the_active_player_offers(g):
    s = _offer_position(g)
    offer = A.Offer("brick+brick", "ore")
    assert offer in legal(s)
    before = s.serialize()
    with pytest.raises(IllegalAction) as e:
        act(s, offer, player=1)
    assert e.value.code == "action/not_your_turn"
    assert s.serialize() == before
    act(s, offer)
    # player 1 answers; an answering player may not make an offer of their own
    assert s.current_player() == 1
    assert set(legal(s)) == {A.Accept(), A.Decline()}
    before = s.serialize()
    with pytest.raises(IllegalAction):
        act(s, A.Offer("ore", "wool"))
    assert s.serialize() == before


def test_accept_moves_exactly_the_cards(g):
    s = _offer_position(g)
    bank = list(s.bank)
    act(s, A.Offer("brick+brick", "ore"))
    act(s, A.Accept())
    assert s.current_player() == 2
    assert legal(s) == [A.Decline()]  # holds no ore: may only decline
    act(s, A.Decline())
    act(s, A.Accept())  # player 3 holds an ore too
    assert s.current_player() == 0
    assert set(legal(s)) == {A.TradeWith(1), A.TradeWith(3), A.CancelOffer()}
    act(s, A.TradeWith(3))
    assert s.hands[0] == [0, 1, 0, 0, 1]
    assert s.hands[3] == [2, 0, 0, 0, 0]
    assert s.hands[1] == [0, 0, 0, 0, 1] and s.hands[2] == [0, 0, 1, 0, 0]
    assert s.bank == bank
    assert A.EndTurn() in legal(s) and s.current_player() == 0


def test_cannot_offer_what_you_do_not_hold(g):
    s = _offer_position(g)
    offers = [a for a in legal(s) if isinstance(a, A.Offer)]
    assert offers and all(a.give in ("brick", "lumber", "brick+brick", "brick+lumber")
                          for a in offers)
    before = s.serialize()
    with pytest.raises(IllegalAction) as e:
        act(s, A.Offer("lumber+lumber", "ore"))
    assert e.value.code == "action/cannot_afford"
    assert s.serialize() == before
    # the same resource on both sides, or more cards than a bundle holds, is no action
    assert A.Offer("brick", "brick") not in g.action_id
    assert A.Offer("brick", "brick+ore") not in g.action_id
    assert A.Offer("brick+brick+brick", "ore") not in g.action_id


def test_decline_or_cancel_leaves_hands_unchanged(g):
    s = _offer_position(g)
    hands = [h[:] for h in s.hands]
    act(s, A.Offer("brick", "ore"))
    for _ in range(3):
        act(s, A.Decline())
    assert s.hands == hands and not s.pending and s.current_player() == 0
    act(s, A.Offer("lumber", "ore"))  # brick for ore all declined: not again this turn
    act(s, A.Accept())
    act(s, A.Decline())
    act(s, A.Decline())
    act(s, A.CancelOffer())
    assert s.hands == hands and s.current_player() == 0


def test_an_offer_all_declined_is_not_made_again_that_turn_and_offers_are_bounded(g):
    s = _offer_position(g)
    act(s, A.Offer("brick", "ore"))
    for _ in range(3):
        act(s, A.Decline())
    assert A.Offer("brick", "ore") not in legal(s)
    before = s.serialize()
    with pytest.raises(IllegalAction) as refused:
        act(s, A.Offer("brick", "ore"))
    assert refused.value.code == "action/not_legal" and "declined" in refused.value.message
    assert s.serialize() == before
    # other offers go on, up to the declared number a turn (3 in base.catan)
    act(s, A.Offer("brick", "wool"))
    act(s, A.Decline())
    act(s, A.Accept())  # player 2 holds wool
    act(s, A.Decline())
    act(s, A.CancelOffer())
    act(s, A.Offer("brick", "grain"))
    for _ in range(3):
        act(s, A.Decline())
    assert s.offers_made == 3 and not any(isinstance(a, A.Offer) for a in legal(s))
    with pytest.raises(IllegalAction) as refused:
        act(s, A.Offer("brick", "lumber"))
    assert "3 offers a turn" in refused.value.message
    # the next turn of the same player may offer again, the declined one included
    act(s, A.EndTurn())
    for _ in range(3):
        act(s, A.Roll(2))
        act(s, A.EndTurn())
    to_main(s)
    assert s.offers_made == 0 and A.Offer("brick", "ore") in legal(s)


def test_no_domestic_trade_without_the_declaration():
    import catandsl
    from catandsl.engine import new_game

    text = open("scenarios/base.catan").read().replace("uses base", "uses base\n  without trade domestic", 1)
    sc = catandsl.compile(catandsl.parse(text, "scenarios/nodomestic.catan"))
    g = new_game(sc, players=4)
    assert not any(isinstance(a, A.Offer) for a in g.actions)


@pytest.mark.parametrize("mode", ["combined", "separate"])
def test_trade_build_option(mode):
    g = game(options={"trade_build": mode})
    s = blank(g)
    put(s, 0, "settlement", 32)
    give(s, 0, 6, 5, 1, 0, 0)
    to_main(s)
    assert A.BankTrade("brick", "ore") in legal(s) and A.Offer("wool", "ore") in legal(s)
    act(s, A.BankTrade("brick", "ore"))  # trading before building is always fine
    road = g.board.corner_paths[32][0]
    act(s, A.Build("road", road))
    trades = [a for a in legal(s) if isinstance(a, (A.BankTrade, A.Offer))]
    if mode == "combined":
        assert A.BankTrade("lumber", "ore") in trades and A.Offer("wool", "ore") in trades
    else:
        assert trades == []
        assert any(isinstance(a, A.Build) for a in legal(s))  # building goes on
        act(s, A.EndTurn())
        for _ in range(3):
            act(s, A.Roll(2))
            act(s, A.EndTurn())
        give(s, 0, 4, 0, 0, 0, 0)
        to_main(s)
        assert A.BankTrade("brick", "ore") in legal(s)  # a new turn trades again


