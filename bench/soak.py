"""Soak: uniformly random agents (every legal action equally likely: offers, answers,
ship moves and all) play many games of every shipped scenario at every player count;
every game must end within the game's `max_game_length()`.

    python bench/soak.py [--games 1000] [--workers 2] [--seed 1]

Prints, per scenario and player count, the games played, how they ended, the mean and
the longest game in actions, and the bound; exits 1 if a game failed or ran past it.
tests/engine/test_random_agents.py plays 20 games of each the same way.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

SCENARIOS = ("base.catan", "seafarers/heading_for_new_shores.catan", "seafarers/four_islands.catan",
             "seafarers/cloth_for_catan.catan", "traders_barbarians/traders_and_barbarians.catan")


def main() -> int:
    import catandsl
    from catandsl.simulate import simulate

    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=1000)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    failed = False
    print(f"{'scenario':<44}{'players':>8}{'games':>7}{'mean':>8}{'longest':>9}{'bound':>8}  ends")
    started = time.perf_counter()
    for name in SCENARIOS:
        path = ROOT / "scenarios" / name
        scenario = catandsl.load(path)
        for players in range(scenario.players_min, scenario.players_max + 1):
            bound = catandsl.new_game(scenario, players, {}, args.seed).max_game_length()
            report = simulate(path, args.games, seed=args.seed, players=players, workers=args.workers,
                              bots=("uniform",)).to_json()
            ends = ", ".join(f"{k} {v}" for k, v in report["ends"].items())
            print(f"{name:<44}{players:>8}{args.games:>7}{report['mean_actions']:>8.0f}"
                  f"{report['longest_game']:>9}{bound:>8}  {ends}")
            if report["errors"] or report["longest_game"] > bound:
                failed = True
                for e in report["errors"][:5]:
                    print(f"  error in game {e['game']} (seed {e['seed']}): {e['error']}")
    print(f"{time.perf_counter() - started:.0f} s")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
