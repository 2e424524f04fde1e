"""A deck that reshuffles (`reshuffle` in a deck): when it runs out, the cards played
from it and the cards set aside go back into it, and the next draw is from them."""

from __future__ import annotations

import pytest

from catandsl.engine import actions as A
from tests.conftest import THREE_HEXES, compile_text, game_of, played_to_first_roll
from tests.engine.soundness import check_cheap

SOURCE = """
scenario sparks "Sparks" {
  uses base
  deck sparks {
    cost ore
    play 1 per turn, the turn bought
    reshuffle
    card spark 2 {
      on play { take_from_bank(player, grain, 1) }
    }
  }
""" + THREE_HEXES


@pytest.fixture(scope="module")
def ready(tmp_path_factory):
    game = game_of(tmp_path_factory, SOURCE, name="sparks")
    s = played_to_first_roll(game)
    s.apply_action(game.action_id[A.Roll(8)])  # on to the main phase, nobody robbed
    return game, s


def _give_ore(game, s, me):
    ore = game.res_index["ore"]
    s.bank[ore] -= 3
    s.hands[me][ore] += 3  # from the bank, so the cards add up
    s.changed()


def _buy(game, s, me):
    s.apply_action(game.action_id[A.BuyCard("sparks")])
    assert s.is_chance_node()
    s.apply_action(game.action_id[A.Draw("sparks", "spark")])


def test_a_played_card_comes_back_when_the_deck_runs_out(ready):
    game, s0 = ready
    s = s0.clone()
    me = s.current_player()
    spark = game.card_index["spark"]
    _give_ore(game, s, me)
    _buy(game, s, me)
    s.apply_action(game.action_id[A.PlayCard("spark")])
    assert s.played[me][spark] == 1 and s.deck[spark] == 1
    _buy(game, s, me)  # the last card: the played one goes back at once
    assert s.deck[spark] == 1 and s.played[me][spark] == 0 and s.cards[me][spark] == 1
    assert game.action_id[A.BuyCard("sparks")] in s.legal_actions()
    check_cheap(s)


def test_a_deck_without_reshuffle_stays_empty(ready, tmp_path_factory):
    game = game_of(tmp_path_factory, SOURCE.replace("    reshuffle\n", ""), name="no_reshuffle")
    s = played_to_first_roll(game)
    s.apply_action(game.action_id[A.Roll(8)])
    me = s.current_player()
    spark = game.card_index["spark"]
    _give_ore(game, s, me)
    _buy(game, s, me)
    s.apply_action(game.action_id[A.PlayCard("spark")])
    _buy(game, s, me)
    assert s.deck[spark] == 0 and s.played[me][spark] == 1
    assert game.action_id[A.BuyCard("sparks")] not in s.legal_actions()


def test_reshuffle_takes_no_argument(tmp_path):
    _, diags = compile_text(tmp_path, SOURCE.replace("    reshuffle\n", "    reshuffle 2\n"))
    assert [d.code for d in diags] == ["E0304"]
