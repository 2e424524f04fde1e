"""Soak: uniformly random agents (every legal action equally likely: offers, answers,
ship moves and all) play many games of every shipped scenario at its largest player
count, and every state is checked before every action: the invariants (resources,
cards and tokens conserved, pieces within limits, points adding up), live (over, a
chance node, or the seat to act has a legal action), and saved and loaded back equal
(the same text, decision and observations; the same next state played from the copy
read back). Even games use the scenario's default options, odd ones each option's next
item in turn (tests/engine/soundness.py's `variant`).

    python bench/soak.py [--games 1000] [--workers 2] [--seed 1] [--scenario base.catan ...]
                         [--record soak.jsonl]

Prints per scenario the games, the actions played, the breaks (games where a check
failed or that ran past `max_game_length()`), the longest game and the bound, then the
totals and the first breaks with their seeds; exits 1 on any break. Every action costs a
serialization round trip (about a millisecond), so a thousand games per scenario is
hours of CPU: `--games` and `--scenario` size a run to the machine.

With `--record FILE` a run can be stopped and taken up again: each game's result is
appended to FILE (one JSON line: scenario, index, seed, actions, what broke, the commit)
as soon as it ends, a later run with the same FILE and seed plays only the games FILE
does not hold, and the table counts every game FILE holds for the run's scenarios and
indices. A result recorded at another commit than the one playing is counted and the
commits are listed under the table, so a report never passes off old games as new.
tests/engine/test_round_trip.py does the same for a few games of every scenario and example.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing as mp
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def _shipped() -> tuple[str, ...]:
    """Every shipped scenario, by its path under scenarios/ (a new one is soaked too)."""
    from catandsl.resources import shipped_scenarios

    return tuple(s.path.relative_to(ROOT / "scenarios").as_posix() for s in shipped_scenarios())


SCENARIOS = _shipped()

_LOADED: dict[str, object] = {}


def play(task: tuple[str, int, int]) -> tuple[str, int, int, int, str | None]:
    """One checked game: (scenario, game index, seed, actions played, what broke or None)."""
    import catandsl
    from catandsl.players import UniformPlayer
    from catandsl.simulate import game_seed
    from tests.engine.soundness import check_cheap, play_checked, variant

    name, index, seed = task
    s = game_seed(seed, index)
    played = [0]

    def check(state) -> None:
        played[0] = state.actions_applied
        check_cheap(state)

    try:  # (what broke goes back as text: an exception may not survive the trip between processes)
        sc = _LOADED.get(name)
        if sc is None:
            sc = _LOADED[name] = catandsl.load(ROOT / "scenarios" / name)
        players, options = sc.players_max, variant(sc, index % 2)[1]  # type: ignore[attr-defined]
        game = catandsl.new_game(sc, players, options, s)
        _, n = play_checked(game, [UniformPlayer(s * 10 + p) for p in range(players)], check)
    except Exception as e:  # noqa: BLE001 - a break of any kind is reported, not raised
        return name, index, s, played[0], f"{type(e).__name__} after {played[0]} actions: {e}"[:400]
    return name, index, s, n, None


def _commit() -> str:
    """The commit being played (with `+` if the work tree differs), or `unknown`."""
    try:
        head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True,
                              text=True, check=True).stdout.strip()
        dirty = subprocess.run(["git", "status", "--porcelain", "--", "catandsl", "scenarios", "stdlib",
                                "grammars", "tests/engine"], cwd=ROOT, capture_output=True, text=True,
                               check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"
    return head + ("+" if dirty else "")


def _recorded(path: Path | None, seed: int) -> dict[tuple[str, int], dict]:
    """The games a record holds for `seed`, by (scenario, index); a torn last line (a run
    stopped mid-write) is skipped."""
    held: dict[tuple[str, int], dict] = {}
    if path is None or not path.exists():
        return held
    for line in path.read_text(encoding="utf-8").splitlines():
        try:
            row = json.loads(line)
        except ValueError:
            continue
        if isinstance(row, dict) and row.get("seed_base") == seed:
            held[(row["scenario"], row["index"])] = row
    return held


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=1000, help="games per scenario")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--scenario", action="append", choices=SCENARIOS, help="only these (repeatable)")
    ap.add_argument("--record", type=Path, help="append each game's result here; play only games not in it")
    args = ap.parse_args()
    names = args.scenario or list(SCENARIOS)
    commit = _commit()
    held = _recorded(args.record, args.seed)
    rows: dict[str, list] = {name: [] for name in names}
    commits: dict[str, int] = {}
    for (name, i), row in sorted(held.items()):
        if name in rows and i < args.games:
            rows[name].append((name, i, row["game_seed"], row["actions"], row["broke"]))
            commits[row["commit"]] = commits.get(row["commit"], 0) + 1
    # game by game across the scenarios, so a run stopped early has soaked each about as much
    tasks = [(name, i, args.seed) for i in range(args.games) for name in names if (name, i) not in held]
    started = time.perf_counter()
    out = args.record.open("a", encoding="utf-8") if args.record else None
    try:
        with mp.get_context("fork").Pool(args.workers) as pool:
            for result in pool.imap_unordered(play, tasks, chunksize=1):
                rows[result[0]].append(result)
                commits[commit] = commits.get(commit, 0) + 1
                if out is not None:
                    name, index, s, n, why = result
                    out.write(json.dumps({"scenario": name, "index": index, "seed_base": args.seed, "game_seed": s,
                                          "actions": n, "broke": why, "commit": commit}) + "\n")
                    out.flush()
    finally:
        if out is not None:
            out.close()
    import catandsl

    print(f"{'scenario':<50}{'games':>7}{'actions':>11}{'breaks':>8}{'longest':>9}{'bound':>8}")
    total_games = total_actions = total_breaks = longest = 0
    breaks = []
    for name in names:
        sc = catandsl.load(ROOT / "scenarios" / name)
        bound = catandsl.new_game(sc, sc.players_max, {}, args.seed).max_game_length()
        done = rows[name]
        broken = [r for r in done if r[4] is not None]
        actions = sum(r[3] for r in done)
        most = max((r[3] for r in done), default=0)
        print(f"{name:<50}{len(done):>7}{actions:>11,}{len(broken):>8}{most:>9}{bound:>8}")
        total_games += len(done)
        total_actions += actions
        total_breaks += len(broken)
        longest = max(longest, most)
        breaks += sorted(broken, key=lambda r: r[1])
    print(f"{'all':<50}{total_games:>7}{total_actions:>11,}{total_breaks:>8}{longest:>9}")
    for name, index, seed, _, why in breaks[:10]:
        print(f"  {name} game {index} (seed {seed}): {why}")
    print(f"{len(tasks)} game(s) played in {time.perf_counter() - started:.0f} s, {args.workers} worker(s), "
          f"{total_games - len(tasks)} taken from the record")
    if len(commits) > 1 or (commits and commit not in commits):
        print("games by commit: " + ", ".join(f"{c} {k}" for c, k in sorted(commits.items())))
    return 1 if total_breaks else 0


if __name__ == "__main__":
    sys.exit(main())
