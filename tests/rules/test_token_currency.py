"""Tokens as a currency (Traders & Barbarians' gold): gold given at the end of the set-up, an action
that costs tokens (2 gold buy 1 resource, at most twice a turn), gold in domestic
offers, a toll between players (`pay_tokens`), and gold that is never a resource card
(no discard, no Monopoly, no bank trade). On a three-hex map with two players."""

from __future__ import annotations

import pytest

import catandsl
from catandsl.compiler import compile_path
from catandsl.engine import IllegalAction
from catandsl.engine import actions as A
from catandsl.rules.hands import monopoly
from catandsl.rules.sites import pay_tokens, return_tokens
from tests.conftest import THREE_HEXES, game_of

SCENARIO = """
scenario "Gold" {
  uses base
  players 2..3
  token gold { supply 40 }
  trade domestic {
    tokens gold
  }
  action buy_resource "Buy a resource" {
    cost 2 gold
    per_turn 2
    on take { take_from_bank(player, choose_from_bank(player), 1) }
  }
  action tip "Tip the others" {
    on take {
      for p in players() {
        if p != player { pay_tokens(player, p, gold, 3) }
      }
    }
  }
  rule starting_gold {
    on setup_ended {
      for p in players() { give_tokens(p, gold, 5) }
    }
  }
  turn {
    phase roll { roll; play }
    phase main { trade; build; buy; play; buy_resource; tip }
  }
""" + THREE_HEXES


@pytest.fixture(scope="module")
def game(tmp_path_factory):
    return game_of(tmp_path_factory, SCENARIO, players=2)


def act(s, action, player=None):
    s.apply_action(s.game.action_id[action], player)


def names(s):
    return [s.game.actions[k] for k in s.legal_actions()]


def started(game):
    """Past the set-up, player 0 in the main phase, empty hands and the gold of the set-up."""
    s = game.new_initial_state()
    act(s, A.StartPlayer(0))
    while s.stage == "setup":
        s.apply_action(s.legal_actions()[0])
    s.bank = [b + sum(h[r] for h in s.hands) for r, b in enumerate(s.bank)]
    s.hands = [[0] * len(game.resources) for _ in s.hands]
    s.changed()
    if not s.is_chance_node():
        act(s, A.RollDice())
    act(s, A.Roll(3))  # no hex has a 3
    return s


def gold_of(s, p):
    return s.tokens_held[p][0]


def set_gold(s, p, n):
    s.token_supply[0] += gold_of(s, p) - n
    s.tokens_held[p][0] = n
    s.changed()


def conserved(s):
    return s.token_supply[0] + sum(h[0] for h in s.tokens_held) == 40


def test_every_player_takes_five_gold_when_the_set_up_ends(game):
    s = started(game)
    assert [gold_of(s, p) for p in (0, 1)] == [5, 5] and s.token_supply == [30]


def test_two_gold_buy_a_resource_at_most_twice_a_turn(game):
    s = started(game)
    set_gold(s, 0, 7)
    ore = game.res_index["ore"]
    for k in (1, 2):
        assert A.TakeAction("buy_resource") in names(s)
        act(s, A.TakeAction("buy_resource"))
        act(s, A.ChooseResource("ore"))
        assert s.hands[0][ore] == k and gold_of(s, 0) == 7 - 2 * k
    assert conserved(s) and s.token_supply == [28 + 4]  # paid back to the supply
    assert A.TakeAction("buy_resource") not in names(s)
    before = s.serialize()
    with pytest.raises(IllegalAction) as err:  # the third time in a turn
        act(s, A.TakeAction("buy_resource"))
    assert err.value.code == "action/not_legal" and "2 time(s)" in str(err.value)
    assert s.serialize() == before
    # the next turn of player 0 allows it again
    for _ in range(2):
        act(s, A.EndTurn())
        if not s.is_chance_node():
            act(s, A.RollDice())
        act(s, A.Roll(3))
    assert s.turn_player == 0 and A.TakeAction("buy_resource") in names(s)


def test_one_gold_buys_nothing(game):
    s = started(game)
    set_gold(s, 0, 1)
    assert A.TakeAction("buy_resource") not in names(s)
    before = s.serialize()
    with pytest.raises(IllegalAction) as err:
        act(s, A.TakeAction("buy_resource"))
    assert err.value.code == "action/cannot_afford" and s.serialize() == before


def test_gold_is_not_a_resource_card(game):
    s = started(game)
    set_gold(s, 0, 30)
    # no bank trade: 30 gold and no cards trade nothing with the bank
    assert not any(isinstance(a, A.BankTrade) for a in names(s))
    # Monopoly takes cards, never gold
    set_gold(s, 1, 5)
    monopoly(s, 0, "ore")
    assert gold_of(s, 1) == 5 and gold_of(s, 0) == 30
    # a 7 with 8 cards and 30 gold: half of the 8 cards are discarded, the gold stays
    act(s, A.EndTurn())
    if not s.is_chance_node():
        act(s, A.RollDice())
    s.hands[0] = [2, 2, 2, 1, 1]
    s.bank = [b - h for b, h in zip(s.bank, s.hands[0])]
    s.changed()
    act(s, A.Roll(7))
    assert s.current_player() == 0
    discards = [a for a in names(s) if isinstance(a, A.Discard)]
    assert discards
    for _ in range(4):
        act(s, A.Discard("brick") if s.hands[0][0] else A.Discard("lumber"))
    assert sum(s.hands[0]) == 4 and gold_of(s, 0) == 30


def card(s, p, name):
    """Player p takes one card of resource `name` from the bank; its index."""
    r = s.game.res_index[name]
    s.hands[p][r] += 1
    s.bank[r] -= 1
    s.changed()
    return r


def offer(s, give, get, propose=True):
    """Open an offer, put each item on its side one action at a time, propose it."""
    act(s, A.NewOffer())
    for x in give:
        act(s, A.OfferAdd("give", x))
    for x in get:
        act(s, A.OfferAdd("get", x))
    if propose:
        act(s, A.Propose())


def test_gold_offered_for_a_card_and_accepted(game):
    s = started(game)
    ore = card(s, 1, "ore")
    offer(s, ["gold", "gold"], ["ore"])
    assert set(names(s)) == {A.Accept(), A.Decline(), A.Counter()}
    act(s, A.Accept())
    act(s, A.TradeWith(1))
    assert s.hands[0][ore] == 1 and s.hands[1][ore] == 0
    assert gold_of(s, 0) == 3 and gold_of(s, 1) == 7 and conserved(s)


def test_any_amount_of_gold_and_never_gold_for_gold(game):
    s = started(game)
    ore = card(s, 1, "ore")
    act(s, A.NewOffer())
    for _ in range(5):  # all the gold the player holds: no cap on a side
        act(s, A.OfferAdd("give", "gold"))
    before = s.serialize()
    with pytest.raises(IllegalAction) as err:
        act(s, A.OfferAdd("give", "gold"))  # a sixth: holds 5
    assert err.value.code == "action/cannot_afford" and s.serialize() == before
    with pytest.raises(IllegalAction) as err:
        act(s, A.OfferAdd("get", "gold"))  # gold for gold
    assert err.value.code == "action/not_legal" and s.serialize() == before
    act(s, A.OfferAdd("get", "ore"))
    act(s, A.Propose())
    act(s, A.Accept())
    act(s, A.TradeWith(1))
    assert gold_of(s, 0) == 0 and gold_of(s, 1) == 10 and s.hands[0][ore] == 1 and conserved(s)


def test_gold_asked_for_and_declined(game):
    s = started(game)
    wool = card(s, 0, "wool")
    offer(s, ["wool"], ["gold", "gold"])
    act(s, A.Decline())
    assert s.top().KIND != "offer"  # everyone declined: the offer lapsed
    assert s.hands[0][wool] == 1 and [gold_of(s, 0), gold_of(s, 1)] == [5, 5] and conserved(s)
    offer(s, ["wool"], ["gold", "gold"], propose=False)
    assert A.Propose() not in names(s)  # not again this turn


def test_an_offer_needs_the_gold_on_both_sides(game):
    s = started(game)
    set_gold(s, 0, 1)
    set_gold(s, 1, 0)
    card(s, 1, "ore")
    act(s, A.NewOffer())
    act(s, A.OfferAdd("give", "gold"))
    assert A.OfferAdd("give", "gold") not in names(s)  # the proposer holds one
    act(s, A.Withdraw())
    card(s, 0, "wool")
    offer(s, ["wool"], [], propose=False)
    before = s.serialize()
    with pytest.raises(IllegalAction) as err:  # nobody else holds gold to give
        act(s, A.OfferAdd("get", "gold"))
    assert err.value.code == "action/not_legal" and "hold 0 gold" in err.value.message
    assert s.serialize() == before


def test_a_toll_moves_gold_between_players_and_stops_at_what_the_payer_holds(game):
    s = started(game)
    act(s, A.TakeAction("tip"))
    assert [gold_of(s, 0), gold_of(s, 1)] == [2, 8] and conserved(s)
    pay_tokens(s, 0, 1, "gold", 3)  # holds 2: pays 2
    assert [gold_of(s, 0), gold_of(s, 1)] == [0, 10]
    pay_tokens(s, 0, 1, "gold", 3)  # holds none: pays nothing
    assert [gold_of(s, 0), gold_of(s, 1)] == [0, 10]
    return_tokens(s, 1, "gold", 4)  # a payment to the supply
    assert gold_of(s, 1) == 6 and s.token_supply == [34] and conserved(s)


def _compile(tmp_path, text):
    path = tmp_path / "t.catan"
    path.write_text(text, encoding="utf-8")
    _, diags, _ = compile_path(path)
    return [(d.code, d.message) for d in diags]


def test_a_trade_with_tokens_adds_a_few_actions_per_token(tmp_path):
    """Offers are composed item by item: a token traded adds its steps, not a bundle per
    count of it (`cards`, `offers_per_turn` and a count after a token are gone)."""
    assert _compile(tmp_path, SCENARIO) == []
    g = catandsl.new_game(catandsl.load(_write(tmp_path, SCENARIO)), 2, {}, 1)
    plain = catandsl.new_game(catandsl.load(_write(tmp_path, SCENARIO.replace(
        "trade domestic {\n    tokens gold\n  }", "trade domestic"))), 2, {}, 1)
    steps = {"offer_add", "offer_remove"}
    assert sum(a.KIND in steps for a in g.actions) == sum(a.KIND in steps for a in plain.actions) + 4
    for old, new, words in (("tokens gold", "tokens gold 3", "any number of tokens"),
                            ("tokens gold", "cards 2", "`cards` is no longer"),
                            ("tokens gold", "offers_per_turn 3", "`offers_per_turn` is no longer")):
        diags = _compile(tmp_path, SCENARIO.replace(old, new))
        assert [c for c, _ in diags] == ["E0304"] and words in diags[0][1], diags


def _write(tmp_path, text):
    path = tmp_path / "t.catan"
    path.write_text(text, encoding="utf-8")
    return path


@pytest.mark.parametrize("old, new, code", [
    ("tokens gold", "tokens silver", "E0302"),
    ("tokens gold", "tokens gold, gold", "E0304"),
    ("cost 2 gold", "cost 2 silver", "E0302"),
    ("token gold { supply 40 }", "token gold { supply 40 }\n  resources brick, lumber, wool, grain, ore, gold",
     "E0304"),
])
def test_bad_token_trades_and_costs(tmp_path, old, new, code):
    diags = _compile(tmp_path, SCENARIO.replace(old, new))
    assert code in [c for c, _ in diags], diags
