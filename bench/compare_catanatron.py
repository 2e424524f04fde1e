"""Speed against catanatron: the same number of 4-player base games with uniformly random
players in both engines, in one run; games/s, actions/s and turns/game for each, and the
ratio (catandsl / catanatron); then what copying a position costs in each.

    python bench/compare_catanatron.py [--games 100] [--seed 1] [--turn-cap 500] [--batch 10] [--compiled]

catanatron (PyPI `catanatron`) is installed only into bench/.venv-catanatron, which this
script creates on first use, and runs there in a subprocess (bench/catanatron_driver.py);
it is never a dependency of catandsl. The two engines take turns, `--batch` games at a
time (catandsl, catanatron, catanatron, catandsl, ...), and each one's figures are the sum
over its batches: a change in the machine's speed during the run (a shared machine) falls
on both, not on whichever happened to run then.

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

Both engines run on one CPU: this process pins itself to the first CPU it may use
(`--cpu` picks another, `--cpu -1` leaves it free) before it starts the catanatron driver,
which inherits that. They never run at once, so this costs nothing, and a difference in
speed between the machine's CPUs (virtual CPUs on a busy host) cannot fall on one engine
only. It does not make runs agree: catanatron's games differ from run to run (whatever
the hash seed), and ten of them average 260 to 400 turns, so the games/s ratio of the
same code still moves by about a tenth between runs.

`--compiled` runs catandsl's optional compiled build (build/compiled/, made by
scripts/build_compiled.py) instead of the pure package.

The copy costs: catandsl's `State.clone()` against catanatron's `game.copy()` and
`game.state.copy()`, each over positions taken every 25 decisions of the first three games.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import subprocess
import sys
import tempfile
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


class Catanatron:
    """catanatron in its venv, in a subprocess that plays batches of games on request."""

    def __init__(self, seed: int, cap: int):
        python = catanatron_python()
        # its standard error to a file, read only if it fails: a pipe nobody reads could fill
        self.err = tempfile.TemporaryFile(mode="w+")
        self.p = subprocess.Popen([str(python), str(HERE / "catanatron_driver.py"), str(seed), str(cap)],
                                  stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self.err,
                                  text=True, cwd=HERE)
        self.turn_cap = self._answer()["turn_cap"]

    def _answer(self) -> dict:
        line = self.p.stdout.readline() if self.p.stdout else ""
        if not line:
            self.p.wait()
            self.err.seek(0)
            err = self.err.read()
            raise RuntimeError(f"the catanatron driver failed:\n{err.strip()}")
        return json.loads(line)

    def ask(self, request: str) -> dict:
        assert self.p.stdin is not None
        self.p.stdin.write(request + "\n")
        self.p.stdin.flush()
        return self._answer()

    def close(self) -> None:
        if self.p.stdin:
            self.p.stdin.close()
        self.p.wait()
        self.err.close()


def use_package(compiled: bool) -> str:
    """Import catandsl from the checkout, or from the compiled build in build/compiled/
    (scripts/build_compiled.py); says which."""
    sys.path.insert(0, str(ROOT / "build" / "compiled" if compiled else ROOT))
    import catandsl.engine.interpreter

    where = catandsl.engine.interpreter.__file__ or ""
    if compiled and where.endswith(".py"):
        raise SystemExit("no compiled build in build/compiled/: run python scripts/build_compiled.py")
    return "compiled (mypyc)" if not where.endswith(".py") else "pure Python"


def base_scenario(cap: int):
    """scenarios/base.catan compiled; with a cap, its turn limit set to it (a last section
    of the IR: the last setting wins, as in `configure`)."""
    import catandsl
    from catandsl.ir import model

    scenario = catandsl.load(ROOT / "scenarios" / "base.catan")
    if cap > 0:
        capped = model.Section((model.Setting("turn_limit", cap),))
        scenario = dataclasses.replace(scenario, sections=scenario.sections + (capped,))
    return scenario


def run_catandsl(scenario, seed: int, first: int, count: int) -> dict:
    """Games first .. first+count-1 (game i has seed seed*100003+i+1), timed; totals."""
    from catandsl.engine import new_game
    from catandsl.players import RandomPlayer

    actions = decisions = turns = no_winner = 0
    started = time.perf_counter()
    for i in range(first, first + count):
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
    return {"games": count, "seconds": seconds, "actions": actions, "decisions": decisions,
            "turns": turns, "no_winner": no_winner, "turn_cap": game.turn_limit}


def play_both(games: int, seed: int, cap: int, batch: int) -> tuple[dict, dict | None]:
    """Both engines' totals over `games` games, taking turns a batch at a time (ABBA)."""
    scenario = base_scenario(cap)
    try:
        theirs: Catanatron | None = Catanatron(seed, cap)
    except (RuntimeError, OSError) as e:
        print(f"catanatron: not measured: {e}", file=sys.stderr)
        theirs = None
    ours_total: dict = {}
    theirs_total: dict = {}
    try:
        for k, first in enumerate(range(0, games, batch)):
            count = min(batch, games - first)
            for side in (("ours", "theirs") if k % 2 == 0 else ("theirs", "ours")):
                if side == "ours":
                    _add(ours_total, run_catandsl(scenario, seed, first, count))
                elif theirs is not None:
                    _add(theirs_total, theirs.ask(f"play {first} {count}"))
        ours_total.update(clone_cost(scenario, seed))
        if theirs is None:
            return ours_total, None
        theirs_total["turn_cap"] = theirs.turn_cap
        theirs_total.update(theirs.ask("copy"))
    finally:
        if theirs is not None:
            theirs.close()
    return ours_total, theirs_total


def _add(total: dict, part: dict) -> None:
    if "error" in part:
        raise RuntimeError(f"the catanatron driver: {part['error']}")
    for key, value in part.items():
        total[key] = value if key == "turn_cap" else total.get(key, 0) + value


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


def pin(cpu: int | None) -> int:
    """Pin this process (and so the driver it starts) to one CPU: `cpu`, or the first
    it may use. The CPU, -1 when left free (asked, or no affinity on this system), -2
    when `cpu` is not one this process may use."""
    if cpu == -1 or not hasattr(os, "sched_setaffinity"):
        return -1
    allowed = os.sched_getaffinity(0)
    if cpu is None:
        cpu = min(allowed)
    elif cpu not in allowed:
        return -2
    os.sched_setaffinity(0, {cpu})
    return cpu


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--turn-cap", type=int, default=0, metavar="N",
                    help="end every game after N turns in both engines (default: each its own)")
    ap.add_argument("--batch", type=int, default=10, metavar="N",
                    help="games an engine plays before the other takes its turn (default 10)")
    ap.add_argument("--cpu", type=int, default=None, metavar="K",
                    help="the CPU both engines run on (default: the first this process may use; -1: any)")
    ap.add_argument("--compiled", action="store_true",
                    help="run catandsl's compiled build (build/compiled/, scripts/build_compiled.py)")
    ap.add_argument("--json", action="store_true", help="print the figures as JSON too")
    args = ap.parse_args()
    if args.turn_cap < 0:
        ap.error("--turn-cap is a number of turns, 0 for each engine's own")
    if args.games < 1 or args.batch < 1:
        ap.error("--games and --batch are at least 1")
    cpu = pin(args.cpu)
    if cpu == -2:
        ap.error(f"--cpu {args.cpu} is not a CPU this process may run on")

    package = use_package(args.compiled)
    ours, theirs = play_both(args.games, args.seed, args.turn_cap, args.batch)

    a = rates(ours)
    a["decisions_per_s"] = ours["decisions"] / ours["seconds"]
    caps = f"turn cap {ours['turn_cap']}" + (f" / {theirs['turn_cap']}" if theirs else "")
    where = f"both on CPU {cpu}" if cpu >= 0 else "on any CPU"
    print(f"{args.games} random 4-player base games each, seed {args.seed}, {caps}, "
          f"python {sys.version.split()[0]}, {where}, catandsl {package}")
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
