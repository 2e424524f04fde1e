"""Neutral seats (`neutral_seats N`, catandsl/rules/seats.py), a seat's pieces placed
before the set-up (`start settlement of neutral 1 at (q, r) N`), `build_free_for`, and
the dice rolled twice a turn with different totals (`rolls 2 distinct`), on a small
board of their own."""

from __future__ import annotations

import json
import random

import pytest

from catandsl.engine import IllegalAction, StateError
from catandsl.engine import actions as A
from catandsl.rules import placement
from catandsl.rules.places import owner
from catandsl.rules.seats import neutral_seat, neutral_seats
from tests.conftest import compile_text, game_of
from tests.engine.helpers import act, blank, give, legal, put

SCENARIO = '''
scenario neighbours "Neighbours" {
  uses base
  players 2..3
  neutral_seats 1
  dice 2d6 { rolls 2 distinct }
  rule neighbour_builds {
    on built(road) if not in_setup() and not neutral_seat(player) {
      build_free_for(player, neutral_seats(), [road])
    }
    on built(settlement) if not in_setup() and not neutral_seat(player) {
      build_free_for(player, neutral_seats(), [settlement, road])
    }
  }
  map {
    rows """
      f8  p5  h4
        m6  w9
    """
    legend { f forest; p pasture; h hills; m mountains; w fields }
    start robber on forest
    start settlement of neutral 1 at (1, 0) N
  }
}
'''


def codes_of(diags) -> set[str]:
    return {d.code for d in diags}


@pytest.fixture
def g(tmp_path_factory):
    return game_of(tmp_path_factory, SCENARIO, players=2)


def _corner(g, q, r, c):
    return g.board.intersection_id(q, r, c)


def test_a_neutral_seat_follows_the_players_and_its_settlement_stands_before_the_set_up(g):
    s = g.new_initial_state()
    start = _corner(g, 1, 0, "N")
    assert g.num_seats == 3 and neutral_seats(s) == [2]
    assert s.corner_owner[start] == 2 and s.placed[2][g.piece_index["settlement"]] == 1
    assert owner(s, ["i", start]) == 2 and neutral_seat(s, 2) and not neutral_seat(s, 1)
    assert s.scores() == [0, 0]  # not a player: no points, no hand, no turn
    act(s, A.StartPlayer(0))
    spots = {a.at for a in legal(s) if isinstance(a, A.Build)}
    assert start not in spots and not set(g.within[2][start]) & spots  # the distance rule


def test_the_set_up_builds_nothing_for_the_neutral_seat_and_it_takes_no_turn(g):
    s = g.new_initial_state()
    rng = random.Random(3)
    while s.stage == "setup" or s.turns < 4:
        s.apply_action(s.sample_chance() if s.is_chance_node() else rng.choice(s.legal_actions()))
        assert s.current_player() in (-1, 0, 1)
    road = g.piece_index["road"]
    assert s.placed[2][road] == sum(1 for o in s.path_owner if o == 2)


def test_a_road_built_in_play_gives_the_neutral_seat_a_road_on_its_own_network(g):
    s = blank(g)
    b = g.board
    start = _corner(g, 1, 0, "N")
    put(s, 2, "settlement", start)
    mine = _corner(g, 0, 1, "S")
    put(s, 0, "settlement", mine)
    road = b.corner_paths[mine][0]
    give(s, 0, 1, 1, 0, 0, 0)
    act(s, A.Roll(8))
    act(s, A.Roll(6))
    act(s, A.Build("road", road))
    offered = legal(s)
    assert offered and all(isinstance(a, A.BuildFor) and a.seat == 2 and a.piece == "road" for a in offered)
    assert {a.at for a in offered} == set(b.corner_paths[start])  # touching its settlement
    before = s.serialize()
    with pytest.raises(IllegalAction):
        act(s, A.BuildFor(2, "road", road))  # not next to the neutral's pieces
    assert s.serialize() == before
    act(s, offered[0])
    assert s.path_owner[offered[0].at] == 2 and s.placed[2][g.piece_index["road"]] == 1
    assert placement.pieces_on_board(s) == s.placed
    back = g.deserialize_state(s.serialize())
    assert back.serialize() == s.serialize()


def test_a_settlement_gives_a_neutral_settlement_else_a_road(g):
    s = blank(g)
    b = g.board
    start = _corner(g, 1, 0, "N")
    put(s, 2, "settlement", start)
    # two neutral roads lead to a spot two steps away: a settlement may stand there
    x1 = b.corner_paths[start][0]
    c1 = next(c for c in b.path_ends[x1] if c != start)
    x2 = next(x for x in b.corner_paths[c1] if x != x1)
    c2 = next(c for c in b.path_ends[x2] if c != c1)
    put(s, 2, "road", x1)
    put(s, 2, "road", x2)
    far = next(c for c in range(len(b.intersections)) if all(
        c not in g.within[2][k] and c != k for k in (start, c1, c2)) and len(b.corner_hexes[c]) > 0)
    mine_road = b.corner_paths[far][0]
    put(s, 0, "road", mine_road)
    give(s, 0, 1, 1, 1, 1, 0)
    act(s, A.Roll(8))
    act(s, A.Roll(6))
    act(s, A.Build("settlement", far))
    assert legal(s) == [A.BuildFor(2, "settlement", c2)]
    act(s, A.BuildFor(2, "settlement", c2))
    assert s.corner_owner[c2] == 2
    # no settlement spot left for the neutral: a road instead
    s2 = blank(g)
    put(s2, 2, "settlement", start)
    put(s2, 0, "road", mine_road)
    give(s2, 0, 1, 1, 1, 1, 0)
    act(s2, A.Roll(8))
    act(s2, A.Roll(6))
    act(s2, A.Build("settlement", far))
    assert legal(s2) and all(a.piece == "road" for a in legal(s2))


def test_neutral_seats_never_receive_resources_nor_are_robbed(g):
    s = blank(g)
    b = g.board
    hex5 = b.hex_id(1, 0)  # pasture 5
    corner = b.hex_corners[hex5][0]
    put(s, 2, "settlement", corner)
    bank = list(s.bank)
    act(s, A.Roll(5))
    assert s.bank == bank and s.hands == [[0] * 5, [0] * 5]
    give(s, 0, 1, 0, 0, 0, 0)
    act(s, A.Roll(7))  # the second roll: the robber, with nobody to rob at the neutral
    act(s, A.Move("robber", hex5))
    assert not s.pending and not any(isinstance(a, A.Steal) for a in legal(s))


def test_two_rolls_a_turn_the_second_total_differs_and_nothing_comes_between(g):
    s = blank(g)
    s.cards[0][g.card_index["knight"]] = 1
    s.deck[g.card_index["knight"]] -= 1
    s.changed()
    act(s, A.RollDice())
    act(s, A.Roll(8))
    assert s.is_chance_node()  # the second roll at once: no Knight between the rolls
    outcomes = {g.actions[a].total: p for a, p in s.chance_outcomes()}
    assert 8 not in outcomes and abs(sum(outcomes.values()) - 1) < 1e-9
    assert outcomes[7] == pytest.approx(6 / 31)
    act(s, A.Roll(6))
    assert not s.is_chance_node() and s.turn_rolls == [8, 6]
    act(s, A.EndTurn())
    assert s.turn_rolls == []
    data = json.loads(s.serialize())
    data["turn_rolls"] = [5, 6, 8]
    with pytest.raises(StateError):
        g.deserialize_state(json.dumps(data))


def test_a_seven_is_resolved_in_full_before_the_second_roll(g):
    s = blank(g)
    give(s, 1, 2, 2, 2, 2, 0)  # 8 cards: discards 4
    act(s, A.Roll(7))
    assert not s.is_chance_node() and s.current_player() == 1  # the discard first
    for _ in range(4):
        act(s, legal(s)[0])
    assert any(isinstance(a, A.Move) for a in legal(s))  # then the robber


@pytest.mark.parametrize("line, code", [
    ("start settlement of neutral 2 at (1, 0) N", "E0411"),  # one neutral seat only
    ("start robber of neutral 1 at (1, 0) N", "E0411"),  # a neutral piece has no seat
    ("start settlement of visitor 1 at (1, 0) N", "E0304"),
])
def test_a_wrong_seat_start_is_a_located_diagnostic(tmp_path, line, code):
    text = SCENARIO.replace("    start settlement of neutral 1 at (1, 0) N", "    " + line)
    _, diags = compile_text(tmp_path, text)
    assert code in codes_of(diags)


def test_rolls_distinct_needs_enough_totals(tmp_path):
    text = SCENARIO.replace("dice 2d6 { rolls 2 distinct }", "dice 1d2 {\n    reroll 1\n    rolls 2 distinct\n  }")
    _, diags = compile_text(tmp_path, text)
    assert "E0304" in codes_of(diags)


def test_the_picture_draws_a_neutral_seats_pieces_in_a_colour_nobody_plays(g):
    from catandsl.render import palette
    from catandsl.render.state_svg import render_map, render_state

    s = g.new_initial_state()
    svg = render_state(g, s)
    start = _corner(g, 1, 0, "N")
    assert f'data-piece="settlement" data-owner="2" data-at="{start}"' in svg
    assert palette.player_colour(2) not in (palette.player_colour(0), palette.player_colour(1))
    assert palette.player_colour(2) in svg
    assert 'data-owner="2"' in render_map(g.board, g.ruleset)


def test_greedy_bots_play_a_whole_game_and_build_for_the_neutral_seat(g):
    from catandsl.players.base import play_game
    from catandsl.players.greedy import GreedyPlayer

    s, _ = play_game(g, [GreedyPlayer(0), GreedyPlayer(1)], log=False)
    assert s.is_terminal() and s.reason in ("victory", "turn_limit")
    assert sum(s.placed[2]) > 1  # the neutral seat got pieces besides its start
    assert placement.pieces_on_board(s) == s.placed


def test_a_neutral_seat_may_hold_an_award_its_seats_compete_for(tmp_path_factory):
    text = SCENARIO.replace("  dice 2d6 { rolls 2 distinct }", '''  dice 2d6 { rolls 2 distinct }
  award longest_road {
    title "Longest Road"
    points 2
    min 5
    measure longest_route(player, [road])
    neutral_seats compete
  }''')
    g = game_of(tmp_path_factory, text, players=2)
    s = blank(g)
    b = g.board
    c = _corner(g, 1, 0, "N")
    put(s, 2, "settlement", c)
    line, at = [], c
    while len(line) < 5:  # five neutral roads in a line
        x = next(x for x in b.corner_paths[at] if x not in line and s.path_owner[x] < 0
                 and all(b.path_ends[x] != b.path_ends[y] for y in line))
        line.append(x)
        at = next(e for e in b.path_ends[x] if e != at)
    for x in line[:4]:
        put(s, 2, "road", x)
    mine = next(x for x in range(len(b.paths)) if not set(b.path_ends[x]) & {e for y in line for e in b.path_ends[y]})
    put(s, 0, "settlement", b.path_ends[mine][0])
    give(s, 0, 1, 1, 0, 0, 0)
    act(s, A.Roll(8))
    act(s, A.Roll(6))
    act(s, A.Build("road", mine))
    act(s, A.BuildFor(2, "road", line[4]))
    army = list(g.ruleset.awards).index("longest_road")
    assert s.award_holder[army] == 2 and s.scores() == [1, 0]  # the award's points go to nobody
    g.deserialize_state(s.serialize())


def test_nothing_is_built_for_a_seat_without_a_legal_site_or_a_piece_left(g):
    s = blank(g)  # the neutral seat has nothing on the board: no network to build on
    b = g.board
    mine = _corner(g, 0, 1, "S")
    put(s, 0, "settlement", mine)
    give(s, 0, 1, 1, 0, 0, 0)
    act(s, A.Roll(8))
    act(s, A.Roll(6))
    act(s, A.Build("road", b.corner_paths[mine][0]))
    assert not s.pending and not any(isinstance(a, A.BuildFor) for a in legal(s))
    s = blank(g)
    start = _corner(g, 1, 0, "N")
    put(s, 2, "settlement", start)
    road = g.piece_index["road"]
    s.placed[2][road] = g.pieces[road].limit  # its supply of roads is used up
    s.changed()
    put(s, 0, "settlement", mine)
    give(s, 0, 1, 1, 0, 0, 0)
    act(s, A.Roll(8))
    act(s, A.Roll(6))
    act(s, A.Build("road", b.corner_paths[mine][0]))
    assert not s.pending
