"""Instructions per game, pure or compiled: the games compare_catanatron.py plays
(uniformly random players, 4-player base), counted by callgrind around the games alone.
Instructions do not move with the machine's load, as a wall clock does on a shared machine.

    valgrind --tool=callgrind --instr-atstart=no --callgrind-out-file=/dev/null \\
        python bench/callgrind_games.py [--warm 10] [--games 4] [--turn-cap 0] [--compiled]

It plays `--warm` games first (imports, the first game's tables, caches), then switches the
count on for the next `--games` games (game i has compare_catanatron.py's seed for i) and
off after them; valgrind prints the total as "Collected" (or `callgrind_annotate` reads
the output file). `--turn-cap 0` leaves base.catan's own cap. It prints the actions
played while counting, so that two builds can be checked to have played the same games.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import compare_catanatron  # noqa: E402  (beside this script)


def counting(on: bool) -> None:
    """Switch callgrind's count on or off for this process (nothing outside callgrind)."""
    result = subprocess.run(["callgrind_control", "--instr=" + ("on" if on else "off"), str(os.getpid())],
                            capture_output=True, text=True)
    if result.returncode != 0:
        raise SystemExit(f"callgrind_control failed (is this running under valgrind --tool=callgrind?):\n"
                         f"{result.stdout}{result.stderr}")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--warm", type=int, default=10, help="games played before counting (default 10)")
    ap.add_argument("--games", type=int, default=4, help="games counted (default 4)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--turn-cap", type=int, default=0, metavar="N", help="0: base.catan's own cap")
    ap.add_argument("--compiled", action="store_true", help="run the compiled build (build/compiled/)")
    args = ap.parse_args()
    package = compare_catanatron.use_package(args.compiled)
    scenario = compare_catanatron.base_scenario(args.turn_cap)
    compare_catanatron.run_catandsl(scenario, args.seed, 0, args.warm)
    counting(True)
    counted = compare_catanatron.run_catandsl(scenario, args.seed, args.warm, args.games)
    counting(False)
    print(f"{package}: games {args.warm} to {args.warm + args.games - 1} counted, "
          f"{counted['actions']} actions, {counted['turns']} turns")
    return 0


if __name__ == "__main__":
    sys.exit(main())
