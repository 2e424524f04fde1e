"""`remove_piece(chooser, owner, pieces)` (catandsl/rules/removal.py) on a small map:
the chooser picks one of the owner's pieces, which leaves the board for the supply."""

from __future__ import annotations

import pytest

import catandsl
from catandsl.engine import actions as A
from catandsl.players import GreedyPlayer
from tests.conftest import compile_text
from tests.engine.soundness import check_board, check_cheap

SOURCE = """
scenario fire "Fire" {
  uses base
  rule fire {
    on dice_rolled(12) { remove_piece(player, left_of(player), [settlement, road]) }
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
def after_setup(tmp_path_factory):
    path = tmp_path_factory.mktemp("removal") / "fire.catan"
    path.write_text(SOURCE, encoding="utf-8")
    game = catandsl.new_game(catandsl.load(path), 3, {}, 1)
    s = game.new_initial_state()
    bots = [GreedyPlayer(p) for p in range(3)]
    while s.stage == "setup":
        s.apply_action(s.sample_chance() if s.is_chance_node() else bots[s.current_player()].choose(s))
    while not s.is_chance_node():  # up to the first roll of the dice
        s.apply_action(bots[s.current_player()].choose(s))
    return game, s


def _twelve(s) -> int:
    """Roll a 12: the rule asks the player whose turn it is to remove a piece of the
    player to their left."""
    s.apply_action(s.game.action_id[A.Roll(12)])
    return s.turn_player


def test_the_chooser_picks_one_of_the_owner_s_pieces(after_setup):
    game, s0 = after_setup
    s = s0.clone()
    me = _twelve(s)
    owner = (me + 1) % 3
    assert s.current_player() == me
    legal = [game.actions[a] for a in s.legal_actions()]
    corners = sorted(k for k, o in enumerate(s.corner_owner) if o == owner)
    paths = sorted(k for k, o in enumerate(s.path_owner) if o == owner)
    assert legal == [A.RemoveFromIntersection(k) for k in corners] + [A.RemoveFromPath(k) for k in paths]
    before = s.points(owner)
    s.apply_action(legal[0])
    assert s.corner_owner[corners[0]] == -1 and s.points(owner) == before - 1
    assert s.placed[owner][game.piece_index["settlement"]] == 1
    check_cheap(s)
    check_board(s)
    # the site is free again: a settlement may be built there once the distance rule allows
    assert corners[0] not in [k for k, o in enumerate(s.corner_owner) if o >= 0]


def test_a_road_removed_leaves_the_network(after_setup):
    game, s0 = after_setup
    s = s0.clone()
    me = _twelve(s)
    owner = (me + 1) % 3
    road = min(k for k, o in enumerate(s.path_owner) if o == owner)
    s.apply_action(game.action_id[A.RemoveFromPath(road)])
    assert s.path_owner[road] == -1
    assert s.placed[owner][game.piece_index["road"]] == 1
    check_board(s)


def test_with_nothing_of_those_kinds_on_the_board_nothing_happens(tmp_path):
    path = tmp_path / "fire.catan"
    path.write_text(SOURCE.replace("[settlement, road]", "[city]"), encoding="utf-8")
    game = catandsl.new_game(catandsl.load(path), 3, {}, 1)
    s = game.new_initial_state()
    bots = [GreedyPlayer(p) for p in range(3)]
    while s.stage == "setup":
        s.apply_action(s.sample_chance() if s.is_chance_node() else bots[s.current_player()].choose(s))
    while not s.is_chance_node():
        s.apply_action(bots[s.current_player()].choose(s))
    me = _twelve(s)  # nobody has a city: the rule removes nothing and the turn goes on
    kinds = {game.actions[a].KIND for a in s.legal_actions()}
    assert s.current_player() == me and not kinds & {"remove_from_intersection", "remove_from_path"}


def test_neutral_pieces_are_refused_when_the_file_compiles(tmp_path):
    _, diags = compile_text(tmp_path, SOURCE.replace("[settlement, road]", "[robber]"))
    assert [d.code for d in diags] == ["E0504"]
    assert "`remove_piece` takes a player's pieces; `robber` is a neutral piece" in diags[0].message


def test_replace_piece_downgrades_a_city_to_a_settlement(tmp_path):
    path = tmp_path / "quake.catan"
    path.write_text(SOURCE.replace("remove_piece(player, left_of(player), [settlement, road])",
                                   "replace_piece(player, left_of(player), [city], settlement)"), encoding="utf-8")
    game = catandsl.new_game(catandsl.load(path), 3, {}, 1)
    city, settlement = game.piece_index["city"], game.piece_index["settlement"]
    s = game.new_initial_state()
    bots = [GreedyPlayer(p) for p in range(3)]
    while s.stage == "setup":
        s.apply_action(s.sample_chance() if s.is_chance_node() else bots[s.current_player()].choose(s))
    while not s.is_chance_node():
        s.apply_action(bots[s.current_player()].choose(s))
    owner = (s.turn_player + 1) % 3
    corner = min(k for k, o in enumerate(s.corner_owner) if o == owner)
    from catandsl.rules.placement import place
    place(s, owner, city, corner)  # as if they had built a city there
    before = s.points(owner)
    me = _twelve(s)
    assert s.current_player() == me
    assert [game.actions[a] for a in s.legal_actions()] == [A.RemoveFromIntersection(corner)]
    text = catandsl.rules.words.describe(game, game.action_id[A.RemoveFromIntersection(corner)], state=s)
    assert text.startswith(f"Replace P{owner + 1}'s city on ") and text.endswith("with a settlement")
    s.apply_action(game.action_id[A.RemoveFromIntersection(corner)])
    assert (s.corner_owner[corner], s.corner_piece[corner]) == (owner, settlement)
    assert s.placed[owner][city] == 0 and s.placed[owner][settlement] == 2
    assert s.points(owner) == before - 1
    check_cheap(s)
    check_board(s)


def test_replace_piece_by_a_piece_of_another_site_is_refused_when_it_runs(tmp_path):
    path = tmp_path / "quake.catan"
    path.write_text(SOURCE.replace("remove_piece(player, left_of(player), [settlement, road])",
                                   "replace_piece(player, left_of(player), [city], road)"), encoding="utf-8")
    game = catandsl.new_game(catandsl.load(path), 3, {}, 1)
    s = game.new_initial_state()
    from catandsl.rules.base import EngineError
    from catandsl.rules.removal import replace_piece
    with pytest.raises(EngineError, match="on the same kind of site"):
        replace_piece(s, 0, 1, ["city"], "road")
