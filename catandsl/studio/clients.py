"""Who asks, and how much one client may hold or ask at once, so that no client can
starve or evict the others.

A client is a browser: the studio gives each page it serves a random token in a cookie
(`catandsl_client`), sent back with every call the page makes. A request without a
valid token belongs to its address (`address:HOST`). The token is no password: games are
still reached by their unguessable ids; it only keeps one client's share from another's.

- `Gate`: a client's API requests worked on at once (`RUNNING`); up to `WAITING` more
  wait their turn; past that, `request/busy` (429).
- `Holdings`: games and replays kept for clients, at most so many per client (its least
  recently used goes first when it makes more) and so many in all (then the least
  recently used of the client holding the most goes), so a client making games makes
  the studio forget its own, never another's.
- `current_client`: the client of the request a thread is working for (the compile
  workers take turns by it); `BACKGROUND` for work no request waits for.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import re
import secrets
import threading
from collections import Counter, OrderedDict
from collections.abc import AsyncIterator, Callable
from typing import Generic, TypeVar

from catandsl.studio.errors import StudioError

COOKIE = "catandsl_client"
RUNNING = 2  # a client's API requests worked on at once (a page makes one or two at a time)
WAITING = 8  # a client's requests waiting beyond those
_TOKEN = re.compile(r"[A-Za-z0-9_-]{16,64}")

BACKGROUND = "studio:background"  # the client of work no request waits for (the listing's compiles)

current_client: contextvars.ContextVar[str] = contextvars.ContextVar("current_client", default="")


def client_of(cookies: dict[str, str], address: str | None) -> str:
    """A request's client: its cookie's token, or its address."""
    token = cookies.get(COOKIE, "")
    if _TOKEN.fullmatch(token):
        return f"cookie:{token}"
    return f"address:{address or 'unknown'}"


def new_token() -> str:
    return secrets.token_urlsafe(16)


def cookie_header(token: str) -> str:
    return f"{COOKIE}={token}; Path=/; HttpOnly; SameSite=Strict"


class _Slot:
    __slots__ = ("turns", "present")

    def __init__(self, running: int):
        self.turns = asyncio.Semaphore(running)
        self.present = 0  # requests running or waiting


class Gate:
    """Each client's API requests: `running` at once, `waiting` more in line."""

    def __init__(self, running: int = RUNNING, waiting: int = WAITING):
        self.running, self.waiting = running, waiting
        self._slots: dict[str, _Slot] = {}

    @contextlib.asynccontextmanager
    async def admit(self, client: str) -> AsyncIterator[None]:
        slot = self._slots.get(client)
        if slot is None:
            slot = self._slots[client] = _Slot(self.running)
        if slot.present >= self.running + self.waiting:
            raise StudioError("request/busy", f"at most {self.running + self.waiting} requests of one client at "
                              "once: wait for the answers")
        slot.present += 1
        try:
            async with slot.turns:
                yield
        finally:
            slot.present -= 1
            if not slot.present:
                del self._slots[client]


T = TypeVar("T")


class Holdings(Generic[T]):
    """Things kept for clients under unguessable ids: at most `per_client` of one
    client's and `total` in all (see the module's doc for which goes first)."""

    def __init__(self, total: int, per_client: int, unknown: tuple[str, str]):
        self.total, self.per_client, self.unknown = total, per_client, unknown  # unknown: the error's code, message
        self._items: OrderedDict[str, tuple[str, T]] = OrderedDict()  # id -> (owner, item), least recent first
        self._lock = threading.Lock()

    def add(self, make: Callable[[str], T]) -> T:
        """`make(id)` under a fresh id, kept for the current client."""
        owner = current_client.get()
        key = secrets.token_urlsafe(12)
        item = make(key)
        with self._lock:
            self._items[key] = (owner, item)
            mine = [k for k, (o, _) in self._items.items() if o == owner]
            for k in mine[:max(0, len(mine) - self.per_client)]:
                del self._items[k]
            while len(self._items) > self.total:
                held = Counter(o for o, _ in self._items.values())
                most = max(held.values())
                del self._items[next(k for k, (o, _) in self._items.items() if held[o] == most)]
        return item

    def get(self, key: object) -> T:
        with self._lock:
            found = self._items.get(key) if isinstance(key, str) else None
            if found is None:
                raise StudioError(*self.unknown)
            self._items.move_to_end(key)  # type: ignore[arg-type]
            return found[1]

    def __len__(self) -> int:
        return len(self._items)
