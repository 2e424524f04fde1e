"""Changes on disk, for the author view's reload: one `watchfiles` watcher of the
folders the listing walks (library.py: no hidden folder, virtual environment or cache,
within its depth and count), and any number of listeners (the pages' event streams),
each told the `.catan` files that changed, as paths under the folder. A folder made
while the studio runs is walked again and watched too."""

from __future__ import annotations

import asyncio
import os
from collections.abc import Callable
from pathlib import Path

RETRY = 0.5  # seconds before walking again when a folder went away under the watcher


class Watcher:
    """Watches the served folder and tells each listener the `.catan` files that changed."""

    def __init__(self, root: Path, folders: Callable[[], list[Path]] | None = None):
        self.root = root
        self.folders = folders  # the folders to watch, each alone; None: the root and all under it
        self.listeners: set[asyncio.Queue] = set()
        self.stop = asyncio.Event()
        self.generation = 0

    async def run(self) -> None:
        from watchfiles import Change, awatch

        def wanted(change, path: str) -> bool:
            return path.endswith(".catan") or (change == Change.added and os.path.isdir(path))

        while not self.stop.is_set():
            # the walk reads the disk: off the event loop
            where = await asyncio.to_thread(self.folders) if self.folders is not None else [self.root]
            try:
                async for changes in awatch(*where, stop_event=self.stop, recursive=self.folders is None,
                                            watch_filter=wanted):
                    self._tell(changes)
                    if any(c == Change.added and not p.endswith(".catan") for c, p in changes):
                        break  # a new folder: walk again, and watch it too
                else:
                    return  # stopped
            except OSError:  # a folder went between the walk and the watch: walk again
                await asyncio.sleep(RETRY)

    def _tell(self, changes) -> None:
        changed = sorted({rel for _, p in changes if p.endswith(".catan") and (rel := self._relative(p)) is not None})
        if not changed:
            return
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
            except (ValueError, OSError, RuntimeError):
                return None

    def listen(self) -> asyncio.Queue:
        q: asyncio.Queue = asyncio.Queue()
        self.listeners.add(q)
        return q

    def forget(self, q: asyncio.Queue) -> None:
        self.listeners.discard(q)
