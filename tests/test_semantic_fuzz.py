"""Semantic fuzzing: hostile but well-formed scenarios keep the promise of `check`.

The generator (tests/fuzz_semantic.py) writes scenarios that parse and attack their
meaning: hostile numbers in every numeric slot, deep nesting, every primitive with every
kind of argument in every hook and condition, self-triggering rules, hundreds of
resources or pieces, maps of thousands of hexes, odd imports, `without` of what is still
used, escape sequences in strings. For every case:

- `catandsl.checks.check_path` returns located diagnostics or a scenario, and never
  raises, hangs (HANG_SECONDS, a bound that only catches hangs) or allocates more than
  MEMORY_HEADROOM bytes of address space;
- a scenario that compiles plays with uniformly random legal actions (two games, the
  fewest and the most players, up to ACTIONS actions each) raising nothing but
  `EngineError` or `IllegalAction`, and keeps the game's invariants after every action
  (see `fuzz_semantic.check_invariants`).

The cases are fixed by their seeds (`generate(family, seed)`), and the amount of work by
their counts, never by the clock. Each test below runs one chunk of one family in this
process and reports every failure it met, grouped by class (exception type and innermost
catandsl/ frame, or hang, memory, invariant) with a command that reproduces one case. A
chunk stops at its first hang or memory failure, which costs up to HANG_SECONDS each.
Files that may block inside the C library (a FIFO, a device) run in subprocesses, in
parallel, in the last test.

Cost: the counts (COUNTS: 942 cases at the default depth, plus the six odd files; a
deeper run, CATANDSL_TEST_DEPTH=K, draws K times as many, the default's first).
"""

from __future__ import annotations

import concurrent.futures
from collections import defaultdict
from pathlib import Path

import pytest

from tests.budget import count
from tests.fuzz_semantic import ISOLATED_IMPORTS, Case, Outcome, describe, generate, run_case, run_isolated

HANG_SECONDS = 60.0  # CPU seconds: catches a hang, never a slow or busy machine
MEMORY_HEADROOM = 1 << 30  # address space a case may add to the test process
ACTIONS = 400  # random actions per game
CHUNK = 250

# cases per family (the seeds are 0..N-1), at the default depth (tests/budget.py)
COUNTS = {family: count(n) for family, n in {
    "numbers": 200,
    "primitives": 250,
    "mixed": 150,
    "selftrigger": 100,
    "without": 60,
    "strings": 40,
    "shipped": 40,
    "nesting": 40,
    "imports": 50,
    "many": 12,
}.items()}
CHUNKS = [(family, start, min(start + CHUNK, n)) for family, n in COUNTS.items() for start in range(0, n, CHUNK)]


def report(failures: list[tuple[Case, Outcome]], ran: int, stopped: str = "") -> str:
    by_class: dict[str, list[tuple[Case, Outcome]]] = defaultdict(list)
    for case, o in failures:
        by_class[o.failure].append((case, o))
    lines = [f"{len(failures)} of {ran} cases broke the promise, in {len(by_class)} classes{stopped}:"]
    for cls, items in sorted(by_class.items(), key=lambda kv: -len(kv[1])):
        lines.append(f"\n== {cls}: {len(items)} case(s); the first:")
        case, o = items[0]
        lines.append(describe(case, o))
    return "\n".join(lines)


@pytest.mark.parametrize("family, start, stop", CHUNKS, ids=[f"{f}-{a}-{b}" for f, a, b in CHUNKS])
def test_hostile_scenarios_keep_the_promise(tmp_path: Path, family: str, start: int, stop: int):
    failures: list[tuple[Case, Outcome]] = []
    stopped = ""
    ran = 0
    for seed in range(start, stop):
        case = generate(family, seed)
        assert not case.isolate  # those run in subprocesses, below
        outcome = run_case(case, tmp_path / f"{seed}", seconds=HANG_SECONDS, memory=MEMORY_HEADROOM, budget=ACTIONS)
        ran += 1
        if outcome.kind == "failure":
            failures.append((case, outcome))
            if outcome.failure.startswith(("hang", "memory")):
                stopped = f"; stopped after a {outcome.failure.split('@')[0]} with {stop - seed - 1} cases not run"
                break
    if failures:
        pytest.fail(report(failures, ran, stopped), pytrace=False)


def test_odd_files_keep_the_promise(tmp_path: Path):
    """A FIFO, a character device and a symlink to /dev/zero, imported and checked
    directly: each in its own process (a blocked `open` or an endless read cannot be
    interrupted from inside), all at once, each bound by HANG_SECONDS."""
    cases = [generate("odd_files", seed) for seed in range(len(ISOLATED_IMPORTS))]
    assert all(c.isolate for c in cases)
    with concurrent.futures.ThreadPoolExecutor(len(cases)) as pool:
        outcomes = list(pool.map(lambda c: run_isolated(c, tmp_path / str(c.seed), seconds=HANG_SECONDS,
                                                        memory=MEMORY_HEADROOM, budget=ACTIONS), cases))
    failures = [(c, o) for c, o in zip(cases, outcomes) if o.kind == "failure"]
    if failures:
        pytest.fail(report(failures, len(cases)), pytrace=False)
