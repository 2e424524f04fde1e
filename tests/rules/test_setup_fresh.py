"""A set-up that places an upgrade new (`place city new`, as Traders & Barbarians' set-up does) and pays per
producing hex (`collect last [N]`), on a three-hex map with two players."""

from __future__ import annotations

import pytest

from catandsl.compiler import compile_path
from catandsl.engine import IllegalAction
from catandsl.engine import actions as A
from catandsl.rules.scoring import points
from tests.conftest import THREE_HEXES, game_of

SCENARIO = """
scenario "Fresh city" {
  uses base
  players 2..3
  setup {
    round forward {
      place settlement
      place road touching last
    }
    round backward {
      place city new
      place road touching last
      COLLECT
    }
  }
""" + THREE_HEXES


def _game(tmp_path_factory, collect: str = "collect last"):
    return game_of(tmp_path_factory, SCENARIO.replace("COLLECT", collect), players=2)


def _place(s, piece: str, at: int) -> None:
    s.apply_action(s.game.action_id[A.Build(piece, at)])


def _any_road(s) -> None:
    s.apply_action(s.legal_actions()[0])  # the first road touching the piece just placed


def _round_one(s):
    """Player 0 settles at the forest's NW corner, player 1 at the other forest's NE."""
    b = s.game.board
    s.apply_action(s.game.action_id[A.StartPlayer(0)])
    _place(s, "settlement", b.intersection_id(0, 0, "NW"))
    _any_road(s)
    _place(s, "settlement", b.intersection_id(1, 0, "NE"))
    _any_road(s)


def test_the_city_goes_on_an_empty_intersection_under_the_distance_rule(tmp_path_factory):
    g = _game(tmp_path_factory)
    b = g.board
    s = g.new_initial_state()
    _round_one(s)
    assert s.current_player() == 1  # backward: the last player places first
    spots = sorted(a.at for a in (g.actions[k] for k in s.legal_actions()) if isinstance(a, A.Build))
    assert all(g.actions[k].piece == "city" for k in s.legal_actions())
    settled = [b.intersection_id(0, 0, "NW"), b.intersection_id(1, 0, "NE")]
    near = {m for c in settled for m in b.corner_neighbours[c]}
    assert spots and not set(spots) & (set(settled) | near)  # not on, not next to, a building
    # every other intersection of the land is open to it
    land = {c for c in range(len(b.intersections)) if b.corner_hexes[c]}
    assert set(spots) == land - set(settled) - near
    # the old rule still holds elsewhere: the player's own settlement cannot be upgraded here
    refused = s.game.action_id[A.Build("city", settled[1])]
    with pytest.raises(IllegalAction) as err:
        s.apply_action(refused)
    assert err.value.code == "action/invalid_target"
    assert s.corner_piece[settled[1]] == g.piece_index["settlement"]


def test_the_city_pays_one_card_per_producing_hex_and_takes_a_city_from_the_stock(tmp_path_factory):
    g = _game(tmp_path_factory)
    b = g.board
    s = g.new_initial_state()
    _round_one(s)
    _place(s, "city", b.intersection_id(0, 1, "SE"))  # player 1: beside the hills only
    _any_road(s)
    lumber, brick = g.res_index["lumber"], g.res_index["brick"]
    assert s.hands[1][brick] == 1 and sum(s.hands[1]) == 1
    middle = b.intersection_id(0, 0, "SE")  # two forests and the hills
    assert middle in [g.actions[k].at for k in s.legal_actions()]
    _place(s, "city", middle)  # player 0
    _any_road(s)
    assert s.stage == "turn"
    # one card per hex, though a city produces 2
    assert s.hands[0][lumber] == 2 and s.hands[0][brick] == 1 and sum(s.hands[0]) == 3
    assert sum(s.bank) + sum(map(sum, s.hands)) == sum(g.bank_start)
    settlement, city = g.piece_index["settlement"], g.piece_index["city"]
    for p in (0, 1):  # a city from the stock, the settlement of round 1 stays
        assert s.placed[p][settlement] == 1 and s.placed[p][city] == 1
        assert points(s, p) == 3
    assert s.corner_piece[middle] == city and s.corner_owner[middle] == 0
    assert s.corner_piece[b.intersection_id(0, 0, "NW")] == settlement


def test_collect_last_with_a_count_pays_that_many_per_hex(tmp_path_factory):
    g = _game(tmp_path_factory, "collect last 2")
    b = g.board
    s = g.new_initial_state()
    _round_one(s)
    _place(s, "city", b.intersection_id(0, 1, "SE"))
    _any_road(s)
    _place(s, "city", b.intersection_id(0, 0, "SE"))
    _any_road(s)
    lumber, brick = g.res_index["lumber"], g.res_index["brick"]
    assert s.hands[0][lumber] == 4 and s.hands[0][brick] == 2
    assert s.hands[1][brick] == 2 and sum(s.hands[1]) == 2


def test_a_city_bought_later_still_upgrades_a_settlement(tmp_path_factory):
    g = _game(tmp_path_factory)
    b = g.board
    s = g.new_initial_state()
    _round_one(s)
    _place(s, "city", b.intersection_id(0, 1, "SE"))
    _any_road(s)
    _place(s, "city", b.intersection_id(0, 0, "SE"))
    _any_road(s)
    if not s.is_chance_node():
        s.apply_action(g.action_id[A.RollDice()])
    s.apply_action(g.action_id[A.Roll(3)])  # no hex has a 3
    s.hands[0] = [0, 0, 0, 2, 3]
    s.bank = [b - h for b, h in zip(s.bank, [0, 0, 0, 2, 3])]
    s.changed()
    cities = [g.actions[k] for k in s.legal_actions() if isinstance(g.actions[k], A.Build)]
    assert cities == [A.Build("city", b.intersection_id(0, 0, "NW"))]  # only on the settlement
    _place(s, "city", b.intersection_id(0, 0, "NW"))
    assert s.placed[0][g.piece_index["settlement"]] == 0 and s.placed[0][g.piece_index["city"]] == 2


@pytest.mark.parametrize("step, words", [
    ("place settlement new", "`settlement` upgrades no piece"),
    ("collect last 0", "count is 1 to 10"),
    ("collect last twice", "collect last N"),
])
def test_bad_fresh_steps_are_diagnosed(tmp_path, step, words):
    path = tmp_path / "bad.catan"
    path.write_text(SCENARIO.replace("COLLECT", step), encoding="utf-8")
    _, diags, _ = compile_path(path)
    assert [d.code for d in diags] == ["E0304"], [(d.code, d.message) for d in diags]
    assert words in diags[0].message
