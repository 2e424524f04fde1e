"""Plays uniformly random 4-player games in catanatron, a batch at a time, on request.

Runs inside bench/.venv-catanatron (made by compare_catanatron.py); it imports nothing
from catandsl. Usage: python catanatron_driver.py SEED [TURN_CAP], then one request per
line on standard input, each answered by one JSON line on standard output:

- `play FIRST COUNT`: games FIRST .. FIRST+COUNT-1 (game i has seed SEED*100003+i+1) and
  their totals: seconds, actions, rolls, turns, games without a winner;
- `copy`: the cost of `game.copy()` and `game.state.copy()` over positions taken every
  25 decisions of the first games.

Batches let compare_catanatron.py alternate the two engines (A B A B), so that a change
in the machine's speed during the run falls on both. TURN_CAP (0: catanatron's own,
1000) is set as catanatron's own limit, the module's TURNS_LIMIT that `Game.play` stops at.
"""

import json
import sys
import time

import catanatron.game
from catanatron import ActionType, Color, Game, RandomPlayer

COPY_GAMES = 3  # games whose positions the copies are timed on
COPY_EVERY = 25  # decisions between two positions
COLOURS = [Color.RED, Color.BLUE, Color.ORANGE, Color.WHITE]


def play(seed: int, first: int, count: int) -> dict:
    actions = turns = no_winner = 0
    logs = []  # each game's actions, to count its rolls once the clock has stopped
    started = time.perf_counter()
    for i in range(first, first + count):
        game = Game([RandomPlayer(c) for c in COLOURS], seed=seed * 100_003 + i + 1)
        winner = game.play()
        actions += len(game.state.actions)
        logs.append(game.state.actions)
        turns += game.state.num_turns
        no_winner += winner is None
    seconds = time.perf_counter() - started
    rolls = sum(a.action_type == ActionType.ROLL for log in logs for a in log)
    return {"games": count, "seconds": seconds, "actions": actions, "rolls": rolls,
            "turns": turns, "no_winner": no_winner}


def copy_costs(seed: int) -> dict:
    """Seconds per copy of a game and of its state, over positions of a few games."""
    games = []
    for i in range(COPY_GAMES):
        game = Game([RandomPlayer(c) for c in COLOURS], seed=seed * 100_003 + i + 1)
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
    seed = int(sys.argv[1])
    cap = int(sys.argv[2]) if len(sys.argv) > 2 else 0
    if cap > 0:
        catanatron.game.TURNS_LIMIT = cap
    print(json.dumps({"engine": "catanatron", "turn_cap": catanatron.game.TURNS_LIMIT}), flush=True)
    for line in sys.stdin:
        words = line.split()
        if words[:1] == ["play"]:
            out = play(seed, int(words[1]), int(words[2]))
        elif words[:1] == ["copy"]:
            out = copy_costs(seed)
        else:
            out = {"error": f"unknown request {line.strip()!r}"}
        print(json.dumps(out), flush=True)


if __name__ == "__main__":
    main()
