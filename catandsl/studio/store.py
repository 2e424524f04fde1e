"""Where hosted games are kept: one SQLite database (the standard library's `sqlite3`)
under the served folder, `.catandsl/studio.sqlite3`.

A game is stored as what replays it: the scenario's reference, the player count, the
options and the seed, who plays each seat (`human` or a bot's name), and the list of
action ids applied, one row per action, written as it is applied. Loading a game plays
those actions again from the start, so the stored game is the engine's own game and
never a copy of its state that could drift.

Seat links are tokens: one per seat, one for spectators, one for the host, each
HMAC-SHA256 under the studio's key of the game's id (itself random) and the seat, so
the host's page can list them again after a restart. The database never holds a token:
it maps each token's own HMAC (`link_digest`) to its game and its seat, so the
database file alone (a copy, a backup) opens no seat. The key is 32 random bytes in
`.catandsl/studio.key`, beside the database, readable by its owner alone; a database
without its key opens no seat either (its games' links change with the new key).
A database of an older studio holding tokens in clear has them replaced by their
HMACs when opened (their games' host pages then list no links).

The file is opened on the first hosted game or the first token asked for, never
before: a studio nobody hosts a game in writes nothing into the folder.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import os
import secrets
import sqlite3
import threading
from dataclasses import dataclass
from pathlib import Path

FOLDER = ".catandsl"
NAME = "studio.sqlite3"
KEY = "studio.key"
HOST = -2  # the seat number of a host's token
WATCH = -1  # the seat number of a spectator's token

_SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
  id TEXT PRIMARY KEY, ref TEXT NOT NULL, players INTEGER NOT NULL, options TEXT NOT NULL,
  seed INTEGER NOT NULL, seats TEXT NOT NULL, created INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS links (
  digest TEXT PRIMARY KEY, game TEXT NOT NULL REFERENCES games(id), seat INTEGER NOT NULL);
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
        self.key_path = root / FOLDER / KEY
        self._db: sqlite3.Connection | None = None
        self._key = b""
        self._lock = threading.Lock()

    def _read_key(self) -> bytes:
        """The studio's key, made (32 random bytes, owner-only) when there is none."""
        try:
            fd = os.open(self.key_path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        except FileExistsError:
            key = self.key_path.read_bytes()
            if len(key) >= 32:
                return key
            self.key_path.unlink()  # a damaged key: a new one (the old links open nothing)
            return self._read_key()
        key = secrets.token_bytes(32)
        with os.fdopen(fd, "wb") as f:
            f.write(key)
        return key

    def _mac(self, text: str) -> bytes:
        return hmac.new(self._key, text.encode(), hashlib.sha256).digest()

    def link(self, gid: str, seat: int) -> str:
        """The token of a game's seat (HOST, WATCH or a seat): 32 URL-safe characters."""
        return base64.urlsafe_b64encode(self._mac(f"link/{gid}/{seat}")).decode()[:32]

    def link_digest(self, token: str) -> str:
        """What the database keeps of a token: its HMAC, never the token."""
        return self._mac(f"digest/{token}").hex()

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
            self._key = self._read_key()
            self._forget_clear_tokens(db)
            self._db = db
        return self._db

    def _forget_clear_tokens(self, db: sqlite3.Connection) -> None:
        """An older studio's table of tokens in clear: each replaced by its HMAC."""
        if db.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'tokens'").fetchone() is None:
            return
        with db:
            db.execute("BEGIN")
            rows = db.execute("SELECT token, game, seat FROM tokens").fetchall()
            db.executemany("INSERT OR IGNORE INTO links VALUES (?, ?, ?)",
                           [(self.link_digest(tok), gid, seat) for tok, gid, seat in rows])
            db.execute("DROP TABLE tokens")
        db.execute("VACUUM")  # the dropped rows' pages hold the tokens still: rewritten without them
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")  # (and the log of the change emptied)

    def create(self, record: Record, seats: list[int]) -> dict[int, str]:
        """A new game and the tokens of its `seats` (HOST, WATCH or a seat): seat -> token."""
        import time

        with self._lock:
            db = self._open(create=True)
            assert db is not None
            with db:
                db.execute("BEGIN")
                db.execute("INSERT INTO games VALUES (?, ?, ?, ?, ?, ?, ?)",
                           (record.id, record.ref, record.players, json.dumps(record.options, sort_keys=True),
                            record.seed, json.dumps(record.seats), int(time.time())))
                tokens = {seat: self.link(record.id, seat) for seat in seats}
                db.executemany("INSERT INTO links VALUES (?, ?, ?)",
                               [(self.link_digest(t), record.id, seat) for seat, t in tokens.items()])
                db.executemany("INSERT INTO moves VALUES (?, ?, ?)",
                               [(record.id, n, a) for n, a in enumerate(record.actions)])
        return tokens

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
            row = db.execute("SELECT game, seat FROM links WHERE digest = ?", (self.link_digest(token),)).fetchone()
        return (row[0], int(row[1])) if row else None

    def tokens(self, gid: str) -> dict[int, str]:
        """A game's tokens by seat (HOST, WATCH, then the seats): made again from the
        key, those whose HMAC the database holds for this game."""
        with self._lock:
            db = self._open(create=False)
            rows = db.execute("SELECT seat, digest FROM links WHERE game = ?", (gid,)).fetchall() if db else []
            out = {}
            for seat, digest in rows:
                token = self.link(gid, int(seat))
                if hmac.compare_digest(self.link_digest(token), digest):  # (not a migrated game's)
                    out[int(seat)] = token
        return out

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
