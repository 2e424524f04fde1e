"""The greedy bot drives a traveller to a stop that is a single path (a market on one
path): from the path next to it, it steps onto it and sells; standing on it with no
other stop, it steps off and comes back; and in games of greedy bots every player sells
within a bounded number of actions. Bounded by counts of actions, never by time."""

from __future__ import annotations

import pytest

from catandsl.players import GreedyPlayer
from catandsl.rules.play import Traveller
from catandsl.rules.travel import Travel
from tests.conftest import game_of
from tests.engine.helpers import blank, to_main

SCENARIO = '''
scenario one_path_market "A market on one path" {
  uses base
  token salt { supply 60 }
  piece wagon {
    on path where land(at)
    limit 1
    travels {
      points 3
      step_cost 1
      stop where at in market
    }
  }
  rule market {
    on traveled(wagon) if at in market { give_tokens(player, salt, 1) }
  }
  setup {
    round forward { place settlement; place road touching last; place wagon touching last }
    round backward { place settlement; place road touching last; collect last }
  }
  turn {
    phase roll { roll; play }
    phase main { trade; build; buy; play }
    phase move { travel }
  }
  map {
    rows at (0, -1) """
        f8  p5
      h4  m10 w6
        f9  p3
    """
    legend { f forest; p pasture; h hills; m mountains; w fields }
    mark market [(0, 0) NE]
  }
}
'''
TURN_ACTIONS = 12  # more than a turn of an empty hand takes: the roll, a few steps, the end


@pytest.fixture(scope="module")
def game(tmp_path_factory):
    return game_of(tmp_path_factory, SCENARIO, name="one_path_market")


def _market(g) -> int:
    return g.board.path_index[(0, 0, "NE")]


def _wagon_at(g, at: int):
    """Turn 1, player 0's wagon on path `at` with its points for the turn, the dice
    rolled, nothing else on the board and nothing in hand."""
    s = blank(g)
    s.travellers = [Traveller(0, g.piece_index["wagon"], at, 0, -1, -1)]
    s.placed[0][g.piece_index["wagon"]] = 1
    s.changed()
    to_main(s, 8)
    return s


def _play_turn(s, bot: GreedyPlayer) -> list:
    """Player 0's actions until the turn passes on, at most TURN_ACTIONS of them."""
    g = s.game
    done = []
    for _ in range(TURN_ACTIONS):
        if s.current_player() != 0 or s.is_chance_node():
            return done
        a = bot.choose(s)
        done.append(g.actions[a])
        s.apply_action(a)
    raise AssertionError(f"the turn did not end within {TURN_ACTIONS} actions: {done}")


def _salt(s) -> int:
    return s.tokens_held[0][s.game.token_index["salt"]]


def test_a_wagon_next_to_a_one_path_market_steps_onto_it_and_sells(game):
    b = game.board
    market = _market(game)
    wagon = game.pieces[game.piece_index["wagon"]]
    beside = [x for c in b.path_ends[market] for x in b.corner_paths[c] if x != market and x in wagon.allowed_set]
    assert len(beside) >= 3
    for at in beside:
        s = _wagon_at(game, at)
        done = _play_turn(s, GreedyPlayer(1))
        steps = [a for a in done if isinstance(a, Travel)]
        assert steps == [Travel("wagon", at, market)], (at, done)
        assert _salt(s) == 1, at


def test_a_wagon_two_steps_away_reaches_the_market_in_one_turn(game):
    b = game.board
    market = _market(game)
    wagon = game.pieces[game.piece_index["wagon"]]
    near = {market} | {x for c in b.path_ends[market] for x in b.corner_paths[c]}
    two = sorted(y for x in near - {market} for c in b.path_ends[x] for y in b.corner_paths[c]
                 if y not in near and y in wagon.allowed_set)
    assert two
    for at in two:
        s = _wagon_at(game, at)
        done = _play_turn(s, GreedyPlayer(2))
        steps = [a for a in done if isinstance(a, Travel)]
        assert len(steps) == 2 and steps[-1].to == market, (at, done)
        assert _salt(s) == 1, at


def test_on_the_only_market_it_steps_off_and_comes_back(game):
    """The market is the one stop: standing on it at the start of a turn, the wagon
    leaves it and enters it again, a sale a turn."""
    market = _market(game)
    s = _wagon_at(game, market)
    done = _play_turn(s, GreedyPlayer(3))
    steps = [a for a in done if isinstance(a, Travel)]
    assert len(steps) == 2 and steps[0].at == market and steps[1].to == market, done
    assert _salt(s) == 1


GAME_ACTIONS = 400  # the set-up and a few rounds of turns


@pytest.mark.parametrize("players, seed", [(3, 1), (4, 2)])
def test_greedy_bots_each_sell_within_a_bounded_number_of_actions(tmp_path_factory, players, seed):
    """Each wagon is placed by its bot beside a building somewhere on the island, and
    each reaches the market and sells, and sells again, within GAME_ACTIONS actions."""
    g = game_of(tmp_path_factory, SCENARIO, players, seed, name="one_path_market")
    bots = [GreedyPlayer(10 * seed + p) for p in range(players)]
    salt = g.token_index["salt"]
    s = g.new_initial_state()
    for _ in range(GAME_ACTIONS):
        if s.is_terminal():
            break
        s.apply_action(s.sample_chance() if s.is_chance_node() else bots[s.current_player()].choose(s))
    sold = [s.tokens_held[p][salt] for p in range(players)]
    assert min(sold) >= 2, sold
