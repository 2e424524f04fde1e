"""Start-up of the `catandsl` command, as ratios to a bare parser's start.

    python bench/startup.py [--pairs N] [--calls C] [--commands NAME ...]

Each command runs as a whole process, alternating with `python -c "import lark"` (the
least any command that parses must load), N pairs a call; a call's figure is the median
of the pairwise wall-clock ratios, so a machine whose speed drifts (a shared, loaded
one) moves both sides of a pair alike. Bytecode is compiled beforehand and one warm-up
run of each command fills the caches, as an installed package has them. The per-user
cache goes to a temporary directory (XDG_CACHE_HOME), never the user's own.

The commands:

- `version`: `catandsl --version` (target at most 1.5x);
- `check`: `catandsl check scenarios/base.catan`, unchanged since its last check
  (target at most 3x);
- `check-edited`: a copy of base.catan outside the tree with a comment line appended
  before every run, so no note of an earlier check applies;
- `list`: `catandsl list` with its summary cached;
- `compile`: `catandsl compile scenarios/base.catan`, unchanged since its last check, so
  its scenario comes from the check's note (as `play`, `simulate` and `render` take it).
"""

from __future__ import annotations

import argparse
import compileall
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TARGETS = {"version": 1.5, "check": 3.0}


def commands(work: Path) -> dict[str, list[str]]:
    me = [sys.executable, "-m", "catandsl"]
    copy = work / "edited.catan"
    shutil.copyfile(ROOT / "scenarios" / "base.catan", copy)
    # the shell appends a line that differs every run (its pid), then becomes catandsl
    edited = ["sh", "-c", f'echo "# $$" >> "{copy}"; exec "$0" "$@"', *me, "check", str(copy)]
    return {
        "version": [*me, "--version"],
        "check": [*me, "check", str(ROOT / "scenarios" / "base.catan")],
        "check-edited": edited,
        "list": [*me, "list"],
        "compile": [*me, "compile", str(ROOT / "scenarios" / "base.catan")],
    }


def run(cmd: list[str], env: dict[str, str]) -> float:
    t = time.perf_counter()
    p = subprocess.run(cmd, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    took = time.perf_counter() - t
    if p.returncode != 0:
        raise SystemExit(f"{' '.join(cmd)} failed ({p.returncode}): {p.stderr.decode(errors='replace')}")
    return took


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--pairs", type=int, default=5, help="alternating runs per call")
    ap.add_argument("--calls", type=int, default=3, help="calls (each a median of its pairs) per command")
    ap.add_argument("--commands", nargs="*", default=None, help="version, check, check-edited, list, compile")
    args = ap.parse_args()
    compileall.compile_dir(ROOT / "catandsl", quiet=1)
    with tempfile.TemporaryDirectory(prefix="catandsl-startup-") as tmp:
        work = Path(tmp)
        env = {**os.environ, "XDG_CACHE_HOME": str(work / "cache"), "PYTHONPATH": str(ROOT)}
        every = commands(work)
        names = args.commands or list(every)
        bare = [sys.executable, "-c", "import lark"]
        run(bare, env)
        print(f"{'command':14} {'ratios (median of ' + str(args.pairs) + ' pairs per call)':40} "
              f"{'bare ms':>8} {'target':>7}")
        for name in names:
            cmd = every[name]
            run(cmd, env)  # warm-up: bytecode, the parser's cache, the note or the summary
            ratios, bares = [], []
            for _ in range(args.calls):
                pairs = []
                for _ in range(args.pairs):
                    b = run(bare, env)
                    c = run(cmd, env)
                    pairs.append(c / b)
                    bares.append(b)
                ratios.append(statistics.median(pairs))
            target = TARGETS.get(name)
            mark = "" if target is None else f"{target:.1f}x " + ("ok" if max(ratios) <= target else "OVER")
            print(f"{name:14} {', '.join(f'{r:.2f}x' for r in ratios):40} "
                  f"{statistics.median(bares) * 1000:8.0f} {mark:>7}")


if __name__ == "__main__":
    main()
