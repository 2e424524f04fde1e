"""A deck revealed in place of the dice (`roll_cards`, catandsl/rules/roll_cards.py) and
the rule pieces events are made of (measures, `limit_yield`, `pass_left`,
`damage_piece`), on a board of two hexes with a deck of six cards: the reveal as a
chance node weighted by the cards left, the New Year rebuild, an event before the roll's
own hooks, `reroll` applied to a card, the deck saved and checked."""

from __future__ import annotations

import pytest

from catandsl.engine import actions as A
from catandsl.engine.validate import StateError
from catandsl.rules import standings
from catandsl.rules.roll_cards import RollCardLookups
from tests.conftest import TWO_HEXES, game_of
from tests.engine.helpers import LUMBER, WOOL, act, blank, give, legal, put

SMALL = '''
scenario "Six cards" {
  uses base
  dice 2d6 { reroll 12 }
  roll_cards {
    card 8 drought
    card 8 x2
    card 5 x2
    card 12 gift
    new_year 1
  }
  measure cards_held resource_cards(player)
  rule drought { on card_revealed(drought) { limit_yield(settlement, 0) } }
  rule gift { on card_revealed(gift) { pass_left() } }
''' + TWO_HEXES


@pytest.fixture(scope="module")
def game(tmp_path_factory):
    return game_of(tmp_path_factory, SMALL)


def _card(g, total: int, event: str = "") -> A.RevealCard:
    t = g.lookups(RollCardLookups)
    return A.RevealCard(next(k for k, (n, e) in enumerate(zip(t.totals, t.events)) if (n, e) == (total, event)))


def _reveal(s, total: int, event: str = "") -> None:
    if not s.is_chance_node():
        act(s, A.RollDice())
    act(s, _card(s.game, total, event))


def _forest_corner(g) -> int:
    forest = next(h for h, n in enumerate(g.board.hex_number) if n == 8)
    return g.board.hex_corners[forest][0]


def test_the_reveal_is_weighted_by_the_cards_left_and_replaces_the_dice(game):
    s = blank(game)
    assert s.is_chance_node()
    odds = {game.actions[a]: p for a, p in s.chance_outcomes()}
    assert odds == {_card(game, 8, "drought"): pytest.approx(1 / 6), _card(game, 8): pytest.approx(2 / 6),
                    _card(game, 5): pytest.approx(2 / 6), _card(game, 12, "gift"): pytest.approx(1 / 6)}
    assert not any(isinstance(game.actions[a], A.Roll) for a in s.legal_actions())
    _reveal(s, 5)
    assert s.last_roll == 5 and s.roll_year == 4 and s.roll_deck[_card(game, 5).card] == 1


def test_the_event_runs_before_production_for_this_turn_only(game):
    s = blank(game)
    put(s, 0, "settlement", _forest_corner(game))
    _reveal(s, 8, "drought")
    assert s.hands[0][LUMBER] == 0  # the drought ran first: settlements yield nothing
    act(s, A.EndTurn())
    for _ in range(2):  # players 1 and 2
        _reveal(s, 5)
        act(s, A.EndTurn())
    _reveal(s, 8)
    assert s.hands[0][LUMBER] == 1


def test_a_rerolled_total_has_its_event_then_another_card_is_the_roll(game):
    s = blank(game)
    give(s, 0, 0, 1, 0, 0, 0)
    give(s, 1, 0, 0, 1, 0, 0)
    _reveal(s, 12, "gift")
    act(s, A.ChooseResource("lumber"))
    assert legal(s) == [A.ChooseResource("wool")]  # player 1 passes, not yet holding the lumber
    act(s, A.ChooseResource("wool"))
    assert s.hands[1][LUMBER] == 1 and s.hands[2][WOOL] == 1
    assert s.is_chance_node() and s.phase == game.roll_phase and s.last_roll != 12
    assert game.action_id[_card(game, 12, "gift")] not in dict(s.chance_outcomes())
    _reveal(s, 8)
    assert s.last_roll == 8 and s.roll_year == 3  # both cards are out of this year's deck


def test_new_year_rebuilds_the_deck_after_the_cards_above_it(game):
    s = blank(game)
    for total in (8, 8, 5, 5):
        _reveal(s, total)
        act(s, A.EndTurn())
    _reveal(s, 8, "drought")
    assert s.roll_year == 0 and s.roll_deck == [0, 0, 0, 1]  # the gift lies unused under New Year
    act(s, A.EndTurn())
    odds = dict(s.chance_outcomes())
    assert odds[game.action_id[_card(game, 8)]] == pytest.approx(2 / 6)  # all six back
    _reveal(s, 5)
    assert s.roll_year == 4 and sum(s.roll_deck) == 5


def test_the_deck_is_saved_and_a_wrong_one_refused(game):
    s = blank(game)
    _reveal(s, 5)
    assert game.deserialize_state(s.serialize()) == s
    s.roll_deck[_card(game, 5).card] = 3
    with pytest.raises(StateError, match="roll_deck"):
        game.deserialize_state(s.serialize())


def test_measures_name_the_leaders_and_those_behind(game):
    s = blank(game)
    assert standings.leaders(s, "cards_held") == []  # nobody holds anything
    give(s, 1, 2, 0, 0, 0, 0)
    give(s, 2, 2, 0, 0, 0, 0)
    give(s, 0, 1, 0, 0, 0, 0)
    assert standings.leaders(s, "cards_held") == [1, 2]
    assert standings.below(s, 1, "cards_held") == [0] and standings.below(s, 0, "cards_held") == []
    assert standings.held_by(s, "largest_army") == [] and standings.left_of(s, 2) == 0


def test_a_measure_taken_away_while_a_rule_names_it_is_e0607(tmp_path):
    from tests.conftest import compile_text
    text = SMALL.replace('  rule drought', '  without measure cards_held\n  rule leader { on dice_rolled(5) '
                         '{ for p in leaders(cards_held) { take_from_bank(p, ore, 1) } } }\n  rule drought')
    _, diags = compile_text(tmp_path, text)
    assert [d.code for d in diags if d.is_error] == ["E0607"]


TWO_DISTINCT = SMALL.replace("dice 2d6 { reroll 12 }", "dice 2d6 { reroll 12; rolls 2 distinct }").replace(
    'scenario "Six cards"', 'scenario "Six cards, two a turn"')


def test_two_cards_a_turn_a_repeated_total_is_laid_aside_unresolved(tmp_path_factory):
    """`rolls 2 distinct` with roll cards (Event Cards with Catan for Two, V15): the second
    card must show another total; one repeating the first is laid aside without its event
    and another is revealed; the turn goes on after two totals."""
    g = game_of(tmp_path_factory, TWO_DISTINCT)
    s = blank(g)
    put(s, 0, "settlement", _forest_corner(g))
    _reveal(s, 8)
    assert s.turn_rolls == [8] and s.is_chance_node()  # the second card comes at once
    year = s.roll_year
    act(s, _card(g, 8, "drought"))  # 8 again: laid aside, its drought never runs
    assert s.turn_rolls == [8] and s.is_chance_node() and s.roll_year == year - 1
    assert s.hands[0][LUMBER] == 1  # the first 8 paid; the repeated card paid nothing
    act(s, _card(g, 5))
    assert s.turn_rolls == [8, 5] and not s.is_chance_node() and s.last_roll == 5
