"""Speed against catanatron: the same number of 4-player base games with uniformly random
players in both engines, in one run; games/s, actions/s and turns/game for each, and the
ratio (catandsl / catanatron).

    python bench/compare_catanatron.py [--games 100] [--seed 1]

catanatron (PyPI `catanatron`) is installed only into bench/.venv-catanatron, which this
script creates on first use, and runs there in a subprocess (bench/catanatron_driver.py);
it is never a dependency of catandsl.

What counts as an action differs: catanatron logs every decision including ROLL and one
action per robber move-and-steal; catandsl counts every applied action, dice and other
chance outcomes (steal result, card drawn) included, and also reports decisions alone.
Both count a turn per player turn; the turn caps differ (catanatron 1000, base.catan 500).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
import venv
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
VENV = HERE / ".venv-catanatron"
CATANATRON = "catanatron==3.2.1"


def catanatron_python() -> Path:
    """The benchmark venv's python, creating the venv and installing catanatron if needed."""
    python = VENV / "bin" / "python"
    if not python.exists():
        print(f"creating {VENV.relative_to(ROOT)} ...", file=sys.stderr)
        venv.EnvBuilder(with_pip=True).create(VENV)
    check = subprocess.run([str(python), "-c", "import catanatron"], capture_output=True)
    if check.returncode != 0:
        print(f"installing {CATANATRON} into it ...", file=sys.stderr)
        pip = subprocess.run([str(python), "-m", "pip", "install", "-q", CATANATRON],
                             capture_output=True, text=True)
        if pip.returncode != 0:
            raise RuntimeError(f"pip could not install {CATANATRON}:\n{pip.stderr.strip()}")
    return python


def run_catanatron(games: int, seed: int) -> dict:
    python = catanatron_python()
    p = subprocess.run([str(python), str(HERE / "catanatron_driver.py"), str(games), str(seed)],
                       capture_output=True, text=True, cwd=HERE)
    if p.returncode != 0:
        raise RuntimeError(f"the catanatron driver failed:\n{p.stderr.strip()}")
    return json.loads(p.stdout.strip().splitlines()[-1])


def run_catandsl(games: int, seed: int) -> dict:
    sys.path.insert(0, str(ROOT))
    import catandsl
    from catandsl.engine import new_game
    from catandsl.players import RandomPlayer

    scenario = catandsl.load(ROOT / "scenarios" / "base.catan")
    actions = decisions = turns = no_winner = 0
    started = time.perf_counter()
    for i in range(games):
        game_seed = seed * 100_003 + i + 1
        game = new_game(scenario, 4, {}, game_seed)
        seats = [RandomPlayer(game_seed * 10 + p) for p in range(4)]
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                a = state.sample_chance()
            else:
                a = seats[state.current_player()].choose(state)
                decisions += 1
            state.apply_action(a)
            actions += 1
        turns += state.turns
        no_winner += not (isinstance(state.winner, int) and state.winner >= 0)
    seconds = time.perf_counter() - started
    return {"engine": "catandsl", "games": games, "seconds": seconds, "actions": actions,
            "decisions": decisions, "turns": turns, "no_winner": no_winner}


def rates(r: dict) -> dict:
    s = r["seconds"]
    return {"games_per_s": r["games"] / s, "actions_per_s": r["actions"] / s,
            "turns_per_game": r["turns"] / r["games"], "actions_per_game": r["actions"] / r["games"],
            "no_winner": r["no_winner"]}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--json", action="store_true", help="print the figures as JSON too")
    args = ap.parse_args()

    ours = run_catandsl(args.games, args.seed)
    try:
        theirs = run_catanatron(args.games, args.seed)
    except (RuntimeError, OSError) as e:
        print(f"catanatron: not measured: {e}", file=sys.stderr)
        theirs = None

    a = rates(ours)
    a["decisions_per_s"] = ours["decisions"] / ours["seconds"]
    print(f"{args.games} random 4-player base games each, seed {args.seed}, python {sys.version.split()[0]}")
    print(f"{'engine':<12}{'games/s':>10}{'actions/s':>12}{'turns/game':>12}{'actions/game':>14}{'no winner':>11}")
    print(f"{'catandsl':<12}{a['games_per_s']:>10.2f}{a['actions_per_s']:>12.0f}{a['turns_per_game']:>12.1f}"
          f"{a['actions_per_game']:>14.1f}{a['no_winner']:>11}")
    print(f"{'':<12}{'':>10}{a['decisions_per_s']:>12.0f}  (decisions only, chance outcomes left out)")
    out = {"catandsl": a}
    if theirs:
        b = rates(theirs)
        out["catanatron"] = b
        print(f"{'catanatron':<12}{b['games_per_s']:>10.2f}{b['actions_per_s']:>12.0f}{b['turns_per_game']:>12.1f}"
              f"{b['actions_per_game']:>14.1f}{b['no_winner']:>11}")
        out["ratio"] = {"games_per_s": a["games_per_s"] / b["games_per_s"],
                        "actions_per_s": a["actions_per_s"] / b["actions_per_s"],
                        "decisions_per_s": a["decisions_per_s"] / b["actions_per_s"]}
        r = out["ratio"]
        print(f"ratio catandsl/catanatron: games/s {r['games_per_s']:.2f}x, actions/s {r['actions_per_s']:.2f}x "
              f"(decisions/s vs actions/s {r['decisions_per_s']:.2f}x)")
    if args.json:
        print(json.dumps(out))
    return 0 if theirs else 1


if __name__ == "__main__":
    sys.exit(main())
