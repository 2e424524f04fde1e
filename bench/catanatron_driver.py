"""Plays uniformly random 4-player games in catanatron and prints one JSON line of totals.

Runs inside bench/.venv-catanatron (made by compare_catanatron.py); it imports nothing
from catandsl. Usage: python catanatron_driver.py GAMES SEED [TURN_CAP]

TURN_CAP (0: catanatron's own, 1000) is set as catanatron's own limit, the module's
TURNS_LIMIT that `Game.play` stops at. After the games it times `game.copy()` and
`game.state.copy()` over positions taken every 25 decisions of the first games.
"""

import json
import sys
import time

import catanatron.game
from catanatron import ActionType, Color, Game, RandomPlayer

COPY_GAMES = 3  # games whose positions the copies are timed on
COPY_EVERY = 25  # decisions between two positions


def copy_costs(seed: int) -> dict:
    """Seconds per copy of a game and of its state, over positions of a few games."""
    colours = [Color.RED, Color.BLUE, Color.ORANGE, Color.WHITE]
    games = []
    for i in range(COPY_GAMES):
        game = Game([RandomPlayer(c) for c in colours], seed=seed * 100_003 + i + 1)
        ticks = 0
        while game.winning_color() is None and game.state.num_turns < catanatron.game.TURNS_LIMIT:
            if ticks % COPY_EVERY == 0:
                games.append(game.copy())
            game.play_tick()
            ticks += 1
    started = time.perf_counter()
    for g in games:
        g.copy()
    game_copy = (time.perf_counter() - started) / len(games)
    started = time.perf_counter()
    for g in games:
        g.state.copy()
    state_copy = (time.perf_counter() - started) / len(games)
    return {"game_copy_s": game_copy, "state_copy_s": state_copy, "positions": len(games)}


def main() -> None:
    games, seed = int(sys.argv[1]), int(sys.argv[2])
    cap = int(sys.argv[3]) if len(sys.argv) > 3 else 0
    if cap > 0:
        catanatron.game.TURNS_LIMIT = cap
    colours = [Color.RED, Color.BLUE, Color.ORANGE, Color.WHITE]
    actions = turns = no_winner = 0
    logs = []  # each game's actions, to count its rolls once the clock has stopped
    started = time.perf_counter()
    for i in range(games):
        game = Game([RandomPlayer(c) for c in colours], seed=seed * 100_003 + i + 1)
        winner = game.play()
        actions += len(game.state.actions)
        logs.append(game.state.actions)
        turns += game.state.num_turns
        no_winner += winner is None
    seconds = time.perf_counter() - started
    rolls = sum(a.action_type == ActionType.ROLL for log in logs for a in log)
    print(json.dumps({"engine": "catanatron", "games": games, "seconds": seconds, "actions": actions,
                      "rolls": rolls,
                      "turns": turns, "no_winner": no_winner, "turn_cap": catanatron.game.TURNS_LIMIT,
                      **copy_costs(seed)}))


if __name__ == "__main__":
    main()
