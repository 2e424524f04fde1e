"""Load: does the studio still answer other clients while one client attacks it?

    python bench/studio_load.py [--seconds 60] [--hostile 400] [--files 12] [--good 2]
    python bench/studio_load.py --rooms 20 [--moves 60] [--seconds 600]

With `--rooms N`, measures instead what N hosted games of the base game at once cost
the server (memory per game, messages per turn, time per move: bench/studio_rooms.py).

Serves a folder of the seven-hex island and `--files` costly files (maps of ninety
2,500-hex options and options of 5,000 items: seconds of compiling each) with
`catandsl serve` on a loopback port, in its own process. One hostile client (one
cookie, `--threads` connections at once) sends up to `--hostile` requests: saves whose
state leaves nobody a move (random and greedy bots), bodies past 4 MiB, bodies of a
million values, saves of 200,000 actions, listings and author views of the costly
files (each a compile), and new games. Meanwhile `--good` clients, each with its own
cookie, play: the listing, the island's author view, a new game, its view, a move.
Everything stops after `--seconds` or when the hostile client is done.

Prints the hostile requests by answer, and each good client's latencies (median, 95th
percentile, worst; how many took a second or more), with the machine's load average;
exits 1 when a good request failed or took a second or more. Loopback only; every
loop is bounded by its count and the clock.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import random
import secrets
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

HEAD = 'scenario "Costly" {\n  uses base\n'


def costly_maps() -> str:
    rows = "\n".join(("      " if r % 2 == 0 else "        ") + "f8  " * 50 for r in range(50))
    items = "; ".join(f"item s{i}" + (" default" if i == 0 else "") for i in range(90))
    maps = "".join(f'  when size is s{i} {{\n    map {{\n      rows """\n{rows}\n      """\n'
                   f"      legend {{ f forest }}\n    }}\n  }}\n" for i in range(90))
    return HEAD + f"  option size {{ {items} }}\n" + maps + "}\n"


def costly_options() -> str:
    items = "".join(f"    item s{i}{' default' if i == 0 else ''}\n" for i in range(5000))
    return HEAD + "  option size {\n" + items + '  }\n  map {\n    rows """\n      f8  h5\n    """\n' \
        "    legend { f forest; h hills }\n  }\n}\n"


def make_folder(path: Path, files: int) -> Path:
    path.mkdir(parents=True)
    shutil.copy(ROOT / "examples" / "seven_hex_island.catan", path / "island.catan")
    maps, options = costly_maps(), costly_options()
    for k in range(files):
        (path / f"costly{k:02d}.catan").write_text((maps if k % 2 == 0 else options) + f"# copy {k}\n",
                                                   encoding="utf-8")
    return path


def dead_save(bot: str) -> dict:
    """A saved island game after the start player's first settlement, its start player
    changed: the seat to move has no legal action."""
    import catandsl

    game = catandsl.new_game(catandsl.load(ROOT / "examples" / "seven_hex_island.catan"), 2, {}, 2)
    s = game.new_initial_state()
    s.apply_action(s.sample_chance())
    s.apply_action(s.legal_actions()[0])
    data = json.loads(s.serialize())
    data["start_player"] = 1 - data["start_player"]
    return {"format": "catandsl-studio-game", "version": 1, "scenario": "dir:island.catan", "players": 2,
            "options": {}, "seed": 2, "seat": 1, "bots": [bot, bot], "actions": [], "state": json.dumps(data)}


class Client:
    """One client: its cookie, a fresh loopback connection per request."""

    def __init__(self, port: int, token: str | None):
        self.port = port
        self.cookie = f"catandsl_client={token}" if token else None

    def call(self, method: str, path: str, body: bytes | None = None, timeout: float = 120.0) -> tuple[int, dict]:
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=timeout)
        headers = {"Host": f"127.0.0.1:{self.port}"}
        if self.cookie:
            headers["Cookie"] = self.cookie
        if body is not None:
            headers["Content-Type"] = "application/json"
        try:
            conn.request(method, path, body=body, headers=headers)
            r = conn.getresponse()
            data = r.read()
        except (OSError, http.client.HTTPException) as e:
            return 0, {"error": {"code": f"client/{type(e).__name__}"}}
        finally:
            conn.close()
        try:
            return r.status, json.loads(data)
        except ValueError:
            return r.status, {}


def hostile(client: Client, requests: int, stop: threading.Event, answers: Counter, files: int,
            seed: int) -> None:
    rng = random.Random(seed)
    saves = [json.dumps(dead_save(b)).encode() for b in ("random", "greedy")]
    past_4_mib = b'{"ref": "' + b"x" * (4 << 20) + b'"}'
    values = b'{"ref": "dir:island.catan", "actions": [' + b"0," * 1_000_000 + b'0]}'
    long_save = dead_save("greedy")
    long_save["actions"] = [0] * 200_000
    long_save_body = json.dumps(long_save).encode()
    kinds = ["dead_save", "past_4_mib", "million_values", "long_save", "listing", "costly_author", "new_game"]
    for _ in range(requests):
        if stop.is_set():
            return
        kind = rng.choice(kinds)
        if kind == "dead_save":
            status, data = client.call("POST", "/api/games/resume", rng.choice(saves))
        elif kind == "past_4_mib":
            status, data = client.call("POST", "/api/games", past_4_mib)
        elif kind == "million_values":
            status, data = client.call("POST", "/api/games", values)
        elif kind == "long_save":
            status, data = client.call("POST", "/api/games/resume", long_save_body)
        elif kind == "listing":
            status, data = client.call("GET", "/api/scenarios")
        elif kind == "costly_author":
            status, data = client.call("GET", f"/api/author?ref=dir:costly{rng.randrange(files):02d}.catan")
        else:
            status, data = client.call("POST", "/api/games", json.dumps(
                {"ref": "dir:island.catan", "players": 2, "seed": rng.randrange(1000)}).encode())
        code = data.get("error", {}).get("code", "ok") if isinstance(data, dict) else "ok"
        answers[f"{kind} -> {status} {code}"] += 1


def good(client: Client, stop: threading.Event, times: dict[str, list[float]], failures: list[str]) -> None:
    """A person's round: the listing, the island's author view, a new game, its view, a move."""
    def timed(what: str, method: str, path: str, body: dict | None = None) -> dict:
        start = time.perf_counter()
        status, data = client.call(method, path, None if body is None else json.dumps(body).encode())
        times.setdefault(what, []).append(time.perf_counter() - start)
        if status != 200:
            failures.append(f"{method} {path}: {status} {data.get('error')}")
        return data

    while not stop.is_set():
        timed("listing", "GET", "/api/scenarios")
        timed("author view", "GET", "/api/author?ref=dir:island.catan&players=2")
        view = timed("new game", "POST", "/api/games", {"ref": "dir:island.catan", "players": 2, "seed": 3, "seat": 0})
        if "id" not in view:
            continue
        view = timed("game view", "GET", f"/api/games/{view['id']}")
        offered = [a["id"] for g in view.get("offers", {}).get("groups", []) for a in g["actions"]]
        if offered:
            timed("move", "POST", f"/api/games/{view['id']}/act", {"action": offered[0]})


def play(goods: list[Client], seconds: float, attackers: list[threading.Thread]) -> tuple[dict, list[str], float]:
    """The good clients' rounds for `seconds` (or until the attackers are done), and
    their latencies by request."""
    stop = threading.Event()
    times: dict[str, list[float]] = {}
    failures: list[str] = []
    players = [threading.Thread(target=good, args=(c, stop, times, failures)) for c in goods]
    started = time.perf_counter()
    for t in attackers + players:
        t.start()
    while time.perf_counter() - started < seconds and (not attackers or any(t.is_alive() for t in attackers)):
        time.sleep(0.2)
    stop.set()
    for t in players:
        t.join(300)
    return times, failures, time.perf_counter() - started


def report(title: str, times: dict[str, list[float]], elapsed: float) -> int:
    """Prints the latencies; returns how many took a second or more."""
    every = [x for t in times.values() for x in t]
    load = os.getloadavg() if hasattr(os, "getloadavg") else (0.0, 0.0, 0.0)
    print(f"{title}: {len(every)} requests of the other clients in {elapsed:.0f} s "
          f"(load average {load[0]:.1f} on {os.cpu_count()} cores)")
    slow = 0
    for what, t in [("all", every), *sorted(times.items())]:
        if not t:
            continue
        ordered = sorted(t)
        p95 = ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))]
        over = sum(1 for x in t if x >= 1.0)
        if what == "all":
            slow = over
        print(f"  {what:<12} {len(t):>5}  median {1000 * statistics.median(t):>5.0f} ms  95th percentile "
              f"{1000 * p95:>5.0f} ms  worst {1000 * max(t):>5.0f} ms  {over} of a second or more")
    return slow


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seconds", type=float, default=60.0)
    ap.add_argument("--hostile", type=int, default=400, help="requests the hostile client sends")
    ap.add_argument("--threads", type=int, default=12, help="the hostile client's connections at once")
    ap.add_argument("--files", type=int, default=12, help="costly files in the served folder")
    ap.add_argument("--good", type=int, default=2, help="other clients")
    ap.add_argument("--rooms", type=int, default=0, help="hosted base games at once (bench/studio_rooms.py)")
    ap.add_argument("--moves", type=int, default=60, help="with --rooms: each person's moves at most")
    args = ap.parse_args()

    work = Path(tempfile.mkdtemp(prefix="catandsl-load-"))
    if args.rooms:
        from bench.studio_rooms import run

        try:
            return run(args.rooms, args.moves, args.seconds, work, ROOT, Client)
        finally:
            shutil.rmtree(work, ignore_errors=True)
    folder = make_folder(work / "served", args.files)
    server = subprocess.Popen([sys.executable, "-m", "catandsl", "serve", str(folder), "--port", "0"],
                              stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, cwd=work,
                              env={**os.environ, "PYTHONPATH": str(ROOT)})
    try:
        line = server.stdout.readline() if server.stdout else ""
        if "http://127.0.0.1:" not in line:
            print(f"the studio did not start: {line!r}")
            return 1
        port = int(line.split("http://127.0.0.1:", 1)[1].split("/", 1)[0])
        goods = [Client(port, secrets.token_urlsafe(16)) for _ in range(args.good)]
        warm = Client(port, secrets.token_urlsafe(16))  # the island compiled before the attack
        warm.call("GET", "/api/author?ref=dir:island.catan&players=2")
        attacker = Client(port, secrets.token_urlsafe(16))

        quiet = play(goods, args.seconds / 3, [])  # the same rounds with nobody attacking: the machine's share
        stop = threading.Event()
        answers: Counter = Counter()
        per_thread = -(-args.hostile // args.threads)
        attackers = [threading.Thread(target=hostile, args=(attacker, per_thread, stop, answers, args.files, k))
                     for k in range(args.threads)]
        attacked = play(goods, args.seconds, attackers)
        stop.set()
        for t in attackers:
            t.join(300)
    finally:
        server.terminate()
        try:
            server.wait(30)
        except subprocess.TimeoutExpired:
            server.kill()
        shutil.rmtree(work, ignore_errors=True)

    report("nobody attacking", quiet[0], quiet[2])
    slow = report("one client attacking", attacked[0], attacked[2])
    print(f"the attacking client: {sum(answers.values())} requests")
    for what, n in sorted(answers.items()):
        print(f"  {n:>5}  {what}")
    failures = quiet[1] + attacked[1]
    for f in failures[:10]:
        print(f"  failed: {f}")
    ok = not failures and slow == 0 and bool(attacked[0])
    print("verdict: the other clients were answered within a second" if ok else
          "verdict: some request of another client took a second or more, or failed")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
