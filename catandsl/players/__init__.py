"""Players: anything with `choose(state) -> action id`, and a runner that plays a game.

    from catandsl.players import RandomPlayer, play_game
    state, log = play_game(game, [RandomPlayer(s) for s in range(4)], seed=1)
    bot = make_bot("mcts:400", seed=7)       # a bot by the name `--bots` takes
"""

from catandsl.players.base import Player, play_game
from catandsl.players.greedy import GreedyPlayer
from catandsl.players.mcts import DEFAULT_BUDGET, MCTSPlayer, budget_of
from catandsl.players.random_player import RandomPlayer, UniformPlayer

# The bots the command line offers, by the name `--bots` takes; `mcts:N` is the search
# bot with N iterations per decision (`mcts` alone: DEFAULT_BUDGET).
BOTS = {"random": RandomPlayer, "greedy": GreedyPlayer, "uniform": UniformPlayer, "mcts": MCTSPlayer}
BOT_NAMES = "random, greedy, uniform, mcts, mcts:N (N search iterations per decision)"


def is_bot(name: str) -> bool:
    """Whether `make_bot` knows this name."""
    return name in BOTS or budget_of(name) is not None


def make_bot(name: str, seed: int) -> Player:
    """The bot of this name (`random`, `greedy`, `uniform`, `mcts`, `mcts:N`) seeded with
    `seed`; ValueError for an unknown name."""
    budget = budget_of(name)
    if budget is not None:
        return MCTSPlayer(seed, budget=budget)
    if name not in BOTS:
        raise ValueError(f"unknown bot {name!r}; bots: {BOT_NAMES}")
    return BOTS[name](seed)


__all__ = ["Player", "RandomPlayer", "UniformPlayer", "GreedyPlayer", "MCTSPlayer", "play_game", "BOTS",
           "BOT_NAMES", "DEFAULT_BUDGET", "is_bot", "make_bot"]
