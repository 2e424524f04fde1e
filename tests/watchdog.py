"""A watchdog for tests that must not hang: `with no_hang(60, "compiling"): ...` raises
`Hang` where the code stands once the process has spent that much CPU time on it
(SIGPROF, main thread, POSIX).

The limit only catches a hang (an unbounded loop, a pathological regex), never a slow
machine: it counts the CPU seconds this process spends (ITIMER_PROF), not the seconds on
the clock, so a machine shared with other work (a CI runner, two test suites at once)
cannot trip it. The tests bound their work by counts, and nothing asserts how long
finished work took. Speed targets live in bench/."""

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
        raise Hang(f"{what} ran past {seconds:.0f} s of CPU time: a hang")

    old = signal.signal(signal.SIGPROF, on_alarm)
    signal.setitimer(signal.ITIMER_PROF, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)
        signal.signal(signal.SIGPROF, old)
