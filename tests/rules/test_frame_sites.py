"""The frame (B.10) and the pieces on it: no piece stands on the frame's hexes, or on a
path or intersection that touches nothing else, unless its `where` names `frame(at)`
(B.5: the pirate on frame sea "where the scenario allows"). From fixed positions on a
small framed island of its own."""

from __future__ import annotations

import pytest

import catandsl
from catandsl.engine import actions as A
from catandsl.rules.places import frame
from tests.conftest import scenario_of

SCENARIO = """
scenario framed "A framed island" {
  uses seafarers
  option pirate_waters {
    item inner "the pirate keeps off the frame" default
    item frame "the pirate may sail on the frame too"
  }
  when pirate_waters is frame {
    piece pirate {
      neutral
      on hex where water(at) or frame(at)
      blocks ship
      steals from ship
    }
  }
  map {
    rows \"\"\"
        ~   ~
      ~   f8  ~
        ~   ~
    \"\"\"
    legend { f forest; ~ sea }
    frame {
      piece AB 2
      piece BC 2
      piece CD 2
      piece DE 2
      piece EF 2
      piece FA 2
    }
    start robber on forest
  }
}
"""


@pytest.fixture(scope="module")
def scenario(tmp_path_factory):
    return scenario_of(tmp_path_factory, SCENARIO)


def _game(scenario, waters: str):
    return catandsl.new_game(scenario, 3, {"pirate_waters": waters}, 1)


def _frame_hexes(g) -> set[int]:
    return {h for h, x in enumerate(g.board.hexes) if g.board.tiles[x].frame_piece is not None}


def test_frame_names_the_frames_hexes_and_the_sites_touching_only_them(scenario):
    g = _game(scenario, "inner")
    s = g.new_initial_state()
    b = g.board
    ring = _frame_hexes(g)
    assert len(ring) == 12 and all(frame(s, ["h", h]) for h in ring)
    assert not any(frame(s, ["h", h]) for h in range(len(b.hexes)) if h not in ring)
    inner = {h for h in range(len(b.hexes)) if h not in ring}
    for k, hs in enumerate(b.path_hexes):
        assert frame(s, ["p", k]) == (not set(hs) & inner)


def test_by_default_the_pirate_never_stands_on_the_frame(scenario):
    g = _game(scenario, "inner")
    pirate = g.pieces[g.piece_index["pirate"]]
    assert not set(pirate.allowed) & _frame_hexes(g)
    assert set(pirate.allowed) == {h for h, x in enumerate(g.board.hexes)
                                   if h not in _frame_hexes(g) and g.board.hex_water[h]}


def test_a_where_that_names_the_frame_lets_the_pirate_sail_there(scenario):
    g = _game(scenario, "frame")
    pirate = g.pieces[g.piece_index["pirate"]]
    assert _frame_hexes(g) <= set(pirate.allowed)
    s = catandsl.position(g).turn(0, rolled=False).state()
    s.apply_action(g.action_id[A.Roll(7)])
    onto = min(_frame_hexes(g))
    moves = [a for a in map(g.actions.__getitem__, s.legal_actions()) if isinstance(a, A.Move) and a.at == onto]
    assert [m.piece for m in moves] == ["pirate"]
    s.apply_action(g.action_id[moves[0]])
    assert s.neutral_at[g.piece_index["pirate"]] == onto


def test_other_pieces_stay_off_the_frame(scenario):
    g = _game(scenario, "frame")
    ring = _frame_hexes(g)
    for name in ("ship", "road", "settlement"):
        P = g.pieces[g.piece_index[name]]
        hexes = g.board.path_hexes if P.site == "path" else g.board.corner_hexes
        assert all(set(hexes[k]) - ring for k in P.allowed), name
