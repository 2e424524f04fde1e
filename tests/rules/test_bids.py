"""Bids (catandsl/rules/bids.py): `choose_number` names a number everyone hears;
`sealed_bid` has each listed player name one in secret, written to their counters once
all have bid."""

from __future__ import annotations

import random

import pytest

from catandsl.engine import actions as A
from catandsl.rules.words import describe
from tests.conftest import THREE_HEXES, compile_text, game_of, played_to_first_roll
from tests.engine.soundness import check_cheap

SOURCE = """
scenario auction "The Auction" {
  uses base
  counter bid
  rule auction {        # on a 12 everyone bids ore in secret; the highest bid wins a knight
    on dice_rolled(12) {
      sealed_bid(players(), bid, 0, 3)
      var best = 0
      var winner = player
      for p in players() {
        if counter(p, bid) > best and cards_of(p, ore) >= counter(p, bid) {
          best = counter(p, bid)
          winner = p
        }
      }
      if best > 0 {
        return_to_bank(winner, ore, best)
        take_card(winner, knight)
      }
    }
  }
  rule raise {          # on a 2 the roller names how much grain they take, 0 to 2
    on dice_rolled(2) { take_from_bank(player, grain, choose_number(player, 0, 2)) }
  }
""" + THREE_HEXES


@pytest.fixture(scope="module")
def ready(tmp_path_factory):
    game = game_of(tmp_path_factory, SOURCE, name="auction")
    return game, played_to_first_roll(game)


def _ore(game, s, p, n):
    ore = game.res_index["ore"]
    s.bank[ore] += s.hands[p][ore] - n
    s.hands[p][ore] = n
    s.changed()


def test_sealed_bids_are_secret_till_all_are_in(ready):
    game, s0 = ready
    s = s0.clone()
    n = game.num_players
    for p in range(n):
        _ore(game, s, p, 3)
    s.apply_action(game.action_id[A.Roll(12)])
    order = list(range(n))  # players() lists the seats in order
    bids = [1, 3, 2]
    knight = game.card_index["knight"]
    for k, p in enumerate(order):
        assert s.current_player() == p
        assert sorted(game.actions[a] for a in s.legal_actions()) == [A.Bid(x) for x in range(4)]
        if k:  # what came before is hidden from this bidder, and from the others
            seen = s.observation(p)["pending"][-1]["bids"]
            assert seen == [None] * k
        act = game.action_id[A.Bid(bids[k])]
        assert "3" not in describe(game, act, viewer=(p + 1) % n, state=s).replace("a sealed bid", "")
        s.apply_action(act)
    counter = game.counter_names.index("bid")
    assert [s.counters[p][counter] for p in order] == bids
    assert s.cards[1][knight] == 1 and s.hands[1][game.res_index["ore"]] == 0
    check_cheap(s)


def test_a_resample_draws_the_other_bids_afresh(ready):
    game, s0 = ready
    s = s0.clone()
    s.apply_action(game.action_id[A.Roll(12)])
    s.apply_action(game.action_id[A.Bid(3)])  # seat 0's secret
    seen = [s.resample_from_infostate(1, random.Random(k)).pending[-1].bids[0] for k in range(20)]
    assert set(seen) - {3}  # drawn, not read
    assert s.resample_from_infostate(0, random.Random(1)).pending[-1].bids == [3]


def test_an_open_number_is_the_rules_value(ready):
    game, s0 = ready
    s = s0.clone()
    me = s.turn_player
    grain = game.res_index["grain"]
    before = s.hands[me][grain]
    s.apply_action(game.action_id[A.Roll(2)])
    assert sorted(game.actions[a] for a in s.legal_actions()) == [A.PickNumber(x) for x in range(3)]
    s.apply_action(game.action_id[A.PickNumber(2)])
    assert s.hands[me][grain] == before + 2


@pytest.mark.parametrize("old, new, code", [
    ("sealed_bid(players(), bid, 0, 3)", "sealed_bid(players(), bid, 0, 300)", "E0511"),
    ("sealed_bid(players(), bid, 0, 3)", "sealed_bid(players(), ore, 0, 3)", "E0504"),
    ("choose_number(player, 0, 2)", "choose_number(player, 0, 101)", "E0511"),
])
def test_misuse_is_a_diagnostic(tmp_path, old, new, code):
    _, diags = compile_text(tmp_path, SOURCE.replace(old, new))
    assert [d.code for d in diags] == [code]
