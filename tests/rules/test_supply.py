"""A player's supply lowered by a rule (catandsl/rules/supply.py): `remove_from_supply`
takes unplaced pieces out of the game, so fewer can be built, and `pieces_left` counts
what remains."""

from __future__ import annotations

import pytest

from catandsl.engine import actions as A
from tests.conftest import THREE_HEXES, compile_text, game_of, played_to_first_roll
from tests.engine.helpers import give, legal
from tests.engine.soundness import check_cheap

SOURCE = """
scenario levy "The Levy" {
  uses base
  counter left_roads
  rule levy {
    on dice_rolled(12) {
      remove_from_supply(player, [settlement, road], 3)
      set_counter(player, left_roads, pieces_left(player, road))
    }
  }
""" + THREE_HEXES


@pytest.fixture(scope="module")
def ready(tmp_path_factory):
    game = game_of(tmp_path_factory, SOURCE, name="levy")
    return game, played_to_first_roll(game)


def test_the_supply_loses_pieces_from_the_first_kind_on(ready):
    game, s0 = ready
    s = s0.clone()
    me = s.turn_player
    settlement, road = game.piece_index["settlement"], game.piece_index["road"]
    placed = s.placed[me][settlement]
    s.apply_action(game.action_id[A.Roll(12)])
    # settlements first while they last, then roads
    assert s.pieces_lost[me][settlement] == min(3, 5 - placed)
    assert s.pieces_lost[me][road] == 3 - min(3, 5 - placed)
    assert s.counters[me][game.counter_names.index("left_roads")] == 15 - s.placed[me][road] - s.pieces_lost[me][road]
    give(s, me, 5, 5, 5, 5, 5)
    assert not any(isinstance(a, A.Build) and a.piece == "settlement" for a in legal(s))
    check_cheap(s)
    copy = s.game.deserialize_state(s.serialize())
    assert copy.pieces_lost == s.pieces_lost


def test_a_supply_never_goes_below_none(ready):
    from catandsl.rules.supply import pieces_left, remove_from_supply

    game, s0 = ready
    s = s0.clone()
    me = s.turn_player
    settlement, road = game.piece_index["settlement"], game.piece_index["road"]
    for _ in range(10):
        remove_from_supply(s, me, ["settlement", "road"], 3)
    assert pieces_left(s, me, "settlement") == 0 and pieces_left(s, me, "road") == 0
    assert s.placed[me][settlement] + s.pieces_lost[me][settlement] == 5
    assert s.placed[me][road] + s.pieces_lost[me][road] == 15
    s.changed()
    check_cheap(s)


@pytest.mark.parametrize("call, code", [
    ("remove_from_supply(player, [settlement, road], 300)", "E0511"),
    ("remove_from_supply(player, [robber], 3)", "E0504"),
])
def test_misuse_is_a_diagnostic(tmp_path, call, code):
    _, diags = compile_text(tmp_path, SOURCE.replace("remove_from_supply(player, [settlement, road], 3)", call))
    assert [d.code for d in diags] == [code]
