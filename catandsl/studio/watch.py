"""Changes on disk, for the author view's reload: one `watchfiles` watcher of the
served folder, and any number of listeners (the pages' event streams), each told the
`.catan` files that changed, as paths under the folder."""

from __future__ import annotations

import asyncio
from pathlib import Path


class Watcher:
    """Watches the served folder and tells each listener the `.catan` files that changed."""

    def __init__(self, root: Path):
        self.root = root
        self.listeners: set[asyncio.Queue] = set()
        self.stop = asyncio.Event()
        self.generation = 0

    async def run(self) -> None:
        from watchfiles import awatch

        async for changes in awatch(self.root, stop_event=self.stop, recursive=True,
                                    watch_filter=lambda _change, path: path.endswith(".catan")):
            changed = sorted({rel for _, p in changes if (rel := self._relative(p)) is not None})
            if not changed:
                continue
            self.generation += 1
            for q in list(self.listeners):
                if q.qsize() < 100:  # a listener that stopped reading is not fed for ever
                    q.put_nowait(changed)

    def _relative(self, path: str) -> str | None:
        p = Path(path)
        try:
            return p.relative_to(self.root).as_posix()
        except ValueError:
            try:
                return p.resolve().relative_to(self.root).as_posix()
            except (ValueError, OSError):
                return None

    def listen(self) -> asyncio.Queue:
        q: asyncio.Queue = asyncio.Queue()
        self.listeners.add(q)
        return q

    def forget(self, q: asyncio.Queue) -> None:
        self.listeners.discard(q)
