"""Choices among cards and tokens (catandsl/rules/picks.py): `choose_card` and
`choose_token` wait for the player's pick, then the rule runs on with it."""

from __future__ import annotations

import pytest

import catandsl
from catandsl.engine import actions as A
from catandsl.players import GreedyPlayer
from tests.conftest import compile_text
from tests.engine.soundness import check_cheap

SOURCE = """
scenario gifts "Gifts" {
  uses base
  token gold { supply 20 }
  token silk { supply 20 }
  rule gift {
    on dice_rolled(12) {
      let c = choose_card(player, [monopoly, knight, monopoly])
      take_card(player, c)
    }
  }
  rule tribute {
    on dice_rolled(2) {
      let t = choose_token(player, [silk, gold])
      give_tokens(player, t, 1)
    }
  }
  map {
    rows \"\"\"
      f8  p5  h4
        m10 f6
    \"\"\"
    legend { f forest; p pasture; h hills; m mountains }
  }
}
"""


@pytest.fixture(scope="module")
def ready(tmp_path_factory):
    path = tmp_path_factory.mktemp("picks") / "gifts.catan"
    path.write_text(SOURCE, encoding="utf-8")
    game = catandsl.new_game(catandsl.load(path), 3, {}, 1)
    s = game.new_initial_state()
    bots = [GreedyPlayer(p) for p in range(3)]
    while s.stage == "setup":
        s.apply_action(s.sample_chance() if s.is_chance_node() else bots[s.current_player()].choose(s))
    while not s.is_chance_node():
        s.apply_action(bots[s.current_player()].choose(s))
    return game, s


def test_choose_card_offers_the_listed_kinds_once_each(ready):
    game, s0 = ready
    s = s0.clone()
    s.apply_action(game.action_id[A.Roll(12)])
    me = s.turn_player
    assert s.current_player() == me
    assert sorted(game.actions[a] for a in s.legal_actions()) == [A.PickCard("knight"), A.PickCard("monopoly")]
    monopoly = game.card_index["monopoly"]
    before = s.cards[me][monopoly]
    s.apply_action(game.action_id[A.PickCard("monopoly")])
    assert s.cards[me][monopoly] == before + 1
    check_cheap(s)


def test_choose_token_offers_the_listed_tokens(ready):
    game, s0 = ready
    s = s0.clone()
    s.apply_action(game.action_id[A.Roll(2)])
    me = s.turn_player
    assert sorted(game.actions[a] for a in s.legal_actions()) == [A.PickToken("gold"), A.PickToken("silk")]
    s.apply_action(game.action_id[A.PickToken("silk")])
    assert s.tokens_held[me][game.token_index["silk"]] == 1
    assert s.tokens_held[me][game.token_index["gold"]] == 0


@pytest.mark.parametrize("old, new, code", [
    ("choose_card(player, [monopoly, knight, monopoly])", "choose_card(player, [gold])", "E0504"),
    ("choose_token(player, [silk, gold])", "choose_token(player, [knight])", "E0504"),
])
def test_a_list_of_the_wrong_kind_is_a_diagnostic(tmp_path, old, new, code):
    _, diags = compile_text(tmp_path, SOURCE.replace(old, new))
    assert [d.code for d in diags] == [code]


def test_a_pick_in_a_condition_is_a_diagnostic(tmp_path):
    text = SOURCE.replace("on dice_rolled(2) {", "on dice_rolled(2) if choose_token(player, [gold]) == gold {")
    _, diags = compile_text(tmp_path, text)
    assert [d.code for d in diags] == ["E0510"]
