"""Cards moved by rules (rules/card_draws.py): a card drawn at random from a deck at a
chance node (weights: the cards left), handed to a player, and set aside for good."""

from __future__ import annotations

import pytest

from catandsl.engine import actions as A
from catandsl.rules.card_draws import set_aside, take_card
from tests.conftest import THREE_HEXES, game_of

SCENARIO = """
scenario "Gift" {
  uses base
  players 2..3
  rule gift {
    on dice_rolled(5) {
      let c = draw_card(development)
      take_card(player, c)
    }
  }
""" + THREE_HEXES


@pytest.fixture(scope="module")
def game(tmp_path_factory):
    return game_of(tmp_path_factory, SCENARIO, players=2)


def rolled_five(game):
    s = game.new_initial_state()
    s.apply_action(game.action_id[A.StartPlayer(0)])
    while s.stage == "setup":
        s.apply_action(s.legal_actions()[0])
    if not s.is_chance_node():
        s.apply_action(game.action_id[A.RollDice()])
    s.apply_action(game.action_id[A.Roll(5)])
    return s


def test_a_drawn_card_is_a_chance_node_weighted_by_the_cards_left(game):
    s = rolled_five(game)
    assert s.is_chance_node()
    odds = {game.actions[a].card: p for a, p in s.chance_outcomes()}
    total = sum(c.count for c in game.cards)
    assert odds == {c.name: c.count / total for c in game.cards}
    knight = game.card_index["knight"]
    before = s.deck[knight]
    s.apply_action(game.action_id[A.DrawnCard("knight")])
    assert s.cards[0][knight] == 1 and s.deck[knight] == before - 1
    assert s.new_cards[knight] == 1  # given on the player's own turn: as if bought now
    assert not s.is_chance_node()


def test_an_empty_deck_draws_nothing_and_take_and_set_aside_keep_cards_conserved(game):
    s = rolled_five(game)
    s.apply_action(game.action_id[A.DrawnCard("monopoly")])
    m = game.card_index["monopoly"]
    take_card(s, 1, "monopoly")
    take_card(s, 1, "monopoly")  # the base deck holds 2 monopoly cards
    assert s.deck[m] == 0 and s.cards[1][m] == 1
    set_aside(s, 1, "monopoly")
    set_aside(s, 1, "monopoly")  # holds none now: nothing happens
    assert s.cards[1][m] == 0 and s.discarded[m] == 1
    total = s.deck[m] + sum(h[m] for h in s.cards) + sum(p[m] for p in s.played) + s.discarded[m]
    assert total == game.cards[m].count
    game.deserialize_state(s.serialize())  # the checks on load agree
