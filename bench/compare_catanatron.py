"""Speed against catanatron: the same number of 4-player base games with uniformly random
players in both engines, in one run; games/s, actions/s and turns/game for each, and the
ratio (catandsl / catanatron); then what copying a position costs in each.

    python bench/compare_catanatron.py [--games 100] [--seed 1] [--turn-cap 500]

catanatron (PyPI `catanatron`) is installed only into bench/.venv-catanatron, which this
script creates on first use, and runs there in a subprocess (bench/catanatron_driver.py);
it is never a dependency of catandsl.

What counts as an action differs: catanatron logs every decision including ROLL and one
action per robber move-and-steal; catandsl counts every applied action, dice and other
chance outcomes (steal result, card drawn) included, and also reports decisions alone.
A turn's roll is mostly a chance outcome in catandsl (a decision only when the player
could do something else first) but a player's action in catanatron, so a last line
compares catandsl's decisions with catanatron's actions other than ROLL.
Both count a turn per player turn. Without `--turn-cap` each engine keeps its own cap
(catanatron 1000, base.catan 500); `--turn-cap N` sets both: catanatron's own limit
(`catanatron.game.TURNS_LIMIT`) and catandsl's `turn_limit` setting, added to the
compiled scenario as a last section (base.catan is not edited), so the comparison is
like for like.

The copy costs: catandsl's `State.clone()` against catanatron's `game.copy()` and
`game.state.copy()`, each over positions taken every 25 decisions of the first three games.
"""

from __future__ import annotations

import argparse
import dataclasses
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


COPY_GAMES = 3  # games whose positions the copies are timed on (as the driver does)
COPY_EVERY = 25  # decisions between two positions


def run_catanatron(games: int, seed: int, cap: int) -> dict:
    python = catanatron_python()
    p = subprocess.run([str(python), str(HERE / "catanatron_driver.py"), str(games), str(seed), str(cap)],
                       capture_output=True, text=True, cwd=HERE)
    if p.returncode != 0:
        raise RuntimeError(f"the catanatron driver failed:\n{p.stderr.strip()}")
    return json.loads(p.stdout.strip().splitlines()[-1])


def base_scenario(cap: int):
    """scenarios/base.catan compiled; with a cap, its turn limit set to it (a last section
    of the IR: the last setting wins, as in `configure`)."""
    sys.path.insert(0, str(ROOT))
    import catandsl
    from catandsl.ir import model

    scenario = catandsl.load(ROOT / "scenarios" / "base.catan")
    if cap > 0:
        capped = model.Section((model.Setting("turn_limit", cap),))
        scenario = dataclasses.replace(scenario, sections=scenario.sections + (capped,))
    return scenario


def run_catandsl(games: int, seed: int, cap: int) -> dict:
    from catandsl.engine import new_game
    from catandsl.players import RandomPlayer

    scenario = base_scenario(cap)
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
            "decisions": decisions, "turns": turns, "no_winner": no_winner,
            "turn_cap": game.turn_limit, **clone_cost(scenario, seed)}


def clone_cost(scenario, seed: int) -> dict:
    """Seconds per `State.clone()`, over positions every COPY_EVERY decisions of the first
    COPY_GAMES games."""
    from catandsl.engine import new_game
    from catandsl.players import RandomPlayer

    states = []
    for i in range(COPY_GAMES):
        game_seed = seed * 100_003 + i + 1
        game = new_game(scenario, 4, {}, game_seed)
        seats = [RandomPlayer(game_seed * 10 + p) for p in range(4)]
        state = game.new_initial_state()
        decisions = 0
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(state.sample_chance())
                continue
            if decisions % COPY_EVERY == 0:
                states.append(state.clone())
            state.apply_action(seats[state.current_player()].choose(state))
            decisions += 1
    started = time.perf_counter()
    for s in states:
        s.clone()
    return {"clone_s": (time.perf_counter() - started) / len(states), "positions": len(states)}


def rates(r: dict) -> dict:
    s = r["seconds"]
    return {"games_per_s": r["games"] / s, "actions_per_s": r["actions"] / s,
            "turns_per_game": r["turns"] / r["games"], "actions_per_game": r["actions"] / r["games"],
            "no_winner": r["no_winner"]}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--turn-cap", type=int, default=0, metavar="N",
                    help="end every game after N turns in both engines (default: each its own)")
    ap.add_argument("--json", action="store_true", help="print the figures as JSON too")
    args = ap.parse_args()
    if args.turn_cap < 0:
        ap.error("--turn-cap is a number of turns, 0 for each engine's own")

    ours = run_catandsl(args.games, args.seed, args.turn_cap)
    try:
        theirs = run_catanatron(args.games, args.seed, args.turn_cap)
    except (RuntimeError, OSError) as e:
        print(f"catanatron: not measured: {e}", file=sys.stderr)
        theirs = None

    a = rates(ours)
    a["decisions_per_s"] = ours["decisions"] / ours["seconds"]
    caps = f"turn cap {ours['turn_cap']}" + (f" / {theirs['turn_cap']}" if theirs else "")
    print(f"{args.games} random 4-player base games each, seed {args.seed}, {caps}, "
          f"python {sys.version.split()[0]}")
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
        # a roll is a chance outcome in catandsl (a decision only when the player may do
        # something else first), a player's action in catanatron: their actions but ROLL
        b["non_roll_actions_per_s"] = (theirs["actions"] - theirs["rolls"]) / theirs["seconds"]
        print(f"{'':<12}{'':>10}{b['non_roll_actions_per_s']:>12.0f}  (actions other than ROLL)")
        out["ratio"] = {"games_per_s": a["games_per_s"] / b["games_per_s"],
                        "actions_per_s": a["actions_per_s"] / b["actions_per_s"],
                        "decisions_per_s": a["decisions_per_s"] / b["actions_per_s"],
                        "decisions_per_s_vs_non_roll": a["decisions_per_s"] / b["non_roll_actions_per_s"]}
        r = out["ratio"]
        print(f"ratio catandsl/catanatron: games/s {r['games_per_s']:.2f}x, actions/s {r['actions_per_s']:.2f}x "
              f"(decisions/s vs actions/s {r['decisions_per_s']:.2f}x)")
        print(f"ratio catandsl decisions/s vs catanatron actions/s other than ROLL: "
              f"{r['decisions_per_s_vs_non_roll']:.2f}x")
    us = ours["clone_s"] * 1e6
    copies = f"copy a position: catandsl State.clone() {us:.0f} us ({ours['positions']} positions)"
    if theirs:
        out["copy_us"] = {"clone": us, "game_copy": theirs["game_copy_s"] * 1e6,
                          "state_copy": theirs["state_copy_s"] * 1e6}
        copies += (f"; catanatron game.copy() {theirs['game_copy_s'] * 1e6:.0f} us, "
                   f"state.copy() {theirs['state_copy_s'] * 1e6:.0f} us ({theirs['positions']} positions)")
    print(copies)
    if args.json:
        print(json.dumps(out))
    return 0 if theirs else 1


if __name__ == "__main__":
    sys.exit(main())
