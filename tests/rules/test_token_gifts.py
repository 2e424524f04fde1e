"""A token standing in for a card where a rule says so (catandsl/rules/gifts.py,
rules/harbors.py): `give_one` and `pass_left_with` hand over a resource card or one of the
listed tokens, the giver's choice (`ChooseToken`); `bank_rate` is what a token pays at the
harbors' rates. From fixed positions on a small board of its own."""

from __future__ import annotations

import json

import pytest

import catandsl
from catandsl.engine import actions as A
from tests.conftest import game_of

SCENARIO = """
scenario gold_gifts "Gold as good as a card" {
  uses base
  token gold { supply 40 }
  rule good_neighbours {
    on dice_rolled(12) { pass_left_with([gold]) }
  }
  rule tribute {
    on dice_rolled(2) { give_one(player, left_of(player), [gold]) }
  }
  action gold_at_the_bank "Gold at the bank's rate" {
    per_turn 10
    on take if bank_rate(player) > 0 and tokens(player, gold) >= bank_rate(player) {
      let r = choose_from_bank(player)
      return_tokens(player, gold, bank_rate(player))
      take_from_bank(player, r, 1)
    }
  }
  turn {
    phase roll { roll; play }
    phase main { trade; build; buy; play; move; gold_at_the_bank }
  }
  map {
    rows \"\"\"
        ~   ~   ~
      ~   f8  h5  ~
        ~   ~   ~
    \"\"\"
    legend { f forest; h hills; ~ sea }
    harbors fixed [3:1 at (0, 1) NW, brick 2:1 at (1, 1) E]
    start robber on forest
  }
}
"""


@pytest.fixture(scope="module")
def game(tmp_path_factory):
    return game_of(tmp_path_factory, SCENARIO)


def legal(s):
    return {s.game.actions[a] for a in s.legal_actions()}


def gold(s, seat: int) -> int:
    return s.tokens_held[seat][s.game.token_index["gold"]]


def test_pass_left_with_gold_passes_a_card_or_a_gold_all_at_once(game):
    pos = catandsl.position(game).tokens(0, gold=1).hand(0, ore=1).tokens(1, gold=2).hand(2, wool=1)
    s = pos.state()
    s.apply_action(A.Roll(12))
    assert s.current_player() == 0 and legal(s) == {A.ChooseResource("ore"), A.ChooseToken("gold")}
    s.apply_action(A.ChooseToken("gold"))
    assert s.current_player() == 1 and legal(s) == {A.ChooseToken("gold")}  # gold only: it passes gold
    back = game.deserialize_state(s.serialize())
    assert back.legal_actions() == s.legal_actions()
    s.apply_action(A.ChooseToken("gold"))
    s.apply_action(A.ChooseResource("wool"))
    assert [gold(s, p) for p in range(3)] == [0, 2, 1]
    assert [s.hands[p][game.res_index["wool"]] for p in range(3)] == [1, 0, 0]
    assert s.hands[0][game.res_index["ore"]] == 1 and not s.pending


def test_pass_left_with_skips_a_player_with_neither(game):
    s = catandsl.position(game).tokens(1, gold=1).state()
    s.apply_action(A.Roll(12))
    assert s.current_player() == 1 and legal(s) == {A.ChooseToken("gold")}
    s.apply_action(A.ChooseToken("gold"))
    assert [gold(s, p) for p in range(3)] == [0, 0, 1] and not s.pending


def test_give_one_hands_over_a_card_or_a_gold_and_nothing_without_either(game):
    s = catandsl.position(game).tokens(0, gold=1).hand(0, ore=1).state()
    s.apply_action(A.Roll(2))
    assert s.current_player() == 0 and legal(s) == {A.ChooseResource("ore"), A.ChooseToken("gold")}
    data = json.loads(s.serialize())
    assert any(p["kind"] == "give_one" for p in data["pending"])
    s.apply_action(A.ChooseToken("gold"))
    assert (gold(s, 0), gold(s, 1)) == (0, 1) and s.hands[0][game.res_index["ore"]] == 1
    s = catandsl.position(game).tokens(1, gold=3).state()
    s.apply_action(A.Roll(2))
    assert not s.pending and A.EndTurn() in legal(s)  # seat 0 holds nothing to give


def test_bank_rate_is_the_banks_or_a_generic_harbors(game):
    from catandsl.rules.harbors import bank_rate

    b = game.board
    generic = next(c for c in b.path_ends[b.path_id(0, 1, "NW")] if b.corner_harbor[c] >= 0)
    special = next(c for c in b.path_ends[b.path_id(1, 1, "E")] if b.corner_harbor[c] >= 0)
    assert bank_rate(catandsl.position(game).state(), 0) == 4
    assert bank_rate(catandsl.position(game).place(0, "settlement", special).state(), 0) == 4
    s = catandsl.position(game).place(0, "settlement", generic).tokens(0, gold=7).turn(0, rolled=True).state()
    assert bank_rate(s, 0) == 3
    s.apply_action(A.TakeAction("gold_at_the_bank"))
    s.apply_action(A.ChooseResource("brick"))
    assert gold(s, 0) == 4 and s.hands[0][game.res_index["brick"]] == 1


def test_games_whose_rules_give_no_token_number_no_token_choice(game):
    assert any(isinstance(a, A.ChooseToken) for a in game.actions)
    base = catandsl.new_game("scenarios/base.catan", 4, {}, 1)
    assert not any(isinstance(a, A.ChooseToken) for a in base.actions)
