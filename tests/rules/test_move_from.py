"""`move_piece_from(player, pieces, sites)` (catandsl/rules/neutral.py) moves only a
piece standing on one of the sites, and `next_paths(at)` (rules/places.py) names the
paths next to a path; a move prompt written without its `sources` loads as "any";
`relocate_from` chooses the piece the same way and robs nobody."""

from __future__ import annotations

import json

import pytest

from catandsl.engine import IllegalAction, StateError
from catandsl.engine import actions as A
from catandsl.rules import neutral
from catandsl.rules.places import next_paths
from tests.conftest import compile_text, game_of
from tests.engine.helpers import act, blank, give, legal, put

SCENARIO = '''
scenario "Bandits" {
  uses base
  piece bandit {
    neutral
    count 2
    on path where land(at)
    blocks road
  }
  rule chase {
    on built(road) if not in_setup() {
      move_piece_from(player, [bandit], next_paths(at))
    }
  }
  map {
    rows """
      f8  p5  h4
        m6  w9
    """
    legend { f forest; p pasture; h hills; m mountains; w fields }
    start bandit at [(0, 0) E, (2, 0) E]
    start robber on forest
  }
}
'''


def test_next_paths_are_the_paths_sharing_an_end(tmp_path_factory):
    g = game_of(tmp_path_factory, SCENARIO)
    s = g.new_initial_state()
    b = g.board
    k = b.path_id(0, 0, "E")
    got = [x for _, x in next_paths(s, ["p", k])]
    assert got == sorted({x for c in b.path_ends[k] for x in b.corner_paths[c]} - {k})


def _beside_the_bandit(g, s):
    """The bandit on (0, 0) E (`near`), the other (`far`), a free path next to near and
    not to far (`beside`), and its end away from near (`corner`)."""
    b = g.board
    bandit = g.piece_index["bandit"]
    near = b.path_id(0, 0, "E")
    far = [k for k in neutral.sites_of(s, bandit) if k != near][0]
    beside = next(x for x in sorted({x for c in b.path_ends[near] for x in b.corner_paths[c]} - {near})
                  if x not in neutral.sites_of(s, bandit)
                  and far not in {y for c in b.path_ends[x] for y in b.corner_paths[c]})
    corner = next(c for c in b.path_ends[beside] if c not in b.path_ends[near])
    return near, far, beside, corner


def test_only_a_piece_on_the_named_sites_moves(tmp_path_factory):
    g = game_of(tmp_path_factory, SCENARIO)
    s = blank(g)
    near, far, beside, corner = _beside_the_bandit(g, s)
    put(s, 0, "settlement", corner)
    give(s, 0, 1, 1, 0, 0, 0)
    act(s, A.Roll(8))
    act(s, A.Build("road", beside))  # the rule moves a bandit next to the new road
    moves = [x for x in legal(s) if isinstance(x, A.Move)]
    assert moves and {x.src for x in moves} == {near}  # the bandit next to it, not the other
    before = s.serialize()
    with pytest.raises(IllegalAction) as refused:
        act(s, A.Move("bandit", moves[0].at, far))
    assert refused.value.code == "action/invalid_target" and s.serialize() == before
    data = json.loads(s.serialize())
    prompt = next(p for p in data["pending"] if p["kind"] == "move")
    del prompt["sources"]  # a state written before moves could be restricted: any piece
    back = g.deserialize_state(json.dumps(data))
    assert {g.actions[a].src for a in back.legal_actions()} == {near, far}
    prompt["sources"] = [10**6]
    with pytest.raises(StateError):
        g.deserialize_state(json.dumps(data))


# `relocate_from(player, pieces, sites)`: the same choice of piece, and nobody robbed.
ROBBING = SCENARIO.replace("    blocks road\n", "    blocks road\n    steals from road\n")
RELOCATING = ROBBING.replace("move_piece_from(player, [bandit], next_paths(at))",
                             "relocate_from(player, [bandit], next_paths(at))")


def _move_onto_a_road(g):
    """Player 0 builds a road beside the bandit on (0, 0) E; the rule moves that bandit,
    which goes onto player 1's road on (1, 1) W, player 1 holding an ore. The state."""
    s = blank(g)
    near, _, beside, corner = _beside_the_bandit(g, s)
    road = g.board.path_id(1, 1, "W")
    put(s, 0, "settlement", corner)
    put(s, 1, "road", road)
    give(s, 0, 1, 1, 0, 0, 0)
    give(s, 1, 0, 0, 0, 0, 1)
    act(s, A.Roll(8))
    act(s, A.Build("road", beside))
    moves = [x for x in legal(s) if isinstance(x, A.Move)]
    assert moves and {x.src for x in moves} == {near}  # the bandit next to the new road only
    act(s, A.Move("bandit", road, near))
    return s


@pytest.mark.parametrize("text, robs", [(ROBBING, True), (RELOCATING, False)])
def test_relocate_from_moves_the_piece_on_the_sites_and_robs_nobody(tmp_path_factory, text, robs):
    g = game_of(tmp_path_factory, text)
    s = _move_onto_a_road(g)
    assert (legal(s) == [A.Steal(1)]) == robs
    if not robs:
        assert not s.pending and s.hands[1][4] == 1


def test_relocate_from_a_players_piece_is_e0504(tmp_path):
    bad = RELOCATING.replace("relocate_from(player, [bandit]", "relocate_from(player, [road]")
    _, diags = compile_text(tmp_path, bad)
    assert [d.code for d in diags if d.severity == "error"] == ["E0504"]
    assert "`relocate_from` takes neutral pieces; `road` is a player's piece" in diags[0].message


@pytest.mark.parametrize("call", ["move_piece_from(player, [road], next_paths(at))", "relocate(player, [road])",
                                  "move_piece(player, [road])"])
def test_every_primitive_that_moves_neutral_pieces_refuses_a_players_piece(tmp_path, call):
    """The kind of piece a primitive takes is registered with it (`pieces=`), and the
    compiler checks every such primitive, not a list of names of its own."""
    bad = ROBBING.replace("move_piece_from(player, [bandit], next_paths(at))", call)
    _, diags = compile_text(tmp_path, bad)
    name = call.partition("(")[0]
    assert [d.code for d in diags if d.severity == "error"] == ["E0504"]
    assert f"`{name}` takes neutral pieces; `road` is a player's piece" in diags[0].message
