"""What hosted games cost the studio: `--rooms N` games of the base game at once, each
with two people (scripted WebSocket clients), two greedy bots and a spectator.

    python bench/studio_load.py --rooms 20 [--moves 60] [--seconds 600]

Serves a fresh folder with `catandsl serve` in its own process (bots paced as a real
studio paces them), hosts the games over HTTP, and opens three WebSockets per game
(the two people's seats and the spectators' link). A scripted person answers each
view that is theirs to move with a move it offers (a building site first, then the
prompts, the dice, ending the turn; never a trade), until each has made `--moves`
moves or the game is over. Measures, from outside the server:

- memory: the server's resident size before any game, after hosting the games and
  after play, per game;
- messages: views the server sent (counted by the clients) per turn of a game;
- time per move: from a person's move sent to their page's next view (the move
  applied, stored, and every page of the game sent its view), and the server's CPU
  time per action applied (people's, bots' and dice).

Loopback only; every loop is bounded by its count and `--seconds`.
"""

from __future__ import annotations

import json
import os
import socket
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path

KINDS = ["discard", "move", "steal", "take", "choose_resource", "choose_player", "roll_dice", "play_card",
         "end_turn"]


class Socket:
    """A WebSocket client (wsproto over a plain socket): text messages in and out."""

    def __init__(self, port: int, path: str):
        from wsproto import ConnectionType, WSConnection
        from wsproto.events import Request

        self.sock = socket.create_connection(("127.0.0.1", port), timeout=120)
        self.ws = WSConnection(ConnectionType.CLIENT)
        self.sock.sendall(self.ws.send(Request(host=f"127.0.0.1:{port}", target=path)))
        self.parts: list[str] = []
        self.open = False

    def send(self, text: str) -> None:
        from wsproto.events import TextMessage

        self.sock.sendall(self.ws.send(TextMessage(data=text)))

    def receive(self) -> str | None:
        """The next text message, or None once the connection is closed."""
        from wsproto.events import AcceptConnection, CloseConnection, Ping, TextMessage

        while True:
            for event in self.ws.events():
                if isinstance(event, AcceptConnection):
                    self.open = True
                elif isinstance(event, TextMessage):
                    self.parts.append(event.data)
                    if event.message_finished:
                        text, self.parts = "".join(self.parts), []
                        return text
                elif isinstance(event, Ping):
                    self.sock.sendall(self.ws.send(event.response()))
                elif isinstance(event, CloseConnection):
                    return None
            data = self.sock.recv(1 << 16)
            self.ws.receive_data(data or None)
            if not data:
                return None

    def close(self) -> None:
        self.sock.close()


def choose(view: dict) -> int | None:
    """A scripted person's move: a building site, else the first kind of KINDS offered,
    else nothing they want (a trade is never started)."""
    groups = {g["kind"]: g["actions"] for g in view["offers"]["groups"]}
    for kind, actions in groups.items():
        if kind.startswith("build:") or kind == "build":
            return actions[0]["id"]
    for kind in KINDS:
        if kind in groups:
            return groups[kind][0]["id"]
    if "accept" in groups:  # an offer to answer: decline it
        declines = [a for a in groups["accept"] if a["action"].get("kind") == "decline"]
        return (declines or groups["accept"])[0]["id"]
    first = next(iter(groups.values()), None)
    return first[0]["id"] if first else None


class Stats:
    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.messages = 0
        self.latencies: list[float] = []
        self.turns: dict[str, int] = {}
        self.over: set[str] = set()
        self.done: set[str | None] = set()  # the games a person stopped playing
        self.errors: list[str] = []


def person(port: int, token: str, moves: int, stats: Stats, deadline: float) -> None:
    """A scripted person: moves until they made `moves`, the game is over, the other
    person of the game stopped (nobody would answer them), or the deadline."""
    ws = Socket(port, f"/api/rooms/{token}/live")
    ws.sock.settimeout(1.0)
    made, sent_at, acted_version, room = 0, 0.0, -1, None
    try:
        while time.monotonic() < deadline and room not in stats.done:
            try:
                text = ws.receive()
            except TimeoutError:
                continue
            if text is None:
                return
            msg = json.loads(text)
            with stats.lock:
                stats.messages += 1
            if msg["type"] == "error":
                with stats.lock:
                    stats.errors.append(f"{msg['error']['code']}: {msg['error']['message'][:80]}")
                acted_version, sent_at = -1, 0.0
                continue
            view = msg["view"]
            room = view["room"]
            with stats.lock:
                stats.turns[room] = max(stats.turns.get(room, 0), view["turn"])
                if view["over"]:
                    stats.over.add(room)
            if sent_at and view["version"] > acted_version:
                with stats.lock:
                    stats.latencies.append(time.monotonic() - sent_at)
                sent_at = 0.0
            if view["over"] or made >= moves:
                return
            if view["your_move"] and view["version"] > acted_version and not sent_at:
                aid = choose(view)
                if aid is None:
                    continue
                acted_version = view["version"]
                sent_at = time.monotonic()
                ws.send(json.dumps({"type": "act", "action": aid}))
                made += 1
    finally:
        if room is not None:
            stats.done.add(room)
        ws.close()


def spectator(port: int, token: str, stats: Stats, stop: threading.Event) -> None:
    ws = Socket(port, f"/api/rooms/{token}/live")
    ws.sock.settimeout(1.0)
    try:
        while not stop.is_set():
            try:
                text = ws.receive()
            except TimeoutError:
                continue
            if text is None:
                return
            with stats.lock:
                stats.messages += 1
    finally:
        ws.close()


def rss(pid: int) -> int:
    """The process's resident set size, bytes (Linux)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) * 1024
    return 0


def cpu(pid: int) -> float:
    """The process's user and system CPU seconds (its threads' included)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def run(rooms: int, moves: int, seconds: float, work: Path, root: Path, client_cls) -> int:
    folder = work / "served"
    folder.mkdir(parents=True)
    server = subprocess.Popen([sys.executable, "-m", "catandsl", "serve", str(folder), "--port", "0"],
                              stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, cwd=work,
                              env={**os.environ, "PYTHONPATH": str(root)})
    try:
        line = server.stdout.readline() if server.stdout else ""
        if "http://127.0.0.1:" not in line:
            print(f"the studio did not start: {line!r}")
            return 1
        port = int(line.split("http://127.0.0.1:", 1)[1].split("/", 1)[0])
        http = client_cls(port, None)
        body = {"ref": "shipped:base", "players": 4, "seats": ["human", "human", "greedy", "greedy"]}
        status, warm = http.call("POST", "/api/rooms", json.dumps({**body, "seed": 0}).encode())
        if status != 200:
            print(f"hosting a game failed: {status} {warm}")
            return 1
        http.call("GET", f"/api/rooms/{warm['watch']}")
        time.sleep(1.0)
        before, cpu0 = rss(server.pid), cpu(server.pid)
        made = []
        for k in range(rooms):
            status, m = http.call("POST", "/api/rooms", json.dumps({**body, "seed": k + 1}).encode())
            if status != 200:
                print(f"hosting game {k} failed: {status} {m}")
                return 1
            made.append(m)
        hosted = rss(server.pid)
        stats, stop = Stats(), threading.Event()
        deadline = time.monotonic() + seconds
        watchers = [threading.Thread(target=spectator, args=(port, m["watch"], stats, stop)) for m in made]
        people = [threading.Thread(target=person, args=(port, m["seats"][s]["token"], moves, stats, deadline))
                  for m in made for s in (0, 1)]
        started = time.monotonic()
        for t in watchers + people:
            t.start()
        peak = hosted
        while any(t.is_alive() for t in people):
            peak = max(peak, rss(server.pid))
            time.sleep(0.5)
        elapsed = time.monotonic() - started
        after, cpu1 = rss(server.pid), cpu(server.pid)
        stop.set()
        for t in watchers:
            t.join(10)
        applied = 0
        for m in made:
            status, v = http.call("GET", f"/api/rooms/{m['watch']}")
            applied += v.get("actions_applied", 0) if status == 200 else 0
    finally:
        server.terminate()
        try:
            server.wait(30)
        except subprocess.TimeoutExpired:
            server.kill()

    turns = sum(stats.turns.values())
    mib = 1 << 20
    lat = sorted(stats.latencies)
    print(f"{rooms} hosted base games at once (4 seats: 2 people over WebSockets, 2 greedy bots; 1 spectator each), "
          f"{len(lat)} people's moves in {elapsed:.0f} s, load average {os.getloadavg()[0]:.1f} on "
          f"{os.cpu_count()} cores")
    print(f"  memory: server {before / mib:.0f} MiB before, {hosted / mib:.0f} MiB hosted, {peak / mib:.0f} MiB at "
          f"most, {after / mib:.0f} MiB after play: {(hosted - before) / rooms / mib:.2f} MiB per game hosted, "
          f"{(peak - before) / rooms / mib:.2f} MiB per game in play")
    print(f"  messages: {stats.messages} views over {turns} turns in all: {stats.messages / max(1, turns):.1f} "
          f"per turn of a game (3 pages each)")
    if lat:
        p95 = lat[min(len(lat) - 1, int(0.95 * len(lat)))]
        print(f"  a person's move to their next view: median {1000 * statistics.median(lat):.0f} ms, 95th "
              f"percentile {1000 * p95:.0f} ms, worst {1000 * lat[-1]:.0f} ms")
    print(f"  server CPU: {cpu1 - cpu0:.1f} s for {applied} actions applied (people's, bots', dice): "
          f"{1000 * (cpu1 - cpu0) / max(1, applied):.1f} ms per action; games over: {len(stats.over)}")
    if stats.errors:
        print(f"  refused moves: {len(stats.errors)}: {'; '.join(sorted(set(stats.errors))[:5])}")
    return 0 if lat and not stats.errors else 1
