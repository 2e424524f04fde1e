"""Cards lost by a rule (catandsl/rules/losses.py): `discard_random` draws them from the
hand by chance, `pay_to_bank` lets the player choose; both go to the bank."""

from __future__ import annotations

import pytest

import catandsl
from catandsl.engine import actions as A
from catandsl.players import GreedyPlayer
from tests.conftest import compile_text
from tests.engine.soundness import check_cheap

SOURCE = """
scenario losses "Storm and fine" {
  uses base
  rule storm {
    on dice_rolled(12) { for p in players() { discard_random(p, 2) } }
  }
  rule fine {
    on dice_rolled(2) { pay_to_bank(player, 3) }
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
    """A game at its first roll of the dice, every hand set by the test."""
    path = tmp_path_factory.mktemp("losses") / "losses.catan"
    path.write_text(SOURCE, encoding="utf-8")
    game = catandsl.new_game(catandsl.load(path), 3, {}, 1)
    s = game.new_initial_state()
    bots = [GreedyPlayer(p) for p in range(3)]
    while s.stage == "setup":
        s.apply_action(s.sample_chance() if s.is_chance_node() else bots[s.current_player()].choose(s))
    while not s.is_chance_node():
        s.apply_action(bots[s.current_player()].choose(s))
    return game, s


def _hands(game, s, hands):
    for p, hand in enumerate(hands):
        for r, n in enumerate(hand):
            s.bank[r] += s.hands[p][r] - n
            s.hands[p][r] = n


def test_discard_random_draws_each_card_by_chance(ready):
    game, s0 = ready
    s = s0.clone()
    _hands(game, s, [[3, 1, 0, 0, 0], [1, 0, 0, 0, 0], [0, 0, 0, 0, 0]])
    bank = sum(s.bank)
    s.apply_action(game.action_id[A.Roll(12)])
    assert s.is_chance_node()
    odds = {game.actions[a].resource: p for a, p in s.chance_outcomes()}
    first, second = game.resources[0], game.resources[1]
    assert odds == {first: 0.75, second: 0.25}  # as likely as the cards of each kind held
    s.apply_action(game.action_id[A.Lost(second)])
    assert s.hands[0] == [3, 0, 0, 0, 0]
    assert {game.actions[a].resource: p for a, p in s.chance_outcomes()} == {first: 1.0}
    s.apply_action(game.action_id[A.Lost(first)])
    s.apply_action(game.action_id[A.Lost(first)])  # P2 holds one card: loses it alone
    assert s.hands[0] == [2, 0, 0, 0, 0] and s.hands[1] == [0] * 5
    assert sum(s.bank) == bank + 3 and not s.is_chance_node()  # P3 held nothing to lose
    check_cheap(s)


def test_pay_to_bank_lets_the_player_choose(ready):
    game, s0 = ready
    s = s0.clone()
    me = s.turn_player
    _hands(game, s, [[1, 1, 0, 0, 2] if p == me else [0] * 5 for p in range(3)])
    s.apply_action(game.action_id[A.Roll(2)])
    assert s.current_player() == me
    ore = game.resources[4]
    offered = {game.actions[a] for a in s.legal_actions()}
    assert offered == {A.Discard(game.resources[0]), A.Discard(game.resources[1]), A.Discard(ore)}
    for _ in range(3):
        s.apply_action(game.action_id[A.Discard(ore if s.hands[me][4] else game.resources[0])])
    assert s.hands[me] == [0, 1, 0, 0, 0]
    assert all(game.actions[a].KIND != "discard" for a in s.legal_actions())  # paid in full
    check_cheap(s)


@pytest.mark.parametrize("call, code", [
    ("discard_random(player, -1)", "E0511"),
    ("pay_to_bank(player, 101)", "E0511"),
    ("pay_to_bank(player)", "E0503"),
])
def test_a_bad_call_is_a_diagnostic(tmp_path, call, code):
    _, diags = compile_text(tmp_path, SOURCE.replace("pay_to_bank(player, 3)", call))
    assert [d.code for d in diags] == [code]
