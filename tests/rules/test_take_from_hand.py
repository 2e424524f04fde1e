"""Cards chosen from another player's hand (catandsl/rules/hand_picks.py):
`take_from_hand(chooser, holder, count)` waits for the chooser's picks, one card per
action, among the resources the holder holds."""

from __future__ import annotations

import pytest

from catandsl.engine import actions as A
from catandsl.rules.words import describe
from tests.conftest import THREE_HEXES, compile_text, game_of, played_to_first_roll
from tests.engine.soundness import check_cheap

SOURCE = """
scenario spy "The Spy" {
  uses base
  rule spy {
    on dice_rolled(12) { take_from_hand(player, left_of(player), 2) }
  }
""" + THREE_HEXES


@pytest.fixture(scope="module")
def ready(tmp_path_factory):
    game = game_of(tmp_path_factory, SOURCE, name="spy")
    return game, played_to_first_roll(game)


def _hand(game, s, p, cards: dict[str, int]) -> None:
    """Give p exactly these cards, the rest back to the bank (so cards add up)."""
    for r, name in enumerate(game.resources):
        s.bank[r] += s.hands[p][r] - cards.get(name, 0)
        s.hands[p][r] = cards.get(name, 0)
    s.changed()


def test_the_chooser_picks_among_the_holders_cards(ready):
    game, s0 = ready
    s = s0.clone()
    me = s.turn_player
    holder = (me + 1) % game.num_players
    _hand(game, s, holder, {"brick": 1, "ore": 2})
    before = list(s.hands[me])
    s.apply_action(game.action_id[A.Roll(12)])
    assert s.current_player() == me
    assert sorted(game.actions[a] for a in s.legal_actions()) == [A.TakeFromHand("brick"), A.TakeFromHand("ore")]
    s.apply_action(game.action_id[A.TakeFromHand("brick")])
    assert sorted(game.actions[a] for a in s.legal_actions()) == [A.TakeFromHand("ore")]
    s.apply_action(game.action_id[A.TakeFromHand("ore")])
    ore, brick = game.res_index["ore"], game.res_index["brick"]
    assert s.hands[holder][ore] == 1 and s.hands[holder][brick] == 0
    assert s.hands[me][ore] == before[ore] + 1 and s.hands[me][brick] == before[brick] + 1
    assert not any(isinstance(game.actions[a], A.TakeFromHand) for a in s.legal_actions())
    check_cheap(s)


def test_a_holder_with_fewer_gives_all_and_an_empty_hand_nothing(ready):
    game, s0 = ready
    s = s0.clone()
    me = s.turn_player
    holder = (me + 1) % game.num_players
    _hand(game, s, holder, {"wool": 1})
    s.apply_action(game.action_id[A.Roll(12)])
    s.apply_action(game.action_id[A.TakeFromHand("wool")])
    assert sum(s.hands[holder]) == 0
    assert not any(isinstance(game.actions[a], A.TakeFromHand) for a in s.legal_actions())
    s = s0.clone()
    _hand(game, s, holder, {})
    s.apply_action(game.action_id[A.Roll(12)])
    assert not any(isinstance(game.actions[a], A.TakeFromHand) for a in s.legal_actions())


def test_only_the_two_players_read_which_card(ready):
    game, s0 = ready
    s = s0.clone()
    me = s.turn_player
    holder = (me + 1) % game.num_players
    third = (me + 2) % game.num_players
    _hand(game, s, holder, {"ore": 1})
    s.apply_action(game.action_id[A.Roll(12)])
    act = game.action_id[A.TakeFromHand("ore")]
    assert "ore" in describe(game, act, viewer=me, state=s)
    assert "ore" in describe(game, act, viewer=holder, state=s)
    assert "ore" not in describe(game, act, viewer=third, state=s)


@pytest.mark.parametrize("call, code", [
    ("take_from_hand(player, left_of(player), 200)", "E0511"),
    ("take_from_hand(player, ore, 2)", "E0504"),
])
def test_misuse_is_a_diagnostic(tmp_path, call, code):
    _, diags = compile_text(tmp_path, SOURCE.replace("take_from_hand(player, left_of(player), 2)", call))
    assert [d.code for d in diags] == [code]


def test_the_log_names_the_card_to_the_two_alone(ready):
    from catandsl.players.base import entry_as_read, logged_apply

    game, s0 = ready
    s = s0.clone()
    me = s.turn_player
    holder = (me + 1) % game.num_players
    third = (me + 2) % game.num_players
    _hand(game, s, holder, {"ore": 1})
    s.apply_action(game.action_id[A.Roll(12)])
    entry = logged_apply(game, s, game.action_id[A.TakeFromHand("ore")], me)
    assert entry["notes"] == []  # no hand note tells the table which card moved
    assert "ore" in entry_as_read(entry, holder)["text"]
    assert "ore" not in entry_as_read(entry, third)["text"]
