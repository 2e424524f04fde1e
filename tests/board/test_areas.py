"""Named areas of a map (`area NAME [...]`, rules/areas.py): what `in_area` holds for
hexes, intersections and paths, `pieces_in_area`, and a set-up and a rule written with
them."""

from __future__ import annotations

import random

import pytest

import catandsl
from catandsl.board import geometry as geo
from catandsl.engine import flow
from catandsl.rules.areas import in_area, owned_in_area, pieces_in_area
from catandsl.rules.base import location
from tests.conftest import game_of

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
    return game_of(tmp_path_factory, MAP)


def test_an_area_holds_its_hexes_their_corners_the_corners_named_and_the_paths_inside(game):
    b = game.board
    s = game.new_initial_state()
    inside = {b.intersection_index[c] for c in geo.corners((0, 0))} | {
        b.intersection_index[geo.corner((1, 1), "S")]}
    assert {c for c in range(len(b.intersections)) if in_area(s, location("intersection", c), "strip")} == inside
    assert [h for h in range(len(b.hexes)) if in_area(s, location("hex", h), "strip")] == [b.hex_id(0, 0)]
    paths = {k for k in range(len(b.paths)) if in_area(s, location("path", k), "strip")}
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
        s.emit("built", {"player": n, "piece": "settlement", "at": location("intersection", c)})
        flow.advance(s)
    assert pieces_in_area(s, "strip", ["settlement", "city"]) == 2
    assert [owned_in_area(s, p, "strip", ["settlement"]) for p in range(3)] == [1, 1, 0]
    assert owned_in_area(s, 0, "strip", ["city", "road"]) == 0
    assert [t for t in s.vp_tokens if t.points] == [(0, spots[0], 2)]


# A wagon travels path by path and stands beside whatever is on its path: the area's
# counts take it where it stands, and follow it when it travels out.
WAGONS = """
scenario wagons "Wagons in the strip" {
  uses base
  token mark { supply 10 }
  piece wagon {
    on path where land(at)
    limit 1
    travels {
      points 4
      step_cost 1
    }
  }
  rule wagon_in_the_strip {
    on traveled(wagon) if owned_in_area(player, strip, [wagon]) > 0 and pieces_in_area(strip, [wagon]) > 0 {
      give_tokens(player, mark, 1)
    }
  }
  turn {
    phase roll { roll; play }
    phase main { trade; build; buy; play; travel }
  }
  map {
    rows \"\"\"
      f8  h5  m4
        p6  f9
    \"\"\"
    legend { f forest; h hills; m mountains; p pasture }
    area strip [(0, 0)]
  }
}
"""


@pytest.fixture(scope="module")
def wagons(tmp_path_factory):
    return game_of(tmp_path_factory, WAGONS)


def test_a_travelling_piece_counts_in_the_area_where_it_stands(wagons):
    from catandsl.rules.travel import Travel

    g = wagons
    b = g.board
    inside = sorted(k for k, ends in enumerate(b.path_ends) if set(ends) <= set(b.area_corners["strip"]))
    # a path of the strip with a path outside it at one end (the wagon steps out there)
    at, out = next((k, x) for k in inside for c in b.path_ends[k] for x in b.corner_paths[c]
                   if x not in inside and set(b.path_ends[x]) - set(b.area_corners["strip"]))
    state = catandsl.position(g).place(1, "road", at).place(1, "wagon", at).place(0, "wagon", out) \
        .turn(1, phase="main").state()
    assert pieces_in_area(state, "strip", ["wagon"]) == 1  # player 0's wagon stands outside
    assert pieces_in_area(state, "strip", ["wagon", "road"]) == 2
    assert [owned_in_area(state, p, "strip", ["wagon"]) for p in range(3)] == [0, 1, 0]
    # a step inside the strip, then one out: the rule pays only while the wagon is in it
    step_in = next(x for c in b.path_ends[at] for x in b.corner_paths[c] if x in inside and x != at)
    state.apply_action(g.action_id[Travel("wagon", at, step_in)])
    assert state.tokens_held[1][g.token_index["mark"]] == 1
    back_out = next(x for c in b.path_ends[step_in] for x in b.corner_paths[c] if x not in inside)
    state.apply_action(g.action_id[Travel("wagon", step_in, back_out)])
    assert owned_in_area(state, 1, "strip", ["wagon"]) == pieces_in_area(state, "strip", ["wagon"]) == 0
    assert state.tokens_held[1][g.token_index["mark"]] == 1


# Only the 4-player map declares the area (and names an island), and only a rule under
# `for 4 players` reads them: the 3-player game never meets them.
PER_COUNT = """
scenario per_count "Per count" {
  uses seafarers
  for 3 players {
    map {
      rows \"\"\"
        f8  ~   h5
      \"\"\"
      legend { f forest; ~ sea; h hills }
      start pirate at (1, 0)
    }
  }
  for 4 players {
    rule north_bonus {
      on built(settlement) if in_area(at, north) and on_island(at, home) { vp_token(player, at, 1) }
    }
    map {
      rows \"\"\"
        f8  ~   h5
      \"\"\"
      legend { f forest; ~ sea; h hills }
      area north [(0, 0)]
      island home at (0, 0)
      start pirate at (1, 0)
    }
  }
}
"""


def test_an_area_read_only_under_for_n_players_needs_only_that_map(tmp_path):
    from catandsl.checks import check_path

    path = tmp_path / "per_count.catan"
    path.write_text(PER_COUNT, encoding="utf-8")
    scenario, diags, _ = check_path(path)
    assert scenario is not None and not diags, [(d.code, d.span.line, d.message) for d in diags]
    # the rule is in the 4-player game and scores there
    g = catandsl.new_game(scenario, 4, {}, 1)
    corner = g.board.intersection_index[geo.corner((0, 0), "N")]
    road = next(k for k in g.board.corner_paths[corner] if k in g.pieces[g.piece_index["road"]].allowed_set)
    state = catandsl.position(g).place(0, "road", road).place(0, "settlement", corner, rules=True).state()
    assert [t[:2] for t in state.vp_tokens] == [(0, corner)]
    # the rule moved out of the `for`: the 3-player map lacks both names again
    moved = PER_COUNT.replace("  for 4 players {\n    rule", "  rule", 1).replace(
        "vp_token(player, at, 1) }\n    }\n", "vp_token(player, at, 1) }\n    }\n  for 4 players {\n", 1)
    path.write_text(moved, encoding="utf-8")
    scenario, diags, _ = check_path(path)
    assert scenario is None
    assert sorted((d.code, d.span.line, d.message) for d in diags) == [
        ("E0416", 14, "the map for 3 players names no island `home`"),
        ("E0432", 14, "the map for 3 players names no area `north`")]


def test_a_set_up_steps_where_reads_the_player_placing(tmp_path):
    """A set-up step's `where` is judged as each player places, so it sees `player`
    (a piece's own `where`, worked out once for the board, does not: E0505)."""
    from catandsl.checks import check_path

    text = MAP.replace("place settlement where not in_area(at, strip)",
                       "place settlement where not in_area(at, strip) and count(opponents(player)) == 2")
    path = tmp_path / "strip_player.catan"
    path.write_text(text, encoding="utf-8")
    scenario, diags, _ = check_path(path)
    assert scenario is not None and not diags, [(d.code, d.message) for d in diags]
    s = catandsl.new_game(scenario, 3, {}, 1).new_initial_state()
    rng = random.Random(3)
    while s.stage == "setup":
        s.apply_action(s.sample_chance() if s.is_chance_node() else rng.choice(s.legal_actions()))
    assert s.corner_piece.count(s.game.piece_index["settlement"]) == 6  # two for each of 3 players
    assert not any(s.corner_owner[c] >= 0 for c in s.game.board.area_corners["strip"])
    path.write_text(MAP.replace("  rule first_in_the_strip", "  piece tower {\n    on intersection where "
                                "count(opponents(player)) == 2\n    limit 1\n  }\n  rule first_in_the_strip"),
                    encoding="utf-8")
    scenario, diags, _ = check_path(path)
    assert scenario is None and [d.code for d in diags] == ["E0505"]


@pytest.mark.parametrize("items, column", [("(0, 0), (5, 0)", 25), ("(0, 0), (0, 0) N, (7, 7) S", 35)])
def test_an_area_item_off_the_board_is_pointed_at(tmp_path, items, column):
    """E0432 points at the hex or the intersection that is off the board."""
    from tests.conftest import compile_text

    text = MAP.replace("area strip [(0, 0), (1, 1) S]", f"area strip [{items}]")
    scenario, diags = compile_text(tmp_path, text)
    assert scenario is None
    line = next(k for k, row in enumerate(text.splitlines(), 1) if "area strip" in row)
    assert [(d.code, d.span.line, d.span.column) for d in diags] == [("E0432", line, column)]
