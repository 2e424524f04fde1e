"""Tokens drawn at random from a site's stock (`draw_from_site`, catandsl/rules/draws.py):
a chance node whose outcomes are the kinds left, each as likely as its count; the rule
runs on with the kind drawn; an empty stock lapses the rest of the block."""

from __future__ import annotations

import pytest

import catandsl
from catandsl.engine.actions import Build
from catandsl.rules.draws import DrawToken
from tests.conftest import game_of
from tests.engine.helpers import act, blank, give, put, to_main

SCENARIO = '''
scenario "Stacks" {
  uses base
  token sand { supply 6 }
  token tools { supply 6 }
  site quarry {
    on intersection
    stock sand 2
    stock tools 1
  }
  rule load {
    on site_reached(quarry) {
      let good = draw_from_site(at)
      take_from_site(player, at, good, 1)
      give_tokens(player, sand, 1)
    }
  }
  map {
    rows """
      f8  p5  h4
        m6  w9
    """
    legend { f forest; p pasture; h hills; m mountains; w fields }
    sites quarry [(1, 0) S]
    start robber on forest
  }
}
'''


@pytest.fixture(scope="module")
def game(tmp_path_factory):
    return game_of(tmp_path_factory, SCENARIO)


def _start(g, stock):
    """Player 0 in the main phase with a settlement one road from the quarry and a road's
    cost in hand, the quarry holding `stock` ([sand, tools])."""
    s = blank(g)
    to_main(s, 8)
    s.token_stock = [list(stock)]
    s.token_supply = [6 - stock[0], 6 - stock[1]]
    s.tokens_held = [[0, 0] for _ in range(g.num_players)]
    s.partners = []  # blank() cleared the board the set-up left, not who trades where
    b = g.board
    quarry = b.intersection_index[(1, 0, "S")]
    road = b.corner_paths[quarry][0]
    put(s, 0, "settlement", next(c for c in b.path_ends[road] if c != quarry))
    give(s, 0, 1, 1, 0, 0, 0)
    return s, road


def test_a_draw_is_a_chance_node_weighted_by_the_stock(game):
    s, road = _start(game, [2, 1])
    act(s, Build("road", road))  # the road reaches the quarry: trade begins, a token is drawn
    assert s.is_chance_node()
    odds = {game.actions[a].token: p for a, p in s.chance_outcomes()}
    assert odds == pytest.approx({"sand": 2 / 3, "tools": 1 / 3})
    act(s, DrawToken("tools"))
    assert s.token_stock[0] == [2, 0]
    assert s.tokens_held[0] == [1, 1]  # the tools drawn, and the sand the rule gives after it


def test_an_empty_stock_lapses_the_rest_of_the_block(game):
    s, road = _start(game, [0, 0])
    act(s, Build("road", road))
    assert not s.is_chance_node()
    assert s.tokens_held[0] == [0, 0]  # nothing drawn, and the give after the draw lapsed too


def test_games_whose_rules_draw_nothing_number_no_draws():
    g = catandsl.new_game(catandsl.load("scenarios/seafarers/cloth_for_catan.catan"), 3, {}, 1)
    assert not any(isinstance(a, DrawToken) for a in g.actions)
