"""A watchdog for tests that must not hang: `with no_hang(60, "compiling"): ...` raises
`Hang` where the code stands once the limit passes (SIGALRM, main thread, POSIX).

The limit only catches a hang (an unbounded loop, a pathological regex), never a slow
machine: the tests bound their work by counts, and nothing asserts how long finished work
took. Speed targets live in bench/."""

from __future__ import annotations

import signal
from collections.abc import Iterator
from contextlib import contextmanager


class Hang(BaseException):
    """Raised by the watchdog; a BaseException, so no `except Exception` in the code
    under test swallows it."""


@contextmanager
def no_hang(seconds: float, what: str = "the work") -> Iterator[None]:
    def on_alarm(signum, frame):
        raise Hang(f"{what} ran past {seconds:.0f} s: a hang")

    old = signal.signal(signal.SIGALRM, on_alarm)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)
