"""Awards and victory from fixed positions (Longest Road, Largest Army, winning)."""

from __future__ import annotations

import pytest

from catandsl.engine import actions as A
from catandsl.rules.hands import Discarding
from catandsl.rules.routes import longest_route
from tests.conftest import base_game, road_chain
from tests.engine.helpers import act, blank, give, legal, put, to_main

ROAD_AWARD, ARMY_AWARD = 0, 1


@pytest.fixture
def g():
    return base_game()


def _disjoint_chains(g, k: int, n: int):
    """k road chains of n paths whose corners are pairwise apart (no shared or adjacent
    corners), as (paths, corners) pairs."""
    b = g.board
    out, taken = [], set()
    for start in range(len(b.intersections)):
        try:
            paths, corners = road_chain(g, start, n)
        except StopIteration:
            continue
        near = set(corners) | {m for c in corners for m in b.corner_neighbours[c]}
        if near & taken:
            continue
        out.append((paths, corners))
        taken |= near
        if len(out) == k:
            return out
    raise AssertionError("board too small for the test")


def _roads(s, player, paths):
    for x in paths:
        put(s, player, "road", x)


def _next_turn_of(s, player):
    """End the current turn, pass the others (rolling 2), and roll for `player`."""
    act(s, A.EndTurn())
    while True:
        if not s.is_chance_node():
            act(s, A.RollDice())
        act(s, A.Roll(2))
        if s.turn_player == player:
            return
        act(s, A.EndTurn())


def test_longest_road_tie_keeps_strictly_longer_takes(g):
    s = blank(g)
    (p0, _), (p1, _) = _disjoint_chains(g, 2, 6)
    _roads(s, 0, p0[:5])
    _roads(s, 1, p1[:4])
    give(s, 1, 2, 2, 0, 0, 0)
    to_main(s)
    assert s.award_holder[ROAD_AWARD] == 0
    _next_turn_of(s, 1)
    act(s, A.Build("road", p1[4]))  # 5 = 5: a tie, the holder keeps the card
    assert s.award_holder[ROAD_AWARD] == 0
    act(s, A.Build("road", p1[5]))  # 6 > 5: strictly longer takes it
    assert s.award_holder[ROAD_AWARD] == 1 and s.points(0) == 0 and s.points(1) == 2


def _broken(g, other_lengths):
    """Player 0 holds Longest Road with 6; players 1.. have roads of `other_lengths`;
    player 3 is to act with a settlement's cards and a road that reaches corner 2 of
    player 0's chain."""
    s = blank(g)
    chains = _disjoint_chains(g, 3, 6)
    (p0, c0) = chains[0]
    _roads(s, 0, p0)
    for player, (length, (paths, _)) in enumerate(zip(other_lengths, chains[1:]), start=1):
        _roads(s, player, paths[:length])
    b = g.board
    spur = next(x for x in b.corner_paths[c0[3]] if x not in p0 and s.path_owner[x] == -1)
    put(s, 3, "road", spur)
    give(s, 3, 1, 1, 1, 1, 0)
    to_main(s)
    assert s.award_holder[ROAD_AWARD] == 0
    _next_turn_of(s, 3)
    act(s, A.Build("settlement", c0[3]))  # breaks 6 into 3 + 3
    assert longest_route(s, 0, ["road"]) == 3
    return s


def test_broken_road_goes_to_the_one_longest_other(g):
    s = _broken(g, [5, 4])
    assert s.award_holder[ROAD_AWARD] == 1


def test_broken_road_with_a_tie_is_set_aside_until_someone_is_longest(g):
    s = _broken(g, [5, 5])
    assert s.award_holder[ROAD_AWARD] == -1
    give(s, 2, 1, 1, 0, 0, 0)
    (paths, _) = _disjoint_chains(g, 3, 6)[2]
    _next_turn_of(s, 2)
    act(s, A.Build("road", paths[5]))
    assert s.award_holder[ROAD_AWARD] == 2


def test_largest_army_needs_strictly_more(g):
    s = blank(g)
    k = g.card_index["knight"]
    s.played[0][k] = 3
    s.played[1][k] = 2
    s.cards[1][k] = 2
    s.deck[k] -= 7
    s.changed()
    to_main(s)
    assert s.award_holder[ARMY_AWARD] == 0
    for expected in (0, 1):  # 3 = 3 keeps, 4 > 3 takes
        _next_turn_of(s, 1)
        act(s, A.PlayCard("knight"))
        act(s, A.Move("robber", next(h for h in (5, 6) if h != s.neutral_at[g.piece_index["robber"]])))
        assert s.award_holder[ARMY_AWARD] == expected


def test_victory_point_card_wins_at_once_on_own_turn(g):
    s = blank(g)
    for c in (18, 20, 22):
        put(s, 0, "city", c)
    for c in (47, 74, 62):
        put(s, 0, "settlement", c)
    give(s, 0, 0, 0, 1, 1, 1)
    to_main(s)
    assert s.points(0) == 9
    act(s, A.BuyCard("development"))
    act(s, A.Draw("development", "victory_point"))
    assert s.is_terminal() and s.winner == 0 and s.reason == "victory"


def test_ten_points_on_another_players_turn_wins_on_ones_own_turn(g):
    s = blank(g)
    chains = _disjoint_chains(g, 3, 6)
    (p2, c2), (p1, _) = chains[0], chains[1]
    _roads(s, 2, p2)
    _roads(s, 1, p1[:5])
    b = g.board
    used = {m for _, cs in chains for c in cs for m in (c, *b.corner_neighbours[c])}
    for c in [c for c in range(len(b.intersections)) if c not in used][:40:10]:
        put(s, 1, "city", c)
    assert s.points(1) == 8
    spur = next(x for x in g.board.corner_paths[c2[3]] if x not in p2 and s.path_owner[x] == -1)
    put(s, 0, "road", spur)
    give(s, 0, 1, 1, 1, 1, 0)
    to_main(s)
    assert s.award_holder[ROAD_AWARD] == 2
    act(s, A.Build("settlement", c2[3]))  # player 0 breaks player 2's road
    assert s.award_holder[ROAD_AWARD] == 1 and s.points(1) == 10
    assert not s.is_terminal()  # not player 1's turn
    act(s, A.EndTurn())
    assert s.is_terminal() and s.winner == 1 and s.turn_player == 1


@pytest.mark.parametrize("victim_cards", [1, 0])
def test_steal_only_from_adjacent_players_with_cards(g, victim_cards):
    s = blank(g)
    put(s, 0, "settlement", 30)  # own building: never a victim
    put(s, 1, "settlement", 18)
    put(s, 2, "settlement", 32)  # adjacent but no cards
    put(s, 3, "settlement", 47)  # has cards but not adjacent
    give(s, 0, 1, 0, 0, 0, 0)
    give(s, 1, 0, victim_cards, 0, 0, 0)
    give(s, 3, 1, 1, 1, 0, 0)
    act(s, A.Roll(7))
    act(s, A.Move("robber", 5))
    if victim_cards:
        assert legal(s) == [A.Steal(1)]
    else:  # nobody to rob: the turn goes on
        assert not s.pending and A.EndTurn() in legal(s)


@pytest.mark.parametrize("cards,discard", [(7, 0), (8, 4), (9, 4), (11, 5)])
def test_discard_half_rounded_down(g, cards, discard):
    s = blank(g)
    give(s, 1, *(2, 2, 2, 2, cards - 8) if cards >= 8 else (cards, 0, 0, 0, 0))
    act(s, A.Roll(7))
    done = 0
    while isinstance(s.top(), Discarding):
        assert s.current_player() == 1
        s.apply_action(s.legal_actions()[0])
        done += 1
    assert done == discard and sum(s.hands[1]) == cards - discard
    assert s.current_player() == 0  # now the roller moves the robber
