"""How costs grow with the board: compile time, game set-up time, time per action and
memory per state, for generated maps of 19, 100, 1,000 and 10,000 hexes, as a plain
island (the base game's rules) and as an archipelago with ships (Seafarers' rules:
islands of land separated by sea lanes).

    python bench/scale.py [--actions N] [--sizes 19,100,1000,10000] [--boards plain,archipelago]

Instructions per action, a count the machine's load does not blur (one board a run):

    valgrind --tool=callgrind --instr-atstart=no python bench/scale.py --sizes 10000 \
        --boards plain --callgrind    # "I refs" / N: instructions per action

Each map is a rectangle of hexes (19 hexes: the base game's island); the archipelago
puts a sea lane on every third row and column. Terrains and numbers come from shuffled
pools, so `check` deals every map 64 times. The times are this process's CPU time (the
machine may be shared), the set-up's including a collection of its garbage; the
actions are uniformly random, the first N of one game (its set-up included). The table
prints each figure and its growth factor over the row above; a cost per action that grew
with the board beyond the neighbourhood an action touches would show as a factor near
the hex growth (5-10x) instead of near 1.
"""

from __future__ import annotations

import argparse
import gc
import os
import random
import subprocess
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import catandsl  # noqa: E402
from catandsl.compiler import compile_path  # noqa: E402

TERRAINS = ("forest", "pasture", "fields", "hills", "mountains")
NUMBERS = (2, 3, 3, 4, 4, 5, 5, 6, 6, 8, 8, 9, 9, 10, 10, 11, 11, 12)
BASE_ISLAND = """
          ?   ?   ?
        ?   ?   ?   ?
      ?   ?   ?   ?   ?
        ?   ?   ?   ?
          ?   ?   ?
"""


def picture(hexes: int, archipelago: bool) -> tuple[str, int]:
    """A rows picture of about `hexes` hexes and its count of land hexes."""
    if hexes == 19 and not archipelago:
        return BASE_ISLAND, 19
    width = max(4, round(hexes ** 0.5))
    rows = max(2, round(hexes / width))
    lines, land = [], 0
    for r in range(rows):
        cells = []
        for q in range(width):
            sea = archipelago and (r % 3 == 2 or q % 3 == 2)
            cells.append("~" if sea else "?")
            land += not sea
        lines.append(("  " if r % 2 else "") + "   ".join(cells))
    return "\n".join(lines) + "\n", land


def scenario_text(hexes: int, archipelago: bool) -> str:
    rows, land = picture(hexes, archipelago)
    tiles = ", ".join(f"{t} x{land // 5 + (k < land % 5)}" for k, t in enumerate(TERRAINS)
                      if land // 5 + (k < land % 5))
    counts: dict[int, int] = {}
    for k in range(land):
        n = NUMBERS[k % len(NUMBERS)]
        counts[n] = counts.get(n, 0) + 1
    numbers = ", ".join(f"{n} x{c}" for n, c in sorted(counts.items()))
    uses = "seafarers" if archipelago else "base"
    legend = "? land; ~ sea" if archipelago else "? land"
    start = "start pirate off board\n    start robber off board" if archipelago else "start robber off board"
    return f'''scenario scale "Scale {hexes}" {{
  uses {uses}
  players 4
  map {{
    rows """
{rows}    """
    legend {{ {legend} }}
    pool land shuffled [{tiles}]
    numbers shuffled [{numbers}]
    {start}
  }}
}}
'''


# CPU time of this process: on a machine shared with other work, wall-clock time
# measures the others too.
clock = time.process_time


CALLGRIND = False  # --callgrind: count instructions in the actions only


def counting(on: bool) -> None:
    """Under `valgrind --tool=callgrind --instr-atstart=no`, count instructions from here."""
    if CALLGRIND:
        subprocess.run(["callgrind_control", "--instr=" + ("on" if on else "off"), str(os.getpid())],
                       check=True, capture_output=True)


def measure(hexes: int, archipelago: bool, actions: int) -> dict:
    gc.collect()  # the boards measured before: their garbage is not this one's
    with tempfile.TemporaryDirectory() as d:
        path = Path(d) / "scale.catan"
        path.write_text(scenario_text(hexes, archipelago), encoding="utf-8")
        t = clock()
        scenario, diags, _ = compile_path(path)
        compile_s = clock() - t
    if scenario is None:
        raise SystemExit("\n".join(f"{x.code}: {x.message}" for x in diags))
    t = clock()
    game = catandsl.new_game(scenario, 4, {}, 1)
    state = game.new_initial_state()
    gc.collect()  # the set-up's own garbage, collected in its time (not in the first actions')
    setup_s = clock() - t
    rng = random.Random(1)
    counting(True)
    done, t = 0, clock()
    while done < actions and not state.is_terminal():
        state.apply_action(state.sample_chance() if state.is_chance_node() else rng.choice(state.legal_actions()))
        done += 1
    per_action = (clock() - t) / max(1, done)
    counting(False)
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    copy = state.clone()
    state_bytes = tracemalloc.get_traced_memory()[0] - before
    tracemalloc.stop()
    del copy
    return {"hexes": len(game.board.hexes), "compile": compile_s, "setup": setup_s,
            "action": per_action, "state": state_bytes, "actions": done}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--actions", type=int, default=1000, help="random actions timed per board")
    ap.add_argument("--sizes", default="19,100,1000,10000")
    ap.add_argument("--boards", default="plain,archipelago")
    ap.add_argument("--callgrind", action="store_true", help="toggle callgrind's counting around the actions")
    args = ap.parse_args()
    sizes = [int(x) for x in args.sizes.split(",")]
    boards = args.boards.split(",")
    for warm_up in (False, True):  # untimed: imports, the parser's tables, so the first rows are not theirs
        measure(19, warm_up, 10)
    global CALLGRIND
    CALLGRIND = args.callgrind
    for archipelago in [b == "archipelago" for b in ("plain", "archipelago") if b in boards]:
        print(f"\n{'archipelago with ships' if archipelago else 'plain island'}")
        print(f"{'hexes':>7} {'compile s':>10} {'x':>6} {'set-up s':>9} {'x':>6} "
              f"{'us/action':>10} {'x':>6} {'state KiB':>10} {'x':>6}")
        last: dict = {}
        for n in sizes:
            m = measure(n, archipelago, args.actions)
            print(f"{m['hexes']:7d} {m['compile']:10.3f} {grow(m, last, 'compile')} {m['setup']:9.3f} "
                  f"{grow(m, last, 'setup')} {m['action'] * 1e6:10.1f} {grow(m, last, 'action')} "
                  f"{m['state'] / 1024:10.1f} {grow(m, last, 'state')}")
            last = m


def grow(m: dict, last: dict, key: str) -> str:
    """The growth factor of a figure over the row above."""
    return f"{m[key] / last[key]:6.1f}" if last and last[key] else "     -"


if __name__ == "__main__":
    main()
