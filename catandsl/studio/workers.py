"""Compiling away from the server: each compile or lint of a file runs in one of a few
worker processes (`python -m catandsl.studio.workers`), bounded in CPU time, so that a
file that costs too much ends in a typed answer and no request waits behind another
client's compiles.

- A worker runs one job at a time, named in `JOBS` (nothing else can be asked of it),
  in the folder whose files it compiles, so the paths in its diagnostics are relative
  to that folder. Messages are pickles, between the server and its own children only.
- A job stops at `CPU_SECONDS` of the worker's CPU time (`TooCostly`); a worker that
  gives no answer within `WALL_SECONDS` (a loop the CPU timer cannot interrupt) is
  killed and replaced. Workers run at a lower priority (`NICE`) than the server, so
  compiling never slows the answers to other requests.
- A client runs one job at a time. A free worker takes the waiting job of the client
  served longest ago (clients never served first, then in order of arrival), a
  request's before the background's. So one client compiling a folder of costly files
  holds one worker, and everyone else's jobs go before its next one.

The client of a job is `clients.current_client`, set for each request.
"""

from __future__ import annotations

import os
import pickle
import select
import signal
import subprocess
import sys
import threading
import traceback
from collections import OrderedDict, deque
from pathlib import Path
from typing import IO, Any

from catandsl.studio.clients import BACKGROUND, current_client

CPU_SECONDS = 30.0  # one compile or lint of one file: the shipped scenarios need well under one
WALL_SECONDS = 600.0  # only a worker stuck where its CPU timer cannot stop it gets near this
WORKERS = max(1, min(2, os.cpu_count() or 1))
PER_CLIENT = 1  # jobs of one client running at once
NICE = 10  # workers' scheduling priority below the server's


class TooCostly(Exception):
    """A job stopped at its bound on CPU time."""


class WorkerFailed(RuntimeError):
    """A job raised (a bug in catandsl: the worker's traceback is the message), or its
    worker died."""


# ---- the jobs (run in a worker) --------------------------------------------------------------


def _files_read(sources) -> list[Path]:
    """The files a compile read, as absolute paths (for the cache's stamps)."""
    return [Path(name).resolve() for name in sources.texts if Path(name).exists()]


def compile_job(path: str, root: str):
    """`compile_path`'s (scenario, diagnostics, sources), and the files it read (`root`,
    the served folder, is the lint job's)."""
    from catandsl.compiler import compile_path

    scenario, diags, sources = compile_path(path)
    return (scenario, diags, sources), _files_read(sources)


def lint_job(path: str, root: str):
    """`catandsl lint`'s result with the lint settings of the folder's pyproject.toml
    (the defaults when it is broken, as the language server does), and the files read."""
    from catandsl.lint import ConfigError, find_pyproject, lint_path, load_config

    try:
        config = load_config(find_pyproject(Path(root)))
    except ConfigError:
        config = None
    result = lint_path(path, config)
    return result, _files_read(result.sources)


JOBS = {"compile": compile_job, "lint": lint_job}


# ---- a worker's side ---------------------------------------------------------------------------


def _write(out: IO[bytes], value: Any) -> None:
    data = pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)
    out.write(len(data).to_bytes(8, "big") + data)
    out.flush()


def _read(inp: IO[bytes]) -> Any:
    head = inp.read(8)
    if len(head) < 8:
        raise EOFError
    size = int.from_bytes(head, "big")
    data = inp.read(size)
    if len(data) < size:
        raise EOFError
    return pickle.loads(data)


class _Stop(BaseException):
    """The CPU timer's alarm inside a job (a BaseException: no `except Exception` in
    the compiler swallows it)."""


def _serve() -> None:
    """A worker: jobs in on stdin, answers out on what was stdout (stdout itself goes to
    stderr, so nothing a job prints can break the channel), until stdin ends."""
    inp = sys.stdin.buffer
    out = os.fdopen(os.dup(1), "wb")
    os.dup2(2, 1)
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the server's Ctrl+C is the server's to handle
    if hasattr(os, "nice"):
        os.nice(NICE)  # the server answering requests goes before compiles for the CPU

    armed = False  # inside a job: an alarm handled later (it can be) stops nothing

    def alarm(signum, frame):
        if armed:
            raise _Stop

    signal.signal(signal.SIGPROF, alarm)
    while True:
        try:
            name, cwd, args, cpu = _read(inp)
        except EOFError:
            return
        try:
            os.chdir(cwd)
            armed = True
            signal.setitimer(signal.ITIMER_PROF, cpu)
            try:
                answer: tuple[str, Any] = ("ok", JOBS[name](*args))
            finally:
                signal.setitimer(signal.ITIMER_PROF, 0)
                armed = False
        except _Stop:
            answer = ("too_costly", None)
        except Exception:  # noqa: BLE001 - the traceback goes back to the server's log
            answer = ("error", traceback.format_exc())
        try:
            _write(out, answer)
        except BrokenPipeError:  # the server stopped while the job ran: nobody is left to answer
            return
        except Exception:  # noqa: BLE001 - an answer that does not pickle
            _write(out, ("error", traceback.format_exc()))


# ---- the server's side ---------------------------------------------------------------------------


class _Worker:
    def __init__(self) -> None:
        import catandsl

        # the same catandsl as the server's, wherever it was imported from
        here = str(Path(catandsl.__file__).resolve().parents[1])
        env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [here, os.environ.get("PYTHONPATH")]))}
        self.process = subprocess.Popen([sys.executable, "-m", "catandsl.studio.workers"], stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE, env=env, close_fds=True)

    def run(self, name: str, cwd: str, args: tuple) -> Any:
        stdin, stdout = self.process.stdin, self.process.stdout
        assert stdin is not None and stdout is not None
        try:
            _write(stdin, (name, cwd, args, CPU_SECONDS))
            ready, _, _ = select.select([stdout], [], [], WALL_SECONDS)
            if not ready:
                self.kill()
                raise TooCostly
            status, value = _read(stdout)
        except (EOFError, OSError, pickle.UnpicklingError):
            self.kill()
            raise WorkerFailed(f"a compile worker died (exit status {self.process.poll()})") from None
        if status == "too_costly":
            raise TooCostly
        if status == "error":
            raise WorkerFailed(value)
        return value

    @property
    def alive(self) -> bool:
        return self.process.poll() is None

    def kill(self) -> None:
        if self.alive:
            self.process.kill()
        self.process.wait()
        for pipe in (self.process.stdin, self.process.stdout):
            if pipe is not None:
                pipe.close()


class Pool:
    """The worker processes, started when first needed, and the jobs waiting for one."""

    def __init__(self, size: int = WORKERS):
        self.size = size
        self._idle: list[_Worker] = []
        self._started = 0  # workers alive or being started
        self._waiting: deque[tuple[str, object]] = deque()  # (client, ticket), in order of arrival
        self._running: dict[str, int] = {}
        self._served: OrderedDict[str, int] = OrderedDict()  # client -> when its last job started
        self._cond = threading.Condition()
        self.jobs = 0  # jobs started: when a client was last served, and what the tests count

    def run(self, name: str, cwd: Path, *args: Any) -> Any:
        """JOBS[name](*args) in a worker whose working folder is `cwd`; TooCostly past
        the bounds, WorkerFailed when the job raised."""
        client = current_client.get()
        ticket = (client, object())
        with self._cond:
            self._waiting.append(ticket)
            while not self._turn(ticket):
                self._cond.wait()
            self._waiting.remove(ticket)
            self._running[client] = self._running.get(client, 0) + 1
            worker = self._idle.pop() if self._idle else None
            if worker is None:
                self._started += 1
            self.jobs += 1
            self._served[client] = self.jobs
            self._served.move_to_end(client)
            if len(self._served) > 1024:  # the clients served longest ago forget it: they go first anyway
                self._served.popitem(last=False)
        try:
            if worker is None:
                worker = _Worker()
            return worker.run(name, str(cwd), args)
        finally:
            with self._cond:
                self._running[client] -= 1
                if not self._running[client]:
                    del self._running[client]
                if worker is not None and worker.alive:
                    self._idle.append(worker)
                else:
                    self._started -= 1
                self._cond.notify_all()

    def _turn(self, ticket: tuple[str, object]) -> bool:
        """Whether `ticket` goes now: a worker is free (or may be started), and among the
        waiting jobs of clients with no job running (a request's before the background's),
        its client was served longest ago."""
        if not self._idle and self._started >= self.size:
            return False
        ready = [t for t in self._waiting if self._running.get(t[0], 0) < PER_CLIENT]
        urgent = [t for t in ready if t[0] != BACKGROUND] or ready
        return bool(urgent) and min(urgent, key=lambda t: self._served.get(t[0], 0)) is ticket

    def close(self) -> None:
        with self._cond:
            idle, self._idle = self._idle, []
            self._started -= len(idle)
        for worker in idle:
            worker.kill()


_pool: Pool | None = None
_pool_lock = threading.Lock()


def pool() -> Pool:
    """The process's one pool (every studio in the process shares its workers)."""
    global _pool
    with _pool_lock:
        if _pool is None:
            _pool = Pool()
        return _pool


if __name__ == "__main__":
    _serve()
