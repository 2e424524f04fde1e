"""A player's piece moved along its owner's network by a rule
(catandsl/rules/piece_moves.py): `network_reach`, `choose_intersection`,
`move_piece_to` and `lift_piece`."""

from __future__ import annotations

import pytest

from catandsl.engine import actions as A
from catandsl.rules import piece_state
from catandsl.rules.base import location
from catandsl.rules.islands import vp_token
from catandsl.rules.piece_moves import PickIntersection, network_reach
from tests.conftest import compile_text, game_of, played_to_first_roll
from tests.engine.soundness import check_cheap

SOURCE = """
scenario riders "Riders" {
  uses base
  rule ride {    # on a 12 each of the roller's settlements may ride along their roads
    on dice_rolled(12) {
      for k in piece_sites(player, [settlement]) {
        let t = choose_intersection(player, network_reach(player, k, [road]))
        move_piece_to(k, t)
      }
    }
  }
  rule flood {   # on a 2 the roller's roads are swept back into their supply
    on dice_rolled(2) {
      for x in piece_sites(player, [road]) { lift_piece(x) }
    }
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
def ready(tmp_path_factory):
    game = game_of(tmp_path_factory, SOURCE, name="riders")
    return game, played_to_first_roll(game)


def _own(s, seat, kind):
    pi = s.game.piece_index[kind]
    return [k for k, (o, p) in enumerate(zip(s.corner_owner, s.corner_piece)) if o == seat and p == pi]


def _reach_by_hand(s, seat, start):
    """The ends of the seat's roads reached from start, walked without the primitive."""
    b, road = s.game.board, s.game.piece_index["road"]
    seen, todo = {start}, [start]
    while todo:
        c = todo.pop()
        if c != start and s.corner_owner[c] not in (-1, seat):
            continue
        for x in b.corner_paths[c]:
            if s.path_owner[x] == seat and s.path_piece[x] == road:
                for d in b.path_ends[x]:
                    if d not in seen:
                        seen.add(d)
                        todo.append(d)
    return sorted(seen - {start})


def test_a_settlement_rides_along_its_roads_with_its_level(ready):
    game, s0 = ready
    s = s0.clone()
    me = s.turn_player
    first = _own(s, me, "settlement")[0]
    piece_state.set_piece_level(s, location("intersection", first), 3)
    vp_token(s, me, location("intersection", first), 2)
    points = s.points(me)
    placed = list(s.placed[me])
    s.apply_action(game.action_id[A.Roll(12)])
    assert s.current_player() == me
    reach = _reach_by_hand(s, me, first)
    assert reach  # the set-up road leads somewhere
    assert sorted(game.actions[a] for a in s.legal_actions()) == [PickIntersection(c) for c in reach]
    to = next(c for c in reach if s.corner_owner[c] == -1)
    s.apply_action(game.action_id[PickIntersection(to)])
    assert s.corner_owner[first] == -1 and s.corner_owner[to] == me
    assert piece_state.piece_level(s, location("intersection", to)) == 3
    assert [(v.intersection, v.points) for v in s.vp_tokens] == [(to, 2)]
    assert s.placed[me][:len(placed)] == placed
    assert s.points(me) == points  # a settlement moved is still worth its point
    check_cheap(s)


def test_a_rivals_piece_is_reached_but_not_passed(ready):
    game, s0 = ready
    s = s0.clone()
    me = s.turn_player
    first = _own(s, me, "settlement")[0]
    reach = [c for _, c in network_reach(s, me, location("intersection", first), ["road"])]
    end = reach[0]
    s.corner_owner[end] = (me + 1) % game.num_players  # a rival's piece stands at the road's end
    beyond = [c for _, c in network_reach(s, me, location("intersection", first), ["road"])]
    assert end in beyond
    assert beyond == _reach_by_hand(s, me, first)


def test_lift_piece_sends_the_roads_back_to_the_supply(ready):
    game, s0 = ready
    s = s0.clone()
    me = s.turn_player
    road = game.piece_index["road"]
    assert s.placed[me][road] == 2
    s.apply_action(game.action_id[A.Roll(2)])
    assert s.placed[me][road] == 0
    assert me not in s.path_owner
    check_cheap(s)


@pytest.mark.parametrize("old, new, code", [
    ("network_reach(player, k, [road])", "network_reach(player, k, [ore])", "E0504"),
    ("move_piece_to(k, t)", "move_piece_to(k)", "E0503"),
    ("choose_intersection(player, network_reach(player, k, [road]))", "choose_intersection(player, [road])",
     "E0504"),
])
def test_misuse_is_a_diagnostic(tmp_path, old, new, code):
    _, diags = compile_text(tmp_path, SOURCE.replace(old, new))
    assert [d.code for d in diags] == [code]
