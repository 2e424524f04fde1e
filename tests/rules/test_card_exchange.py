"""`exchange_cards` (rules/exchange.py: draw cards at random, give back chosen ones from
the hand held before), `unplay` (a played card set aside; Largest Army measured again),
`relocate` (a neutral piece moved without robbing), and the queries `ahead`,
`public_points` and `resource_cards_of`, on a small board of their own."""

from __future__ import annotations

import json

import pytest

from catandsl.engine import IllegalAction, StateError
from catandsl.engine import actions as A
from catandsl.rules.hands import resource_cards_of
from catandsl.rules.scoring import ahead, public_points
from tests.conftest import game_of
from tests.engine.helpers import BRICK, GRAIN, LUMBER, ORE, WOOL, act, blank, give, legal, put

SCENARIO = '''
scenario swaps "Swaps" {
  uses base
  players 2..3
  token coin { supply 10 }
  rule coins { on setup_ended { for p in players() { give_tokens(p, coin, 3) } } }
  action swap "Take 2 cards at random, give 2" {
    on take if resource_cards_of(opponents(player)) > 0 and tokens(player, coin) >= if_else(ahead(player), 2, 1) {
      return_tokens(player, coin, if_else(ahead(player), 2, 1))
      for o in opponents(player) {
        exchange_cards(player, o, 2, 2)
      }
    }
  }
  action cash_knight "Discard a played knight for 2 coins" {
    on take if played(player, [knight]) > 0 {
      unplay(player, knight)
      give_tokens(player, coin, 2)
    }
  }
  action shift "Move the robber; nobody is robbed" {
    cost coin
    on take { relocate(player, [robber]) }
  }
  turn {
    phase roll { roll; play }
    phase main { trade; build; buy; play; swap; cash_knight; shift }
  }
  map {
    rows """
      f8  p5  h4
        m6  w9
    """
    legend { f forest; p pasture; h hills; m mountains; w fields }
    start robber on forest
  }
}
'''


@pytest.fixture
def g(tmp_path_factory):
    return game_of(tmp_path_factory, SCENARIO, players=2)


def _coins(g, s, p, n):
    c = g.token_index["coin"]
    s.token_supply[c] += s.tokens_held[p][c] - n
    s.tokens_held[p][c] = n
    s.changed()


def test_the_swap_draws_two_at_random_then_gives_two_from_the_hand_held_before(g):
    s = blank(g)
    _coins(g, s, 0, 3)
    give(s, 0, 1, 0, 1, 0, 0)  # brick, wool
    give(s, 1, 0, 0, 0, 2, 1)  # grain x2, ore
    act(s, A.Roll(8))
    act(s, A.TakeAction("swap"))
    assert s.tokens_held[0][g.token_index["coin"]] == 2  # 1 coin: not ahead
    assert s.is_chance_node()
    assert {g.actions[a].resource for a, _ in s.chance_outcomes()} == {"grain", "ore"}
    act(s, A.Stolen("grain"))
    act(s, A.Stolen("ore"))
    # only what the hand held before the draws: brick and wool, not the grain or ore taken
    assert sorted(a.resource for a in legal(s)) == ["brick", "wool"]
    before = s.serialize()
    with pytest.raises(IllegalAction):
        act(s, A.ChooseResource("grain"))
    assert s.serialize() == before
    back = g.deserialize_state(s.serialize())  # the prompt is serialized and checked
    assert back.serialize() == before
    act(s, A.ChooseResource("brick"))
    act(s, A.ChooseResource("wool"))
    assert s.hands[0] == [0, 0, 0, 1, 1] and s.hands[1] == [1, 0, 1, 1, 0]
    assert not s.pending


def test_the_swap_is_refused_when_the_opponent_holds_nothing_and_costs_the_leader_two(g):
    s = blank(g)
    _coins(g, s, 0, 3)
    give(s, 0, 1, 1, 0, 0, 0)
    act(s, A.Roll(8))
    assert A.TakeAction("swap") not in legal(s)
    assert resource_cards_of(s, [1]) == 0
    give(s, 1, 0, 0, 0, 0, 1)
    put(s, 0, "settlement", 0)
    assert ahead(s, 0) and not ahead(s, 1) and public_points(s, 0) == 1
    act(s, A.TakeAction("swap"))
    assert s.tokens_held[0][g.token_index["coin"]] == 1  # 2 coins when ahead
    act(s, A.Stolen("ore"))  # the opponent's one card; the second draw lapses
    assert sorted(a.resource for a in legal(s)) == ["brick", "lumber"]


def test_hidden_points_do_not_make_a_player_ahead(g):
    s = blank(g)
    s.cards[0][g.card_index["victory_point"]] = 1
    s.deck[g.card_index["victory_point"]] -= 1
    s.changed()
    assert s.points(0) == 1 and public_points(s, 0) == 0 and not ahead(s, 0)


def test_unplay_sets_a_played_knight_aside_and_largest_army_is_measured_again(g):
    s = blank(g)
    knight = g.card_index["knight"]
    s.played[0][knight] = 3
    s.deck[knight] -= 3
    s.changed()
    give(s, 0, 0, 0, 0, 0, 0)
    act(s, A.Roll(8))
    army = list(g.ruleset.awards).index("largest_army")
    s.award_holder[army] = 0
    act(s, A.TakeAction("cash_knight"))
    assert s.played[0][knight] == 2 and s.discarded[knight] == 1
    assert s.award_holder[army] == -1  # 2 knights: below the minimum, set aside
    assert A.TakeAction("cash_knight") not in legal(s)  # once a turn
    g.deserialize_state(s.serialize())  # conserved: deck + hands + played + set aside
    data = json.loads(s.serialize())
    data["discarded"][knight] = 0
    with pytest.raises(StateError):
        g.deserialize_state(json.dumps(data))


def test_relocate_moves_the_robber_and_robs_nobody(g):
    s = blank(g)
    _coins(g, s, 0, 1)
    b = g.board
    hex5 = b.hex_id(1, 0)
    put(s, 1, "settlement", b.hex_corners[hex5][0])
    give(s, 1, BRICK + 1, LUMBER, WOOL, GRAIN, ORE)
    act(s, A.Roll(8))
    act(s, A.TakeAction("shift"))
    act(s, A.Move("robber", hex5))
    assert not s.pending and sum(s.hands[0]) == 0 and not s.is_chance_node()
