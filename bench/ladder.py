"""A strength ladder: round robins between bots on every shipped scenario and player
count, seats rotated, then ratings with 95% intervals and the games' lengths.

    python bench/ladder.py                                   # every shipped configuration
    python bench/ladder.py --bots random,greedy,mcts:50,mcts --rounds 2 --workers 2
    python bench/ladder.py --only base --players 4 --rounds 5 --markdown
    python bench/ladder.py --one mcts --field greedy --players 4 --rounds 50   # one mcts, three greedy
    python bench/ladder.py --save games.jsonl ...; python bench/ladder.py --report games.jsonl

A round, for a configuration of n players, plays every choice of n of the bots (all of
them when there are n or fewer: seats cycle through the list) once per rotation of the
seats, so each bot sits in each seat equally often. Game g of a configuration has seed
`--seed` * 1000 + g; each bot is seeded from it and its seat, so a run is reproduced
exactly.

Ratings: a Bradley-Terry fit (Hunter's MM algorithm) of every game read as the winner
beating each other player in it (a game without a winner counts for nobody), on an Elo
scale with the first bot at 0; the 95% intervals are the 2.5th and 97.5th percentiles of
the ratings over `--bootstrap` resamples of the games. Also per bot: wins, games, the win
rate with a Wilson interval, and the CPU time per decision (median and 90th percentile,
`time.process_time`, so other processes on a shared machine do not count); per
configuration: mean and median turns per game and the share ended by a victory.
"""

from __future__ import annotations

import argparse
import itertools
import json
import math
import random
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

# every shipped scenario, each at its player counts (with its options where they change play)
CONFIGS = (
    ("base", "scenarios/base.catan", {}, (2, 3, 4)),
    ("five_six", "scenarios/five_six.catan", {}, (5, 6)),
    ("new_shores", "scenarios/seafarers/heading_for_new_shores.catan", {}, (3, 4)),
    ("four_islands", "scenarios/seafarers/four_islands.catan", {}, (3, 4)),
    ("cloth", "scenarios/seafarers/cloth_for_catan.catan", {}, (3, 4)),
    ("traders", "scenarios/traders_barbarians/traders_and_barbarians.catan", {}, (2, 3, 4)),
    ("traders_events", "scenarios/traders_barbarians/traders_and_barbarians.catan",
     {"event_cards": "on", "harbormaster": "on"}, (3, 4)),
)


def play_one(job: tuple) -> dict:
    """One game: (path, options, players, seed, bot names by seat) -> its result."""
    import catandsl
    from catandsl.players import make_bot

    path, options, players, seed, names = job
    game = catandsl.new_game(_scenario(path), players, options, seed)
    bots = [make_bot(name, seed * 10 + p) for p, name in enumerate(names)]
    spent: list[list[float]] = [[] for _ in names]
    s = game.new_initial_state()
    while not s.is_terminal():
        if s.is_chance_node():
            s.apply_action(s.sample_chance())
            continue
        p = s.current_player()
        t = time.process_time()
        a = bots[p].choose(s)
        spent[p].append(time.process_time() - t)
        s.apply_action(a)
    return {"names": list(names), "winner": s.winner, "turns": s.turns, "reason": s.reason, "spent": spent}


_SCENARIOS: dict[str, object] = {}


def _scenario(path: str):
    import catandsl

    if path not in _SCENARIOS:
        _SCENARIOS[path] = catandsl.load(ROOT / path)
    return _SCENARIOS[path]


def schedule(bots: list[str], players: int, rounds: int) -> list[tuple[str, ...]]:
    """The seatings of a configuration: each choice of `players` bots (the whole list,
    cycled, when there are no more bots than seats), in every rotation, `rounds` times."""
    if len(bots) <= players:
        groups = [tuple(bots[i % len(bots)] for i in range(players))]
    else:
        groups = list(itertools.combinations(bots, players))
    out = []
    for _ in range(rounds):
        for g in groups:
            for k in range(players):
                out.append(g[k:] + g[:k])
    return out


def bradley_terry(bots: list[str], games: list[dict], iterations: int = 200) -> list[float]:
    """Elo-scale strengths (the first bot at 0) from the games read as pairwise wins."""
    index = {b: k for k, b in enumerate(bots)}
    n = len(bots)
    wins = [[0.0] * n for _ in range(n)]
    for g in games:
        if g["winner"] < 0:
            continue
        w = index[g["names"][g["winner"]]]
        for p, name in enumerate(g["names"]):
            if p != g["winner"] and index[name] != w:
                wins[w][index[name]] += 1
    # a tiny prior (half a win each way against each other bot) keeps every strength finite
    for i in range(n):
        for j in range(n):
            if i != j:
                wins[i][j] += 0.5
    gamma = [1.0] * n
    for _ in range(iterations):
        new = []
        for i in range(n):
            total = sum(wins[i])
            denom = sum((wins[i][j] + wins[j][i]) / (gamma[i] + gamma[j]) for j in range(n) if j != i)
            new.append(total / denom if denom else gamma[i])
        scale = new[0]
        gamma = [x / scale for x in new]
    return [400 * math.log10(x) for x in gamma]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--bots", default="random,greedy,mcts:50,mcts", help="comma-separated bot names")
    ap.add_argument("--rounds", type=int, default=1, help="round robins per configuration")
    ap.add_argument("--only", default="", help="configurations by name, comma-separated (default: all)")
    ap.add_argument("--players", default="", help="player counts, comma-separated (default: each one's own)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--bootstrap", type=int, default=500)
    ap.add_argument("--markdown", action="store_true", help="print the tables as markdown")
    ap.add_argument("--one", default="", help="instead of a round robin: one BOT against --field bots, "
                    "seat rotated, --rounds times each seat")
    ap.add_argument("--field", default="greedy", help="the other seats' bot with --one")
    ap.add_argument("--save", default="", help="append each game's result to this file (JSON lines) as it ends")
    ap.add_argument("--report", default="", help="only print the tables of the games saved in this file")
    args = ap.parse_args()
    from catandsl.players import is_bot

    bots = [b.strip() for b in args.bots.split(",") if b.strip()] if not args.one else [args.field, args.one]
    bad = [b for b in bots if not is_bot(b)]
    if bad or len(set(bots)) != len(bots):
        sys.exit(f"bots must be distinct bot names, not {bad or bots}")
    if args.report:
        saved = [json.loads(line) for line in Path(args.report).read_text(encoding="utf-8").splitlines() if line]
        names = list(dict.fromkeys(n for r in saved for n in r["result"]["names"]))
        report([b for b in bots if b in names] + [n for n in names if n not in bots],
               [r["result"] for r in saved], [r["label"] for r in saved], args, 0.0)
        return
    only = {x.strip() for x in args.only.split(",") if x.strip()}
    counts = {int(x) for x in args.players.split(",") if x.strip()}
    per_config: list[list[tuple]] = []
    for name, path, options, players_list in CONFIGS:
        if only and name not in only:
            continue
        for players in players_list:
            if counts and players not in counts:
                continue
            seatings = schedule(bots, players, args.rounds) if not args.one else \
                [tuple(args.one if p == k % players else args.field for p in range(players))
                 for k in range(players * args.rounds)]
            per_config.append([((path, options, players, args.seed * 1000 + k, seating), f"{name} {players}p")
                               for k, seating in enumerate(seatings)])
    # the configurations' games interleaved: a run cut short has played some of each
    order = [x for group in itertools.zip_longest(*per_config) for x in group if x is not None]
    jobs, labels = [job for job, _ in order], [label for _, label in order]
    started = time.time()
    if args.workers > 1:
        with ProcessPoolExecutor(args.workers) as pool:
            results = list(pool.map(play_one, jobs))
        if args.save:
            with open(args.save, "a", encoding="utf-8") as f:
                for label, r in zip(labels, results):
                    f.write(json.dumps({"label": label, "result": r}) + "\n")
    else:
        results = []
        for job, label in zip(jobs, labels):
            results.append(play_one(job))
            if args.save:
                with open(args.save, "a", encoding="utf-8") as f:
                    f.write(json.dumps({"label": label, "result": results[-1]}) + "\n")
            print(f"  {label}: {' '.join(job[4])} -> winner {results[-1]['winner']} "
                  f"in {results[-1]['turns']} turns", file=sys.stderr, flush=True)
    report(bots, results, labels, args, time.time() - started)


def report(bots: list[str], results: list[dict], labels: list[str], args, elapsed: float) -> None:
    from catandsl.lint.balance import wilson

    rng = random.Random(args.seed)
    ratings = bradley_terry(bots, results)
    samples = [bradley_terry(bots, [rng.choice(results) for _ in results], 60) for _ in range(args.bootstrap)]
    rows = []
    for k, b in enumerate(bots):
        vals = sorted(s[k] for s in samples)
        lo, hi = vals[int(0.025 * len(vals))], vals[min(len(vals) - 1, int(0.975 * len(vals)))]
        games = sum(r["names"].count(b) for r in results)
        wins = sum(1 for r in results if r["winner"] >= 0 and r["names"][r["winner"]] == b)
        seated = [r["names"].count(b) / len(r["names"]) for r in results if b in r["names"]]
        parity = statistics.mean(seated) if seated else 0.0
        spent = sorted(t for r in results for p, name in enumerate(r["names"]) if name == b for t in r["spent"][p])
        med = statistics.median(spent) if spent else 0.0
        p90 = spent[int(0.9 * (len(spent) - 1))] if spent else 0.0
        wl, wh = wilson(wins, games)
        rows.append((b, ratings[k], lo, hi, wins, games, wins / games if games else 0.0, wl, wh, parity, med, p90))
    by_config: dict[str, list[dict]] = {}
    for r, label in zip(results, labels):
        by_config.setdefault(label, []).append(r)
    head = ["bot", "rating", "95% interval", "wins / seats", "win rate [95%]", "parity",
            "CPU ms/decision (median, p90)"]
    lines = [[b, f"{r:+.0f}", f"[{lo:+.0f}, {hi:+.0f}]", f"{w} / {n}", f"{wr:.0%} [{wl:.0%}, {wh:.0%}]",
              f"{par:.0%}", f"{1000 * med:.1f}, {1000 * p90:.1f}"]
             for b, r, lo, hi, w, n, wr, wl, wh, par, med, p90 in sorted(rows, key=lambda x: -x[1])]
    conf_head = ["configuration", "games", "mean turns", "median turns", "ended by victory"]
    conf = [[label, str(len(rs)), f"{statistics.mean(r['turns'] for r in rs):.0f}",
             f"{statistics.median(r['turns'] for r in rs):.0f}",
             f"{sum(r['reason'] == 'victory' for r in rs) / len(rs):.0%}"] for label, rs in by_config.items()]
    print(f"{len(results)} games, bots {', '.join(bots)}, seed {args.seed}, {args.rounds} round(s)"
          + (f", {elapsed:.0f} s wall" if elapsed else " (saved games)"))
    for h, body in ((head, lines), (conf_head, conf)):
        if args.markdown:
            print("| " + " | ".join(h) + " |")
            print("|" + "|".join("---" for _ in h) + "|")
            for row in body:
                print("| " + " | ".join(row) + " |")
        else:
            widths = [max(len(x) for x in col) for col in zip(h, *body)]
            for row in [h] + body:
                print("  ".join(x.ljust(w) for x, w in zip(row, widths)))
        print()


if __name__ == "__main__":
    main()
