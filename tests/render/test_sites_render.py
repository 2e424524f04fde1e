"""Sites (villages) on the state picture: one per map site, with its number and stock."""

import re

from catandsl import new_game
from catandsl.players import RandomPlayer, play_game
from catandsl.render.state_svg import render_state
from tests.conftest import ROOT


def test_every_site_is_drawn_with_its_number_and_stock():
    game = new_game(str(ROOT / "scenarios/seafarers/cloth_for_catan.catan"), 4, {}, 2)
    state, _ = play_game(game, [RandomPlayer(k) for k in range(4)], seed=2, log=False)
    svg = render_state(game, state)
    drawn = re.findall(r'class="site" data-kind="(\w+)" data-number="(\d+)" data-stock="(\d+)"', svg)
    assert len(drawn) == len(game.sites) == 8
    assert [int(n) for _, n, _ in drawn] == [s.number for s in game.sites]
    assert [int(k) for _, _, k in drawn] == [sum(stock) for stock in state.token_stock]
    assert sum(int(k) for _, _, k in drawn) < 40  # villages gave cloth away during the game


def test_a_scenario_without_sites_draws_none():
    game = new_game(str(ROOT / "scenarios/base.catan"), 4, {}, 1)
    assert 'class="site"' not in render_state(game, game.new_initial_state())
