"""Plays uniformly random 4-player games in catanatron and prints one JSON line of totals.

Runs inside bench/.venv-catanatron (made by compare_catanatron.py); it imports nothing
from catandsl. Usage: python catanatron_driver.py GAMES SEED
"""

import json
import sys
import time

from catanatron import Color, Game, RandomPlayer


def main() -> None:
    games, seed = int(sys.argv[1]), int(sys.argv[2])
    colours = [Color.RED, Color.BLUE, Color.ORANGE, Color.WHITE]
    actions = turns = no_winner = 0
    started = time.perf_counter()
    for i in range(games):
        game = Game([RandomPlayer(c) for c in colours], seed=seed * 100_003 + i + 1)
        winner = game.play()
        actions += len(game.state.actions)
        turns += game.state.num_turns
        no_winner += winner is None
    seconds = time.perf_counter() - started
    print(json.dumps({"engine": "catanatron", "games": games, "seconds": seconds, "actions": actions,
                      "turns": turns, "no_winner": no_winner}))


if __name__ == "__main__":
    main()
