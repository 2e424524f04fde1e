"""A piece's `placed where COND`: a condition on the builder (`player`) and the site
(`at`) judged at each placement, reading the builder's own network
(catandsl/rules/placement.py, catandsl/rules/nearby.py)."""

from __future__ import annotations

import random

import pytest

import catandsl
from catandsl.players import GreedyPlayer
from tests.conftest import compile_text
from tests.engine.soundness import check_board, check_cheap

SOURCE = """
scenario chain "One long road" {
  uses base
  piece road {
    on path where land(at)
    cost brick + lumber
    limit 15
    connects road, settlement, city
    placed where owned_next_to(player, at, [road]) <= 1
  }
  map {
    rows \"\"\"
      f8  p5  h4
        m10 f6  f3
    \"\"\"
    legend { f forest; p pasture; h hills; m mountains }
  }
}
"""


@pytest.fixture(scope="module")
def scenario(tmp_path_factory):
    path = tmp_path_factory.mktemp("placed") / "chain.catan"
    path.write_text(SOURCE, encoding="utf-8")
    return catandsl.load(path)


def _branch_free(s) -> None:
    """No intersection has three of one player's roads: every network is unbranched."""
    g = s.game
    road = g.piece_index["road"]
    for c, paths in enumerate(g.board.corner_paths):
        for p in range(g.num_players):
            mine = [x for x in paths if s.path_owner[x] == p and s.path_piece[x] == road]
            assert len(mine) <= 2, (p, c)


def test_greedy_and_random_games_never_branch(scenario):
    for seed in range(3):
        g = catandsl.new_game(scenario, 3, {}, seed)
        s = g.new_initial_state()
        bots = [GreedyPlayer(seed * 10 + p) for p in range(3)]
        rng = random.Random(seed)
        for _ in range(1500):
            if s.is_terminal():
                break
            if s.is_chance_node():
                s.apply_action(s.sample_chance())
            elif seed == 0:
                s.apply_action(rng.choice(s.legal_actions()))
            else:
                s.apply_action(bots[s.current_player()].choose(s))
            _branch_free(s)
            check_cheap(s)
        check_board(s)


def test_the_roads_offered_are_those_that_touch_at_most_one_own_road(scenario):
    from catandsl.rules.placement import path_connects, places

    g = catandsl.new_game(scenario, 3, {}, 4)
    b = g.board
    road = g.piece_index["road"]
    s = g.new_initial_state()
    bots = [GreedyPlayer(40 + p) for p in range(3)]
    refused = 0
    for _ in range(600):
        if s.is_terminal():
            break
        if s.stage == "turn":
            for p in range(3):
                joined = [k for k in g.pieces[road].allowed
                          if s.path_owner[k] == -1 and path_connects(s, p, k, g.pieces[road].connects)]
                def touching(k, p=p):
                    return sum(1 for c in b.path_ends[k] for x in b.corner_paths[c]
                               if x != k and s.path_owner[x] == p and s.path_piece[x] == road)
                assert places(s, p, road, "free") == [k for k in joined if touching(k) <= 1]
                refused += sum(1 for k in joined if touching(k) > 1)
        s.apply_action(s.sample_chance() if s.is_chance_node() else bots[s.current_player()].choose(s))
    assert refused > 0  # the condition kept some road off a site the base rules allow


@pytest.mark.parametrize("cond, code", [
    ("choose_player(player, opponents(player)) == player", "E0510"),
    ("owned_next_to(player, at, [road])", "E0504"),
])
def test_a_bad_placed_where_is_a_diagnostic(tmp_path, cond, code):
    text = SOURCE.replace("owned_next_to(player, at, [road]) <= 1", cond)
    _, diags = compile_text(tmp_path, text)
    assert [d.code for d in diags] == [code]


def test_a_neutral_piece_takes_no_placed_where(tmp_path):
    text = SOURCE.replace("  map {", "  piece bandit {\n    neutral\n    on hex\n    placed where true\n  }\n  map {")
    _, diags = compile_text(tmp_path, text)
    assert [d.code for d in diags] == ["E0304"]
    assert "`placed where` is for a player's piece" in diags[0].message
