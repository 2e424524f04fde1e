"""The declared shape of play, from fixed positions: phases and what each allows (going
forward, never back), declared dice, victory by a condition and on any player's turn,
and a scenario's own actions. Each is checked on the base game with a few lines added."""

from __future__ import annotations

from pathlib import Path

import pytest

from catandsl.engine import IllegalAction
from catandsl.engine import actions as A
from tests.conftest import game_of
from tests.engine.helpers import GRAIN, ORE, act, blank, give, legal, put, to_main

ROOT = Path(__file__).resolve().parents[2]
BASE = (ROOT / "scenarios" / "base.catan").read_text(encoding="utf-8")


def game_with(tmp_path_factory, extra: str, players: int = 4, seed: int = 1):
    """The base scenario (beginner map) with `extra` declared after `uses base`."""
    return game_of(tmp_path_factory, BASE.replace("uses base", "uses base\n" + extra, 1), players, seed)


def kinds(s) -> set[str]:
    return {a.KIND for a in legal(s)}


# ---- phases ---------------------------------------------------------------------------------

THREE_PHASES = """
  turn {
    phase roll { roll }
    phase build { build road; buy }
    phase trade { trade }
  }
"""


def test_phases_go_forward_never_back(tmp_path_factory):
    g = game_with(tmp_path_factory, THREE_PHASES)
    s = blank(g)
    put(s, 0, "settlement", 32)
    give(s, 0, 4, 4, 1, 1, 1)
    assert s.is_chance_node() and not legal_kinds_before_roll(s)  # nothing but the dice
    act(s, A.Roll(2))
    assert g.phases[s.phase].name == "build"
    # roads (only: `build road`), a card, a bank trade of the later phase, the end
    assert {a.piece for a in legal(s) if isinstance(a, A.Build)} == {"road"}
    assert {"build", "buy_card", "bank_trade", "end_turn"} <= kinds(s)
    act(s, A.BankTrade("brick", "ore"))  # moves on to the trade phase...
    assert g.phases[s.phase].name == "trade"
    assert "build" not in kinds(s) and "buy_card" not in kinds(s)  # ...and never back
    before = s.serialize()
    with pytest.raises(IllegalAction) as refused:
        act(s, A.Build("road", g.board.corner_paths[32][0]))
    assert refused.value.code == "action/not_legal" and s.serialize() == before
    act(s, A.EndTurn())
    assert s.turn_player == 1 and s.phase == 0


def legal_kinds_before_roll(s) -> set[str]:
    return set() if s.is_chance_node() else kinds(s)


def test_a_roll_phase_offers_what_it_allows_before_the_dice(tmp_path_factory):
    g = game_with(tmp_path_factory, "")  # base: `phase roll { roll; play }`
    s = blank(g)
    knight = g.card_index["knight"]
    s.cards[0][knight] = 1
    s.deck[knight] -= 1
    s.changed()
    assert not s.is_chance_node() and kinds(s) == {"play_card", "roll_dice"}
    act(s, A.RollDice())
    assert s.is_chance_node()  # once asked for, the dice are a chance node
    act(s, A.Roll(2))
    assert "end_turn" in kinds(s)


def test_a_phase_after_the_roll_may_come_first_and_ends_with_the_dice(tmp_path_factory):
    g = game_with(tmp_path_factory, """
  turn {
    phase morning { trade }
    phase roll { roll }
    phase evening { build }
  }
""")
    s = blank(g)
    give(s, 0, 4, 0, 0, 0, 0)
    give(s, 1, 0, 0, 0, 0, 1)
    # before the dice: trade, or ask for the dice; the turn cannot end yet
    assert kinds(s) == {"bank_trade", "new_offer", "roll_dice"}
    act(s, A.BankTrade("brick", "wool"))
    act(s, A.RollDice())
    assert s.is_chance_node()
    act(s, A.Roll(2))
    assert g.phases[s.phase].name == "evening" and "bank_trade" not in kinds(s)
    assert "end_turn" in kinds(s)


# ---- dice ---------------------------------------------------------------------------------------


def test_declared_dice_and_rerolled_totals(tmp_path_factory):
    g = game_with(tmp_path_factory, "  dice 2d6 { reroll 2, 12 }")
    s = blank(g)
    outcomes = {g.actions[a].total: p for a, p in s.chance_outcomes()}
    assert set(outcomes) == set(range(3, 12))
    assert sum(outcomes.values()) == pytest.approx(1.0)
    assert outcomes[7] == pytest.approx(6 / 34) and outcomes[3] == pytest.approx(2 / 34)
    assert A.Roll(2) not in g.action_id and A.Roll(12) not in g.action_id
    g1 = game_with(tmp_path_factory, "  dice 1d6")
    assert [g1.actions[a].total for a, _ in blank(g1).chance_outcomes()] == [1, 2, 3, 4, 5, 6]


# ---- victory ------------------------------------------------------------------------------------


def test_a_victory_condition_wins_on_the_own_turn(tmp_path_factory):
    g = game_with(tmp_path_factory, '  victory "Hoarder" where resource_cards(player) >= 9')
    s = blank(g)
    give(s, 1, 9, 0, 0, 0, 0)  # player 1 holds 9 cards, but it is player 0's turn
    to_main(s)
    assert not s.is_terminal()
    act(s, A.EndTurn())  # now it is player 1's turn, and they hold 9
    assert s.is_terminal() and s.winner == 1 and s.reason == "victory"


def test_victory_checked_on_any_turn(tmp_path_factory):
    g = game_with(tmp_path_factory, '  victory_check any_turn\n  victory "Hoarder" where resource_cards(player) >= 9')
    s = blank(g)
    give(s, 2, 9, 0, 0, 0, 0)
    to_main(s)  # player 0 rolls: player 2 already holds 9 cards and wins now
    assert s.is_terminal() and s.winner == 2


# ---- a scenario's own actions ---------------------------------------------------------------

RECRUIT = """
  action recruit "Recruit a scout" {
    cost 2 ore
    per_turn 1
    on take if points(player) >= 1 {
      take_from_bank(player, grain, 3)
    }
  }
  turn {
    phase roll { roll; play }
    phase main { trade; build; buy; play; move; recruit }
  }
"""


def test_an_action_of_the_scenario(tmp_path_factory):
    g = game_with(tmp_path_factory, RECRUIT)
    s = blank(g)
    to_main(s)
    recruit = A.TakeAction("recruit")
    assert recruit not in legal(s)  # no ore, no points
    give(s, 0, 0, 0, 0, 0, 4)
    assert recruit not in legal(s)  # its condition: a point
    put(s, 0, "settlement", 32)
    assert recruit in legal(s)
    act(s, recruit)
    assert s.hands[0][ORE] == 2 and s.hands[0][GRAIN] == 3  # paid 2 ore, took 3 grain
    assert recruit not in legal(s)  # once a turn
    with pytest.raises(IllegalAction) as refused:
        act(s, recruit)
    assert "time(s) this turn" in refused.value.message
    act(s, A.EndTurn())
    for _ in range(3):
        act(s, A.Roll(2))
        act(s, A.EndTurn())
    to_main(s)
    assert recruit in legal(s)  # a new turn


def test_an_action_only_where_a_phase_allows_it(tmp_path_factory):
    g = game_with(tmp_path_factory, RECRUIT.replace("move; recruit }", "move }"))
    s = blank(g)
    put(s, 0, "settlement", 32)
    give(s, 0, 0, 0, 0, 0, 4)
    to_main(s)
    assert A.TakeAction("recruit") not in legal(s)


# ---- the set-up -----------------------------------------------------------------------------

ROADS_LATER = """
  setup {
    round forward { place settlement }
    round forward { place road touching last }
  }
"""


def test_touching_last_means_the_players_own_last_piece(tmp_path_factory):
    g = game_with(tmp_path_factory, ROADS_LATER, players=3)
    s = g.new_initial_state()
    act(s, A.StartPlayer(0))
    settlements = {}
    for p in range(3):
        a = legal(s)[0]
        settlements[p] = a.at
        act(s, a)
    for p in range(3):  # each road touches its own player's settlement, not the last one placed
        assert s.current_player() == p
        roads = legal(s)
        assert roads and all(settlements[p] in g.board.path_ends[r.at] for r in roads)
        act(s, roads[0])
    assert s.stage == "turn"


THIRD_SETTLEMENT = """
  setup {
    round forward { place settlement; place road touching last }
    round backward { place settlement; place road touching last; collect last }
    round forward { place settlement optional; place road touching last; collect last }
  }
"""


def test_an_optional_set_up_step_may_be_passed(tmp_path_factory):
    g = game_with(tmp_path_factory, THIRD_SETTLEMENT, players=3)
    s = g.new_initial_state()
    act(s, A.StartPlayer(0))
    while s.setup_pos < 3 * 2 + 3 * 3:  # the two compulsory rounds, a placement per action
        act(s, legal(s)[0])
    assert s.current_player() == 0 and A.Pass() in legal(s)
    assert all(isinstance(a, (A.Build, A.Pass)) for a in legal(s))
    hand = s.hands[0][:]
    act(s, A.Pass())  # player 0 passes: no road, nothing to collect either
    assert s.current_player() == 1 and sum(s.placed[0]) == 4 and s.hands[0] == hand
    act(s, next(a for a in legal(s) if isinstance(a, A.Build)))  # player 1 places a third
    assert {a.piece for a in legal(s)} == {"road"}  # and its road
    act(s, legal(s)[0])
    assert sum(s.placed[1]) == 6
    act(s, A.Pass())
    assert s.stage == "turn"
