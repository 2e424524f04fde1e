"""Where hosted games are kept: one SQLite database (the standard library's `sqlite3`)
under the served folder, `.catandsl/studio.sqlite3`.

A game is stored as what replays it: the scenario's reference, the player count, the
options and the seed, who plays each seat (`human` or a bot's name), and the list of
action ids applied, one row per action, written as it is applied. Loading a game plays
those actions again from the start, so the stored game is the engine's own game and
never a copy of its state that could drift.

Seat links are tokens (`secrets.token_urlsafe`): one per seat, one for spectators,
one for the host. The database maps each to its game and its seat.

The file is opened on the first hosted game or the first token asked for, never
before: a studio nobody hosts a game in writes nothing into the folder.
"""

from __future__ import annotations

import json
import sqlite3
import threading
from dataclasses import dataclass
from pathlib import Path

FOLDER = ".catandsl"
NAME = "studio.sqlite3"
HOST = -2  # the seat number of a host's token
WATCH = -1  # the seat number of a spectator's token

_SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
  id TEXT PRIMARY KEY, ref TEXT NOT NULL, players INTEGER NOT NULL, options TEXT NOT NULL,
  seed INTEGER NOT NULL, seats TEXT NOT NULL, created INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS tokens (
  token TEXT PRIMARY KEY, game TEXT NOT NULL REFERENCES games(id), seat INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS moves (
  game TEXT NOT NULL REFERENCES games(id), n INTEGER NOT NULL, action INTEGER NOT NULL,
  PRIMARY KEY (game, n));
"""


@dataclass
class Record:
    """One stored game: what makes it (`ref`, `players`, `options`, `seed`), who plays
    each seat, and the actions applied so far."""

    id: str
    ref: str
    players: int
    options: dict[str, str]
    seed: int
    seats: list[str]
    actions: list[int]


class Store:
    """The database of one studio's hosted games; every call takes the store's lock
    (the connection is shared by the server's worker threads)."""

    def __init__(self, root: Path):
        self.path = root / FOLDER / NAME
        self._db: sqlite3.Connection | None = None
        self._lock = threading.Lock()

    def _open(self, create: bool) -> sqlite3.Connection | None:
        if self._db is None:
            if not create and not self.path.exists():
                return None
            self.path.parent.mkdir(exist_ok=True)
            db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
            self.path.chmod(0o600)  # the tokens in it are the seats' keys
            db.execute("PRAGMA journal_mode=WAL")  # a move is one small append
            db.execute("PRAGMA synchronous=NORMAL")  # durable once written, through a crash of the server
            db.executescript(_SCHEMA)
            self._db = db
        return self._db

    def create(self, record: Record, tokens: dict[str, int]) -> None:
        """A new game and its tokens (token -> seat, HOST or WATCH)."""
        import time

        with self._lock:
            db = self._open(create=True)
            assert db is not None
            with db:
                db.execute("BEGIN")
                db.execute("INSERT INTO games VALUES (?, ?, ?, ?, ?, ?, ?)",
                           (record.id, record.ref, record.players, json.dumps(record.options, sort_keys=True),
                            record.seed, json.dumps(record.seats), int(time.time())))
                db.executemany("INSERT INTO tokens VALUES (?, ?, ?)",
                               [(t, record.id, seat) for t, seat in tokens.items()])
                db.executemany("INSERT INTO moves VALUES (?, ?, ?)",
                               [(record.id, n, a) for n, a in enumerate(record.actions)])

    def add_moves(self, gid: str, first: int, actions: list[int]) -> None:
        """Actions applied to the game, the first of them its action number `first`."""
        if not actions:
            return
        with self._lock:
            db = self._open(create=True)
            assert db is not None
            with db:
                db.execute("BEGIN")
                db.executemany("INSERT INTO moves VALUES (?, ?, ?)",
                               [(gid, first + k, a) for k, a in enumerate(actions)])

    def set_seats(self, gid: str, seats: list[str]) -> None:
        with self._lock:
            db = self._open(create=True)
            assert db is not None
            db.execute("UPDATE games SET seats = ? WHERE id = ?", (json.dumps(seats), gid))

    def token(self, token: str) -> tuple[str, int] | None:
        """(game id, seat) of a token, or None."""
        with self._lock:
            db = self._open(create=False)
            if db is None:
                return None
            row = db.execute("SELECT game, seat FROM tokens WHERE token = ?", (token,)).fetchone()
        return (row[0], int(row[1])) if row else None

    def tokens(self, gid: str) -> dict[int, str]:
        """A game's tokens by seat (HOST, WATCH, then the seats)."""
        with self._lock:
            db = self._open(create=False)
            rows = db.execute("SELECT seat, token FROM tokens WHERE game = ?", (gid,)).fetchall() if db else []
        return {int(seat): token for seat, token in rows}

    def load(self, gid: str) -> Record | None:
        with self._lock:
            db = self._open(create=False)
            if db is None:
                return None
            row = db.execute("SELECT id, ref, players, options, seed, seats FROM games WHERE id = ?",
                             (gid,)).fetchone()
            if row is None:
                return None
            moves = [a for (a,) in db.execute("SELECT action FROM moves WHERE game = ? ORDER BY n", (gid,))]
        return Record(row[0], row[1], int(row[2]), json.loads(row[3]), int(row[4]), json.loads(row[5]), moves)

    def close(self) -> None:
        with self._lock:
            if self._db is not None:
                self._db.close()
                self._db = None
