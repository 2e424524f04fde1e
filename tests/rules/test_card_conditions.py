"""A card's `playable where CONDITION` (catandsl/rules/cards.py): the card is offered
only while the condition holds for its holder; a malformed line is E0304."""

from __future__ import annotations

import pytest

from catandsl.engine import IllegalAction
from catandsl.engine import actions as A
from tests.conftest import compile_text, game_of
from tests.engine.helpers import act, blank, give, legal, to_main

DECK = '''
scenario "Harvest" {
  uses base
  without award largest_army  # it counts Knights, which this deck has none of
  deck development {
    cost ore + wool + grain
    play 1 per turn, not the turn bought
    card harvest 4 {
      playable where resource_cards(player) < 4
      on play { take_from_bank(player, choose_resource(player), 2) }
    }
  }
  map { hex (0, 0) forest 8 }
}
'''


@pytest.fixture(scope="module")
def game(tmp_path_factory):
    return game_of(tmp_path_factory, DECK)


def test_the_card_is_offered_only_while_its_condition_holds(game):
    s = blank(game)
    s.cards[0][game.card_index["harvest"]] = 1
    s.changed()
    to_main(s, 8)
    assert A.PlayCard("harvest") in legal(s)
    give(s, 0, 1, 1, 1, 1, 0)  # four cards: no longer
    assert A.PlayCard("harvest") not in legal(s)
    before = s.serialize()
    with pytest.raises(IllegalAction):
        act(s, A.PlayCard("harvest"))
    assert s.serialize() == before


def test_playable_needs_a_where(tmp_path):
    _, diags = compile_text(tmp_path, DECK.replace("playable where resource_cards(player) < 4", "playable"))
    assert [d.code for d in diags if d.is_error] == ["E0304"]
