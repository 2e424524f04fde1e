"""Trade (the base game's domestic and maritime trade): domestic offers composed card by card, answered by
accepting, declining or countering, the proposer's pick; what the rules refuse; what
each seat sees; maritime rates and trade_build. Positions from `catandsl.position`."""

from __future__ import annotations

import json

import pytest

import catandsl
from catandsl.engine import IllegalAction
from catandsl.engine import actions as A
from catandsl.engine.observer import Observer
from catandsl.players import RandomPlayer, UniformPlayer
from tests.budget import count
from tests.conftest import base_game
from tests.engine.helpers import act, blank, give, legal, put, to_main

BRICK, LUMBER, WOOL, GRAIN, ORE = range(5)


@pytest.fixture(scope="module")
def g():
    return base_game()


def position(g, *hands: dict[str, int]):
    """Seat 0's turn past the dice, each seat holding its hand."""
    pos = catandsl.position(g)
    for seat, hand in enumerate(hands):
        pos.hand(seat, **hand)
    return pos.turn(0, rolled=True).state()


def _deals(g):
    return position(g, {"brick": 2, "lumber": 1}, {"ore": 1}, {"wool": 1}, {"ore": 1})


def refused(s, action, code: str, words: str = "", player=None) -> None:
    """The action is refused with this code (and words in its message), the state unchanged."""
    before = s.serialize()
    with pytest.raises(IllegalAction) as e:
        act(s, action, player)
    assert e.value.code == code, e.value
    assert words in e.value.message, e.value.message
    assert s.serialize() == before


def round_trip(s) -> None:
    text = s.serialize()
    back = s.game.deserialize_state(text)
    assert back.serialize() == text and back.legal_actions() == s.legal_actions()
    assert back.current_player() == s.current_player()


def compose(s, give=(), get=(), to=None, propose=True, check=None):
    """Open an offer, put the items on it one action at a time, name the partner, propose."""
    steps = [A.NewOffer()] + [A.OfferAdd("give", x) for x in give] + [A.OfferAdd("get", x) for x in get]
    if to is not None:
        steps.append(A.OfferTo(to))
    if propose:
        steps.append(A.Propose())
    for a in steps:
        act(s, a)
        if check is not None:
            check(s)


def test_an_offer_is_composed_card_by_card_then_accepted(g):
    s = _deals(g)
    bank = list(s.bank)
    act(s, A.NewOffer())
    assert s.current_player() == 0 and s.top().KIND == "composing"
    # what may go on it: the cards P1 holds to give, any kind the others hold to get
    steps = set(legal(s))
    assert {A.OfferAdd("give", "brick"), A.OfferAdd("give", "lumber")} <= steps
    assert A.OfferAdd("give", "ore") not in steps and A.Propose() not in steps
    assert {A.OfferAdd("get", x) for x in ("ore", "wool")} <= steps
    assert A.OfferAdd("get", "grain") not in steps  # nobody else holds grain
    for a in (A.OfferAdd("give", "brick"), A.OfferAdd("give", "brick"), A.OfferAdd("get", "ore")):
        act(s, a)
    assert s.top().give == [2, 0, 0, 0, 0] and s.top().get == [0, 0, 0, 0, 1]
    act(s, A.Propose())
    assert s.top().KIND == "offer" and s.current_player() == 1 and s.offers_made == 1
    assert set(legal(s)) == {A.Accept(), A.Decline(), A.Counter()}
    act(s, A.Accept())
    assert s.current_player() == 2 and set(legal(s)) == {A.Decline(), A.Counter()}  # no ore: no accept
    act(s, A.Decline())
    act(s, A.Accept())
    assert s.current_player() == 0
    # the proposer picks among the acceptances
    assert set(legal(s)) == {A.TradeWith(1), A.TradeWith(3), A.Withdraw()}
    act(s, A.TradeWith(3))
    assert s.hands[0] == [0, 1, 0, 0, 1] and s.hands[3] == [2, 0, 0, 0, 0]
    assert s.hands[1] == [0, 0, 0, 0, 1] and s.hands[2] == [0, 0, 1, 0, 0]
    assert s.bank == bank and not s.pending
    assert A.EndTurn() in legal(s) and s.current_player() == 0


def test_no_caps_five_cards_for_one(g):
    s = position(g, {"brick": 3, "lumber": 2}, {"grain": 1})
    compose(s, give=["brick"] * 3 + ["lumber"] * 2, get=["grain"], to=1)
    assert s.top().give == [3, 2, 0, 0, 0] and s.top().asked == [1]
    act(s, A.Accept())
    act(s, A.TradeWith(1))
    assert s.hands[0] == [0, 0, 0, 1, 0] and s.hands[1] == [3, 2, 0, 0, 0]


def test_only_the_active_player_opens_an_offer_and_only_the_asked_answer(g):
    s = _deals(g)
    refused(s, A.NewOffer(), "action/not_your_turn", player=1)
    compose(s, give=["brick"], get=["ore"])
    refused(s, A.NewOffer(), "action/not_legal")  # an answering player opens no offer of their own
    refused(s, A.Accept(), "action/not_your_turn", player=2)
    refused(s, A.TradeWith(1), "action/not_legal")  # nobody has answered yet


def test_refused_compositions_leave_the_state_as_it_was(g):
    s = _deals(g)
    act(s, A.NewOffer())
    act(s, A.OfferAdd("give", "lumber"))
    refused(s, A.OfferAdd("give", "lumber"), "action/cannot_afford", "all of it")  # holds one lumber
    refused(s, A.OfferAdd("give", "ore"), "action/cannot_afford", "no ore")
    refused(s, A.OfferAdd("get", "lumber"), "action/not_legal", "never swaps a kind for itself")
    refused(s, A.OfferAdd("get", "grain"), "action/not_legal", "hold 0 grain")
    refused(s, A.OfferRemove("give", "brick"), "action/not_legal", "no brick")
    refused(s, A.Propose(), "action/not_legal", "never given away")  # nothing asked for: a gift
    refused(s, A.OfferTo(0), "action/invalid_target")  # not with oneself
    refused(s, A.Accept(), "action/not_legal")
    act(s, A.OfferRemove("give", "lumber"))
    act(s, A.OfferAdd("get", "ore"))
    refused(s, A.Propose(), "action/not_legal", "never given away")  # asking for nothing in return
    # development cards are never traded: no action names one
    with pytest.raises(IllegalAction) as e:
        s.apply_action(A.OfferAdd("give", "knight"))
    assert e.value.code == "action/unknown"
    assert not any(getattr(a, "item", "") in {c.name for c in g.cards} for a in g.actions)


def test_withdrawing_a_draft_and_an_offer_changes_no_hand(g):
    s = _deals(g)
    hands = [h[:] for h in s.hands]
    compose(s, give=["brick"], get=["ore"], propose=False)
    act(s, A.Withdraw())
    assert not s.pending and s.current_player() == 0 and s.offers_made == 0
    compose(s, give=["brick"], get=["ore"])
    act(s, A.Accept())
    act(s, A.Decline())
    act(s, A.Decline())
    act(s, A.Withdraw())
    assert s.hands == hands and not s.pending and s.offers_declined == []  # one accepted: not declined
    compose(s, give=["brick"], get=["ore"])  # so it may be made again
    assert s.top().KIND == "offer"


def test_an_offer_everyone_declined_is_not_made_again_that_turn(g):
    s = _deals(g)
    compose(s, give=["brick"], get=["ore"])
    for _ in range(3):
        act(s, A.Decline())
    assert not s.pending and [o.row() for o in s.offers_declined] == [[0, 0b1110, 1, 0, 0, 0, 0, 0, 0, 0, 0, 1]]
    compose(s, give=["brick"], get=["ore"], propose=False)
    assert A.Propose() not in legal(s)
    refused(s, A.Propose(), "action/not_legal", "declined it this turn")
    act(s, A.OfferTo(1))  # each player asked declined it: to one of them alone neither
    refused(s, A.Propose(), "action/not_legal", "declined it this turn")
    act(s, A.OfferAdd("give", "brick"))  # other terms are another offer
    act(s, A.Propose())
    act(s, A.Decline())
    assert s.offers_declined[-1][:2] == (0, 0b10)
    # declined by P2 alone: to everyone it may go again, to P2 not
    compose(s, give=["brick", "brick"], get=["ore"], to=1, propose=False)
    assert A.Propose() not in legal(s)
    act(s, A.OfferToAll())
    act(s, A.Propose())
    for _ in range(3):
        act(s, A.Decline())
    # the next turn of the same player may make it again
    act(s, A.EndTurn())
    for _ in range(3):
        act(s, A.Roll(2))
        act(s, A.EndTurn())
    to_main(s)
    assert s.offers_made == 0 and s.offers_declined == []
    compose(s, give=["brick"], get=["ore"])
    assert s.top().KIND == "offer"


def test_a_counter_offer_is_composed_the_same_way_and_picked(g):
    s = position(g, {"brick": 2}, {"ore": 1, "wool": 2}, {"grain": 1}, {})
    compose(s, give=["brick"], get=["ore"], to=1)
    act(s, A.Counter())
    # the offer turned round: P2 gives the ore it holds, gets the brick
    assert s.top().draft == [0, 0, 0, 0, 1, 1, 0, 0, 0, 0] and s.current_player() == 1
    refused(s, A.Propose(), "action/not_legal", "accept it")  # the offer's own terms
    refused(s, A.OfferTo(2), "action/not_legal", "goes to the proposer")
    act(s, A.OfferRemove("give", "ore"))
    act(s, A.OfferAdd("give", "wool"))
    act(s, A.OfferAdd("get", "brick"))  # 1 wool for 2 brick
    refused(s, A.OfferAdd("get", "brick"), "action/not_legal", "hold 2 brick")  # P1 holds 2
    act(s, A.Propose())
    assert s.top().counters == [[1, 0, 0, 1, 0, 0, 2, 0, 0, 0, 0]] and s.top().draft == []
    assert s.current_player() == 0 and set(legal(s)) == {A.TradeWith(1), A.Withdraw()}
    act(s, A.TradeWith(1))  # on the counter's terms
    assert s.hands[0] == [0, 0, 1, 0, 0] and s.hands[1] == [2, 0, 1, 0, 1]


def test_withdrawing_a_counter_declines_and_a_counter_needs_the_proposer_to_pay(g):
    s = position(g, {"brick": 1}, {"ore": 1, "wool": 1}, {"ore": 1}, {"ore": 1})
    compose(s, give=["brick"], get=["ore"])
    act(s, A.Counter())
    act(s, A.Withdraw())
    assert s.top().declined == [1] and s.current_player() == 2
    act(s, A.Counter())
    refused(s, A.OfferAdd("get", "brick"), "action/not_legal", "hold 1 brick")  # no more brick anywhere
    act(s, A.OfferRemove("get", "brick"))
    act(s, A.OfferAdd("get", "wool"))  # P3 asks for wool, which P1 does not hold
    act(s, A.Propose())
    act(s, A.Decline())
    assert s.current_player() == 0
    assert set(legal(s)) == {A.Withdraw()}  # the proposer cannot pay that counter
    refused(s, A.TradeWith(2), "action/cannot_afford", "counter-offer")
    refused(s, A.TradeWith(3), "action/not_legal", "took up no offer")
    act(s, A.Withdraw())
    assert not s.pending and s.offers_declined == []  # a counter is no decline


def test_accepting_needs_the_cards_at_accept_time(g):
    s = _deals(g)
    compose(s, give=["brick"], get=["wool"])
    refused(s, A.Accept(), "action/cannot_afford", "what the offer asks")  # P2 holds no wool
    act(s, A.Decline())
    act(s, A.Accept())  # P3 does
    act(s, A.Decline())
    act(s, A.TradeWith(2))
    assert s.hands[2] == [1, 0, 0, 0, 0] and s.hands[0][WOOL] == 1


def test_no_offer_without_anything_to_give(g):
    s = position(g, {}, {"ore": 1})
    assert A.NewOffer() not in legal(s)
    refused(s, A.NewOffer(), "action/cannot_afford", "nothing you hold")
    s = position(g, {"ore": 2}, {"ore": 1})  # only ore on either side: ore for ore is no trade
    assert A.NewOffer() not in legal(s)


def test_round_trip_and_views_at_every_step_of_trades(g):
    """Serialized and read back after every action of a trade; each seat's observation
    shows another's draft as None, and the Observer's tensor of the others does not
    change with what a draft holds."""
    obs = Observer(g)
    seen: list[dict] = []

    def check(s):
        round_trip(s)
        for p in range(4):
            view = s.observation(p)
            json.dumps(view)
            top = view["pending"][-1] if view["pending"] else None
            if top and top["kind"] == "composing" and top["player"] != p:
                assert top["give"] is None and top["get"] is None and view["trade"]["draft"] is None
            if top and top["kind"] == "offer" and not (top["asked"] and top["asked"][0] == p):
                assert top["draft"] is None
        seen.append({p: obs.tensor(s, p) for p in range(4)})

    s = position(g, {"brick": 2, "lumber": 1}, {"ore": 1, "wool": 1}, {"wool": 1}, {"ore": 1})
    compose(s, give=["brick"], get=["ore"], check=check)
    for a in (A.Counter(), A.OfferAdd("get", "brick"), A.Propose(), A.Decline(), A.Accept(), A.TradeWith(3)):
        act(s, a)
        check(s)
    assert s.hands[3] == [1, 0, 0, 0, 0]
    # a draft of brick and one of lumber look alike to every other seat, not to its composer
    a = position(g, {"brick": 2, "lumber": 1}, {"ore": 1})
    b = a.clone()
    compose(a, give=["brick"], get=["ore"], propose=False)
    compose(b, give=["lumber"], get=["ore"], propose=False)
    assert all(obs.tensor(a, p) == obs.tensor(b, p) for p in (1, 2, 3))
    assert obs.tensor(a, 0) != obs.tensor(b, 0)
    d0, d1 = obs.slices["draft_give"]
    assert obs.tensor(a, 0)[d0:d1] == [1, 0, 0, 0, 0]
    # a proposed offer is public: every seat's tensor shows it
    act(a, A.Propose())
    o0, o1 = obs.slices["offer_give"]
    assert all(obs.tensor(a, p)[o0:o1] == [1, 0, 0, 0, 0] for p in range(4))


def test_action_ids_stay_the_same_through_games_with_trades(g):
    table = g.actions
    ids = {a: k for k, a in enumerate(table)}
    other = base_game(4, seed=9)
    assert other.num_distinct_actions() == g.num_distinct_actions()
    assert all(other.action_id[a] == k for a, k in ids.items())
    s = g.new_initial_state()
    seats = [RandomPlayer(k, offers=0.3) for k in range(4)]
    trades = 0
    while not s.is_terminal() and s.actions_applied < 3000:
        a = s.sample_chance() if s.is_chance_node() else seats[s.current_player()].choose(s)
        trades += isinstance(g.actions[a], A.TradeWith)
        s.apply_action(a)
        assert g.num_distinct_actions() == len(table)
    assert trades > 0 and g.actions is table


@pytest.mark.parametrize("player", [RandomPlayer, UniformPlayer])
def test_random_players_games_with_trades_end(player):
    g4 = base_game(4, seed=3)
    trades = offers = 0
    for seed in range(count(3)):
        seats = [player(seed * 10 + p, offers=0.5) if player is RandomPlayer else player(seed * 10 + p)
                 for p in range(4)]
        s = g4.new_initial_state()
        while not s.is_terminal():
            a = s.sample_chance() if s.is_chance_node() else seats[s.current_player()].choose(s)
            kind = g4.actions[a].KIND
            trades += kind == "trade_with"
            offers += kind == "propose"
            s.apply_action(a)
        assert s.reason in ("victory", "turn_limit"), s.reason
    assert trades > 0 and offers > trades


def test_no_domestic_trade_without_the_declaration():
    from catandsl.engine import new_game

    text = open("scenarios/base.catan").read().replace("uses base", "uses base\n  without trade domestic", 1)
    sc = catandsl.compile(catandsl.parse(text, "scenarios/nodomestic.catan"))
    g = new_game(sc, players=4)
    assert not any(isinstance(a, (A.NewOffer, A.OfferAdd, A.Propose, A.TradeWith)) for a in g.actions)


@pytest.mark.parametrize("mode", ["combined", "separate"])
def test_trade_build_option(mode):
    g = base_game(options={"trade_build": mode})
    s = blank(g)
    put(s, 0, "settlement", 32)
    give(s, 0, 6, 5, 1, 0, 0)
    give(s, 1, 0, 0, 0, 0, 1)
    to_main(s)
    assert A.BankTrade("brick", "ore") in legal(s) and A.NewOffer() in legal(s)
    act(s, A.BankTrade("brick", "ore"))  # trading before building is always fine
    road = g.board.corner_paths[32][0]
    act(s, A.Build("road", road))
    trades = [a for a in legal(s) if isinstance(a, (A.BankTrade, A.NewOffer))]
    if mode == "combined":
        assert A.BankTrade("lumber", "ore") in trades and A.NewOffer() in trades
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
