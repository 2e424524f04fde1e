"""Cards moved from a deck into a separate stack (catandsl/rules/stacks.py):
`stack_cards` deals them face down at random, `draw_from_stack` and `take_from_stack`
hand one over, `stack_size` counts them; the stack is hidden as the deck is."""

from __future__ import annotations

import random

import pytest

from catandsl.engine import actions as A
from tests.conftest import THREE_HEXES, compile_text, game_of, played_to_first_roll
from tests.engine.soundness import check_cheap

SOURCE = """
scenario reserve "The Reserve" {
  uses base
  rule lay_out {        # at the start, five development cards go face down onto a stack
    on setup_ended { stack_cards(development, 5) }
  }
  rule reward {         # a 12 gives the roller a card from the stack while it lasts
    on dice_rolled(12) {
      if stack_size(development) > 0 { take_from_stack(player, draw_from_stack(development)) }
    }
  }
""" + THREE_HEXES


@pytest.fixture(scope="module")
def ready(tmp_path_factory):
    from catandsl.rules.stacks import Stacking

    game = game_of(tmp_path_factory, SOURCE, name="reserve")
    s = played_to_first_roll(game, roll=False)
    while s.pending and isinstance(s.pending[-1], Stacking):  # the five cards, by chance
        s.apply_action(s.sample_chance())
    assert s.is_chance_node() and not s.pending  # the first roll of the dice
    return game, s


def test_five_cards_lie_on_the_stack_and_a_twelve_hands_one_over(ready):
    game, s0 = ready
    s = s0.clone()
    assert sum(s.stacked) == 5 and sum(s.deck) == 25 - 5
    me = s.turn_player
    s.apply_action(game.action_id[A.Roll(12)])
    assert s.is_chance_node()  # which card comes off the stack
    outcomes = {game.actions[a] for a, _ in s.chance_outcomes()}
    assert outcomes == {A.DrawnFromStack(c.name) for c in game.cards if s.stacked[c.index]}
    card = next(c for c in game.cards if s.stacked[c.index])
    s.apply_action(game.action_id[A.DrawnFromStack(card.name)])
    assert sum(s.stacked) == 4 and s.cards[me][card.index] == 1
    check_cheap(s)
    assert game.deserialize_state(s.serialize()).stacked == s.stacked


def test_the_stack_is_hidden_as_the_deck(ready):
    game, s0 = ready
    s = s0.clone()
    assert s.observation(0)["stacked"] == 5
    seen = {tuple(s.resample_from_infostate(0, random.Random(k)).stacked) for k in range(10)}
    assert len(seen) > 1 and all(sum(row) == 5 for row in seen)  # dealt afresh, as many


def test_an_empty_stack_draws_nothing(ready):
    game, s0 = ready
    s = s0.clone()
    s.deck = [a + b for a, b in zip(s.deck, s.stacked)]
    s.stacked = [0] * len(s.stacked)
    s.changed()
    s.apply_action(game.action_id[A.Roll(12)])
    assert not s.is_chance_node() and sum(s.stacked) == 0


@pytest.mark.parametrize("old, new, code", [
    ("stack_cards(development, 5)", "stack_cards(development, 500)", "E0511"),
    ("stack_cards(development, 5)", "stack_cards(knight, 5)", "E0504"),
])
def test_misuse_is_a_diagnostic(tmp_path, old, new, code):
    _, diags = compile_text(tmp_path, SOURCE.replace(old, new))
    assert [d.code for d in diags] == [code]
