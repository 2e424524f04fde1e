"""Named areas of a map (`area NAME [...]`, rules/areas.py): what `in_area` holds for
hexes, intersections and paths, `pieces_in_area`, and a set-up and a rule written with
them (issue 12)."""

from __future__ import annotations

import random

import pytest

import catandsl
from catandsl.board import geometry as geo
from catandsl.engine import flow
from catandsl.rules.areas import in_area, owned_in_area, pieces_in_area
from catandsl.rules.base import site

MAP = """
scenario strip "Strip" {
  uses base
  setup {
    round forward {
      place settlement where not in_area(at, strip)
      place road touching last
    }
    round backward {
      place settlement where not in_area(at, strip)
      place road touching last
      collect last
    }
  }
  rule first_in_the_strip {
    on built(settlement) if in_area(at, strip) and pieces_in_area(strip, [settlement]) == 1 {
      vp_token(player, at, 2)
    }
  }
  map {
    rows \"\"\"
      f8  h5  m4
        p6  f9
    \"\"\"
    legend { f forest; h hills; m mountains; p pasture }
    area strip [(0, 0), (1, 1) S]
  }
}
"""


@pytest.fixture(scope="module")
def game(tmp_path_factory):
    path = tmp_path_factory.mktemp("areas") / "strip.catan"
    path.write_text(MAP, encoding="utf-8")
    return catandsl.new_game(catandsl.load(path), 3, {}, 1)


def test_an_area_holds_its_hexes_their_corners_the_corners_named_and_the_paths_inside(game):
    b = game.board
    s = game.new_initial_state()
    inside = {b.intersection_index[c] for c in geo.corners((0, 0))} | {
        b.intersection_index[geo.corner((1, 1), "S")]}
    assert {c for c in range(len(b.intersections)) if in_area(s, site("intersection", c), "strip")} == inside
    assert [h for h in range(len(b.hexes)) if in_area(s, site("hex", h), "strip")] == [b.hex_id(0, 0)]
    paths = {k for k in range(len(b.paths)) if in_area(s, site("path", k), "strip")}
    assert paths == {k for k, ends in enumerate(b.path_ends) if set(ends) <= inside}
    assert len(paths) == 6  # the sides of (0, 0); the lone corner adds no path


def test_the_set_up_keeps_out_and_the_first_settlement_inside_scores(game):
    b = game.board
    strip = b.area_corners["strip"]
    s = game.new_initial_state()
    rng = random.Random(2)
    while s.stage == "setup":
        legal = s.legal_actions()
        s.apply_action(s.sample_chance() if s.is_chance_node() else rng.choice(legal))
    assert not any(s.corner_owner[c] >= 0 for c in strip)
    assert pieces_in_area(s, "strip", ["settlement"]) == 0
    # the first settlement in the strip scores 2, a second one nothing
    spots = [c for c in sorted(strip) if all(s.corner_owner[m] < 0 for m in b.corner_neighbours[c])]
    for n, c in enumerate(spots[:2]):
        s.corner_owner[c], s.corner_piece[c] = n, game.piece_index["settlement"]
        s.emit("built", {"player": n, "piece": "settlement", "at": site("intersection", c)})
        flow.advance(s)
    assert pieces_in_area(s, "strip", ["settlement", "city"]) == 2
    assert [owned_in_area(s, p, "strip", ["settlement"]) for p in range(3)] == [1, 1, 0]
    assert owned_in_area(s, 0, "strip", ["city", "road"]) == 0
    assert [t for t in s.vp_tokens if t[2]] == [[0, spots[0], 2]]
