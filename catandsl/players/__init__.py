"""Players: anything with `choose(state) -> action id`, and a runner that plays a game.

    from catandsl.players import RandomPlayer, play_game
    state, log = play_game(game, [RandomPlayer(s) for s in range(4)], seed=1)
"""

from catandsl.players.base import Player, play_game
from catandsl.players.greedy import GreedyPlayer
from catandsl.players.random_player import RandomPlayer, UniformPlayer

# The bots the command line offers, by the name `--bots` takes.
BOTS = {"random": RandomPlayer, "greedy": GreedyPlayer, "uniform": UniformPlayer}

__all__ = ["Player", "RandomPlayer", "UniformPlayer", "GreedyPlayer", "play_game", "BOTS"]
