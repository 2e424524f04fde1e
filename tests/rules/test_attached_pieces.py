"""A piece attached to another (catandsl/rules/piece_state.py): `attach_piece` puts a
piece from the supply onto one on the board, counted as placed and scoring;
`attached` counts them; they go back to the supply with their host and move with it."""

from __future__ import annotations

import json

import pytest

from catandsl.engine import actions as A
from catandsl.engine.errors import StateError
from catandsl.rules.base import EngineError, location
from catandsl.rules.piece_moves import lift_piece, move_piece_to
from catandsl.rules.piece_state import attach_piece, attached
from tests.conftest import compile_text, game_of
from tests.engine.helpers import act, blank, give, legal, put, to_main
from tests.engine.soundness import check_cheap

SOURCE = """
scenario banners "Banners" {
  uses base
  piece banner {                # never built: only attached to a settlement or a city
    on intersection
    limit 2
    points 1
  }
  rule hoist {                  # on a 12 a banner goes up on each of the roller's settlements
    on dice_rolled(12) {
      for k in piece_sites(player, [settlement]) {
        if attached(k, banner) == 0 { attach_piece(k, player, banner) }
      }
    }
  }
  rule raze {                   # on a 2 the roller loses a settlement of their choice
    on dice_rolled(2) { remove_piece(player, player, [settlement]) }
  }
  turn {                        # the banner is never built on a site of its own
    phase roll { roll; play }
    phase main { trade; build road, settlement, city; buy; play }
  }
  map {
    rows \"\"\"
      f8  p5  h4
        m6  w9
    \"\"\"
    legend { f forest; p pasture; h hills; m mountains; w fields }
  }
}
"""


@pytest.fixture(scope="module")
def game(tmp_path_factory):
    return game_of(tmp_path_factory, SOURCE, players=3, name="banners")


def _two_apart(g):
    """Two intersections not next to each other."""
    b = g.board
    a = 0
    near = {d for x in b.corner_paths[a] for d in b.path_ends[x]}
    return a, next(k for k in range(len(b.intersections)) if k not in near)


def _around(s):
    act(s, A.EndTurn())
    for _ in range(2):  # around the table to player 0 again
        act(s, A.Roll(8))
        act(s, A.EndTurn())


def test_attached_scores_goes_back_with_its_host_and_serializes(game):
    s = blank(game)
    a, b = _two_apart(game)
    put(s, 0, "settlement", a)
    put(s, 0, "settlement", b)
    banner = game.piece_index["banner"]
    before = s.points(0)
    to_main(s, 12)
    assert attached(s, location("intersection", a), "banner") == 1
    assert attached(s, location("intersection", b), "banner") == 1
    assert s.attachments == [[0, a, 0, banner], [0, b, 0, banner]]
    assert s.placed[0][banner] == 2 and s.points(0) == before + 2
    check_cheap(s)
    copy = game.deserialize_state(s.serialize())
    assert copy.attachments == s.attachments
    _around(s)
    act(s, A.Roll(12))  # the supply is empty and each settlement carries one: nothing more
    assert s.placed[0][banner] == 2
    _around(s)
    act(s, A.Roll(2))
    act(s, A.RemoveFromIntersection(a))
    assert attached(s, location("intersection", a), "banner") == 0
    assert s.attachments == [[0, b, 0, banner]] and s.placed[0][banner] == 1
    assert s.points(0) == before + 1 - 1  # a settlement and its banner gone, one banner left
    check_cheap(s)


def test_attached_moves_with_its_host_and_leaves_when_it_is_lifted(game):
    s = blank(game)
    a, b = _two_apart(game)
    put(s, 1, "settlement", a)
    banner = game.piece_index["banner"]
    attach_piece(s, location("intersection", a), 2, "banner")  # anybody's piece on it
    assert s.placed[2][banner] == 1
    move_piece_to(s, location("intersection", a), location("intersection", b))
    assert attached(s, location("intersection", a), "banner") == 0
    assert attached(s, location("intersection", b), "banner") == 1
    assert s.attachments == [[0, b, 2, banner]]
    check_cheap(s)
    lift_piece(s, location("intersection", b))
    assert s.attachments == [] and s.placed[2][banner] == 0
    check_cheap(s)


def test_an_attached_only_kind_is_not_built(game):
    s = blank(game)
    put(s, 0, "settlement", 0)
    put(s, 0, "road", game.board.corner_paths[0][0])
    give(s, 0, 5, 5, 5, 5, 5)
    to_main(s, 8)
    assert any(isinstance(a, A.Build) for a in legal(s))
    assert not [a for a in legal(s) if isinstance(a, A.Build) and a.piece == "banner"]


def test_nothing_is_attached_to_an_empty_site_and_a_broken_record_is_refused(game):
    s = blank(game)
    attach_piece(s, location("intersection", 3), 0, "banner")
    attach_piece(s, location("hex", 0), 0, "banner")
    assert s.attachments == [] and s.placed[0][game.piece_index["banner"]] == 0
    with pytest.raises(EngineError, match="robber"):
        attach_piece(s, location("intersection", 3), 0, "robber")
    data = json.loads(s.serialize())
    data["attachments"] = [[0, 3, 0, game.piece_index["banner"]]]  # no piece stands on 3
    data["placed"][0][game.piece_index["banner"]] = 1
    with pytest.raises(StateError, match="attachments"):
        game.deserialize_state(json.dumps(data))


@pytest.mark.parametrize("old, new, code", [
    ("attach_piece(k, player, banner)", "attach_piece(ore, player, banner)", "E0504"),
    ("attach_piece(k, player, banner)", "attach_piece(k, player)", "E0503"),
    ("attached(k, banner)", "attached(k, ore)", "E0504"),
])
def test_misuse_is_a_diagnostic(tmp_path, old, new, code):
    _, diags = compile_text(tmp_path, SOURCE.replace(old, new))
    assert [d.code for d in diags] == [code]
