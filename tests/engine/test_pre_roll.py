"""Before the dice: whether the player to act is asked (roll, or play a card) or the dice
are rolled at once tells the other seats nothing of the player's hidden cards."""

from __future__ import annotations

from catandsl.engine import actions as A
from catandsl.players.greedy import GreedyPlayer
from catandsl.players.random_player import RandomPlayer, UniformPlayer
from tests.conftest import base_game
from tests.engine.helpers import act, blank, legal


def _holding(g, card: str | None):
    """Player 0 about to roll, holding one `card` (none for None), not bought this turn."""
    s = blank(g)
    if card is not None:
        c = g.card_index[card]
        s.cards[0][c] += 1
        s.deck[c] -= 1
    s.changed()
    return s


def test_a_playable_and_an_unplayable_hidden_card_give_the_same_decision():
    g = base_game()
    knight, point = _holding(g, "knight"), _holding(g, "victory_point")
    assert knight.serialize() != point.serialize()
    for s in (knight, point):
        assert s.stage == "turn" and s.before_roll()
        assert not s.is_chance_node()  # asked, though a victory point card is never played
        assert s.current_player() == 0
    for seat in (1, 2, 3):  # what the others see: the same
        assert knight.observation(seat) == point.observation(seat)
    assert A.PlayCard("knight") in legal(knight) and A.RollDice() in legal(knight)
    assert legal(point) == [A.RollDice()]  # asked, with one answer: the dice


def test_no_card_held_rolls_at_once():
    s = _holding(base_game(), None)
    assert s.is_chance_node()


def test_a_card_played_this_turn_leaves_the_dice_to_roll_at_once():
    g = base_game()
    s = _holding(g, "knight")
    c = g.card_index["victory_point"]
    s.cards[0][c] += 1  # a card still held, but the turn's play is used
    s.deck[c] -= 1
    s.changed()
    act(s, A.PlayCard("knight"))
    while not (s.stage == "turn" and not s.pending):  # the robber's move and any steal
        s.apply_action(s.legal_actions()[0])
    assert s.before_roll() and s.cards[0][c] == 1
    assert s.is_chance_node()


def test_bots_answer_a_lone_roll_without_drawing_from_their_generators():
    g = base_game()
    s = _holding(g, "victory_point")
    for bot in (GreedyPlayer(seed=3), RandomPlayer(seed=3), UniformPlayer(seed=3)):
        before = bot.rng.getstate()
        assert bot.choose(s) == g.action_id[A.RollDice()]
        assert bot.rng.getstate() == before
