"""How much random play and fuzzing the suite does: one knob for all of it.

The whole suite must run on a 2-core CI machine in well under 15 minutes, so every test
that plays random games or draws generated cases takes its count from `count`:

    count(50)  # 50 at the default depth, 50 * K with CATANDSL_TEST_DEPTH=K

The default depth (1) is what `.ci/run` runs. A soak before a release, or after a change
to the engine's core, runs deeper: `CATANDSL_TEST_DEPTH=4 python -m pytest -q tests/engine`
plays four times the games (the counts of earlier releases), and `bench/soak.py` plays a
thousand per scenario. The cases stay fixed by their seeds (0..n-1), so a deeper run
replays the default run's cases first: what fails at depth 1 fails at every depth.
"""

from __future__ import annotations

import os


def depth() -> int:
    """CATANDSL_TEST_DEPTH as a whole number of at least 1 (a bad value is a usage error
    of the test run, said plainly rather than ignored)."""
    text = os.environ.get("CATANDSL_TEST_DEPTH", "1").strip()
    if not text.isdigit() or int(text) < 1:
        raise SystemExit(f"CATANDSL_TEST_DEPTH must be a whole number of at least 1, not {text!r}")
    return int(text)


def count(n: int) -> int:
    """n cases at the default depth, n times the depth otherwise."""
    return n * depth()
