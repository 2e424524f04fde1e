"""Semantic fuzz soak: many hostile scenarios (tests/fuzz_semantic.py) in worker processes.

    python bench/fuzz_soak.py [--cases 20000] [--seed 1] [--workers 2] [--timeout 60]
                              [--memory-mib 1024] [--actions 1000] [--minutes M]
                              [--out out/fuzz] [--shrink]

Each case runs in a worker process (multiprocessing, spawn) whose address space is
limited to --memory-mib (RLIMIT_AS) and whose watchdog raises where the code stands
after --timeout seconds; a worker blocked inside C past twice that is killed and
replaced. A worker that met a hang or ran out of memory is replaced too.

Prints the cases tried per family; the outcomes (clean, diagnostics by code, typed
engine errors by kind); and every failure of the promise grouped by class (exception
type and innermost catandsl/ frame, hang, memory, invariant), with one reproducer each,
the smallest of its class, written under --out/<class>/ (main.catan, the other files,
case.json with the special files and the outcome, traceback.txt). With --shrink, each
reproducer is first reduced line by line (blocks, then lines) while it still fails the
same way. Exits 1 if anything failed.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing as mp
import os
import re
import shutil
import sys
import tempfile
import time
from collections import Counter, defaultdict
from multiprocessing.connection import wait
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


# ---- the worker -------------------------------------------------------------------------------


def worker_main(conn, memory: int, timeout: float, actions: int, root: str) -> None:
    import resource

    sys.path.insert(0, root)
    os.chdir(root)  # diagnostics name files relative to the working directory
    from tests.fuzz_semantic import Case, generate, materialize, run_guarded

    resource.setrlimit(resource.RLIMIT_AS, (memory, resource.getrlimit(resource.RLIMIT_AS)[1]))
    tmp = Path(tempfile.mkdtemp(prefix="fuzz-soak-"))
    try:
        while True:
            try:
                task = conn.recv()
            except EOFError:
                return
            if task is None:
                return
            tid, spec, seconds = task
            case = generate(*spec) if isinstance(spec, tuple) else Case.from_json(spec)
            folder = tmp / str(tid)
            started = time.perf_counter()
            try:
                path = materialize(case, folder)
                outcome = run_guarded(path, case.seed, seconds=seconds or timeout, memory=None, budget=actions)
                result = outcome.to_json()
            except BaseException as e:  # noqa: BLE001 - materializing failed: report, go on
                result = {"kind": "failure", "failure": f"harness:{type(e).__name__}", "detail": str(e)[:300]}
            result["seconds"] = time.perf_counter() - started
            shutil.rmtree(folder, ignore_errors=True)
            conn.send((tid, result))
            if result.get("failure", "").startswith(("hang", "memory")):
                return  # a fresh process for the next case
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


class Pool:
    """Workers that each run one case at a time; stuck ones are killed and replaced."""

    def __init__(self, n: int, memory: int, timeout: float, actions: int):
        self.ctx = mp.get_context("spawn")
        self.args = (memory, timeout, actions, str(ROOT))
        self.timeout = timeout
        self.workers: list[dict] = [self._spawn() for _ in range(n)]

    def _spawn(self) -> dict:
        parent, child = self.ctx.Pipe()
        proc = self.ctx.Process(target=worker_main, args=(child, *self.args), daemon=True)
        proc.start()
        child.close()
        return {"proc": proc, "conn": parent, "task": None, "started": 0.0, "limit": 0.0}

    def idle(self) -> list[dict]:
        return [w for w in self.workers if w["task"] is None]

    def submit(self, w: dict, tid, spec, seconds: float | None = None) -> None:
        w["task"] = (tid, spec)
        w["started"] = time.monotonic()
        w["limit"] = 2 * (seconds or self.timeout) + 15
        w["conn"].send((tid, spec, seconds))

    def _replace(self, w: dict) -> None:
        try:
            w["conn"].close()
        except OSError:
            pass
        if w["proc"].is_alive():
            w["proc"].kill()  # a worker this pool started
        w["proc"].join(5)
        w.update(self._spawn())

    def collect(self, wait_s: float = 0.5) -> list[tuple[object, dict]]:
        """Results that arrived (or failures for workers that died or got stuck)."""
        out = []
        busy = [w for w in self.workers if w["task"] is not None]
        ready = wait([w["conn"] for w in busy], timeout=wait_s) if busy else []
        for w in busy:
            if w["conn"] in ready:
                try:
                    tid, result = w["conn"].recv()
                except (EOFError, OSError):
                    code = w["proc"].exitcode
                    w["proc"].join(1)
                    code = w["proc"].exitcode if code is None else code
                    out.append((w["task"][0], {"kind": "failure", "failure": f"crash@worker (exit {code})",
                                               "detail": "the worker process died (killed by the kernel?)"}))
                    w["task"] = None
                    self._replace(w)
                    continue
                w["task"] = None
                out.append((tid, result))
                if result.get("failure", "").startswith(("hang", "memory")):
                    w["proc"].join(10)
                    self._replace(w)
            elif time.monotonic() - w["started"] > w["limit"]:
                out.append((w["task"][0], {"kind": "failure", "failure": "hang@unknown (killed: blocked inside C)",
                                           "detail": f"no answer after {w['limit']:.0f} s"}))
                w["task"] = None
                self._replace(w)
        return out

    def close(self) -> None:
        for w in self.workers:
            try:
                w["conn"].send(None)
            except OSError:
                pass
        for w in self.workers:
            w["proc"].join(5)
            if w["proc"].is_alive():
                w["proc"].kill()

    def run_one(self, spec, seconds: float) -> dict:
        """Run one case synchronously (shrinking), on the first idle worker."""
        while not self.idle():
            self.collect()
        w = self.idle()[0]
        self.submit(w, "one", spec, seconds)
        while True:
            for tid, result in self.collect():
                if tid == "one":
                    return result


# ---- shrinking ------------------------------------------------------------------------------


def same_failure(key: str, result: dict) -> bool:
    got = result.get("failure", "")
    if key.startswith(("hang", "memory")):
        return got.split("@")[0] == key.split("@")[0]
    return got == key


def shrink(pool: Pool, case: dict, key: str, seconds: float, trials: int = 400) -> tuple[dict, int]:
    """Remove blocks, then single lines, of main.catan while the case fails the same way."""
    from tests.fuzz_semantic import Case

    main = Case.from_json(case).main
    text = case["files"].get(main, case["files"].get("main.catan"))
    if text is None:
        return case, 0
    fname = main if main in case["files"] else "main.catan"
    lines = text.split("\n")
    used = 0

    def fails(candidate: list[str]) -> bool:
        nonlocal used
        used += 1
        c = dict(case, files={**case["files"], fname: "\n".join(candidate)})
        return same_failure(key, pool.run_one(c, seconds))

    changed = True
    while changed and used < trials:
        changed = False
        # blocks: a line that opens braces, to the line that closes them
        i = 0
        while i < len(lines) and used < trials:
            depth = lines[i].count("{") - lines[i].count("}")
            if depth > 0:
                j, d = i, depth
                while d > 0 and j + 1 < len(lines):
                    j += 1
                    d += lines[j].count("{") - lines[j].count("}")
                if d == 0 and fails(lines[:i] + lines[j + 1:]):
                    lines = lines[:i] + lines[j + 1:]
                    changed = True
                    continue
            i += 1
        i = 0
        while i < len(lines) and used < trials:
            if lines[i].strip() and fails(lines[:i] + lines[i + 1:]):
                lines = lines[:i] + lines[i + 1:]
                changed = True
                continue
            i += 1
    return dict(case, files={**case["files"], fname: "\n".join(lines)}), used


# ---- the run --------------------------------------------------------------------------------


def slug(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.-]+", "_", text).strip("_")[:120]


def write_reproducer(out: Path, key: str, case: dict, result: dict) -> Path:
    from tests.fuzz_semantic import Case

    folder = out / slug(key)
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    for rel, text in case["files"].items():
        p = folder / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_bytes(text.encode("utf-8", "surrogateescape"))
    c = Case.from_json(case)
    meta = {"class": key, "case": case | {"files": sorted(case["files"])}, "specials": c.specials,
            "note": "special files (FIFOs, devices, symlinks) are listed, not created: "
                    "`python -m tests.fuzz_semantic --family F --seed S --write DIR` makes them",
            "outcome": {k: v for k, v in result.items() if k != "trace"}}
    (folder / "case.json").write_text(json.dumps(meta, indent=2, ensure_ascii=True) + "\n")
    (folder / "traceback.txt").write_text(result.get("trace", "") or result.get("detail", ""))
    return folder


def main() -> int:
    from tests.fuzz_semantic import generate, pick_family

    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--cases", type=int, default=20_000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--timeout", type=float, default=60.0,
                    help="seconds before a case counts as hung (a 10,000-hex map takes 20-40 s)")
    ap.add_argument("--memory-mib", type=int, default=1024, help="address space of a worker")
    ap.add_argument("--actions", type=int, default=1000, help="random actions per game")
    ap.add_argument("--minutes", type=float, default=0, help="stop starting cases after this long")
    ap.add_argument("--out", default=str(ROOT / "out" / "fuzz"))
    ap.add_argument("--shrink", action="store_true", help="reduce each reproducer line by line")
    ap.add_argument("--shrink-timeout", type=float, default=5.0)
    args = ap.parse_args()

    pool = Pool(args.workers, args.memory_mib << 20, args.timeout, args.actions)
    started = time.monotonic()
    tried: Counter = Counter()
    outcomes: Counter = Counter()
    codes: Counter = Counter()
    typed: Counter = Counter()
    typed_example: dict[str, str] = {}
    failures: dict[str, list[tuple[int, str, int]]] = defaultdict(list)  # class -> (i, family, seed)
    best: dict[str, tuple[int, dict, dict]] = {}  # class -> (size, case json, result)
    specs: dict[int, tuple[str, int]] = {}
    slowest: list[tuple[float, str]] = []
    seconds: Counter = Counter()  # per family, over the cases that kept the promise
    passed: Counter = Counter()
    next_case = 0
    done = 0
    last_progress = 0

    def handle(tid: int, result: dict) -> None:
        nonlocal done
        done += 1
        family, seed = specs.pop(tid)
        kind = result.get("kind", "failure")
        outcomes[kind] += 1
        slowest.append((result.get("seconds", 0.0), f"{family}:{seed}"))
        if kind != "failure":
            seconds[family] += result.get("seconds", 0.0)
            passed[family] += 1
        if kind == "diagnostics":
            codes.update(result.get("codes", []))
        elif kind == "typed":
            t = result.get("typed", "")
            k = t.split(":")[0]
            typed[k] += 1
            typed_example.setdefault(k, f"{family}:{seed} {t[:160]}")
        elif kind == "failure":
            cls = result.get("failure", "?")
            failures[cls].append((tid, family, seed))
            case = generate(family, seed).to_json()
            size = sum(len(t) for t in case["files"].values())
            if cls not in best or size < best[cls][0]:
                best[cls] = (size, case, result)

    try:
        while True:
            out_of_time = args.minutes and time.monotonic() - started > args.minutes * 60
            for w in pool.idle():
                if next_case >= args.cases or out_of_time:
                    break
                seed = args.seed * 10_000_000 + next_case
                family = pick_family(next_case, args.seed)
                specs[next_case] = (family, seed)
                tried[family] += 1
                pool.submit(w, next_case, (family, seed))
                next_case += 1
            for tid, result in pool.collect():
                if tid != "one":
                    handle(tid, result)
            if not specs and (next_case >= args.cases or out_of_time):
                break
            if done >= last_progress + 1000:
                last_progress = done
                print(f"  {done} cases, {sum(len(v) for v in failures.values())} failures in {len(failures)} "
                      f"classes, {time.monotonic() - started:.0f} s", file=sys.stderr, flush=True)
        elapsed = time.monotonic() - started
        out = Path(args.out)
        out.mkdir(parents=True, exist_ok=True)
        print(f"\n{done} cases in {elapsed:.0f} s ({args.workers} workers, timeout {args.timeout:.0f} s, "
              f"{args.memory_mib} MiB, {args.actions} actions a game, seed {args.seed})")
        print("per family: " + ", ".join(f"{f} {n}" for f, n in tried.most_common()))
        print("outcomes:   " + ", ".join(f"{k} {n}" for k, n in outcomes.most_common()))
        print("diagnostics by code: " + ", ".join(f"{c} {n}" for c, n in sorted(codes.items())))
        print("typed engine errors: " + (", ".join(f"{k} {n}" for k, n in typed.most_common()) or "none"))
        for k, ex in typed_example.items():
            print(f"  {k}: e.g. {ex}")
        print("slowest: " + ", ".join(f"{k} {s:.1f}s" for s, k in sorted(slowest, reverse=True)[:5]))
        print("mean seconds a case that kept the promise: " + ", ".join(
            f"{f} {seconds[f] / passed[f]:.3f}" for f in sorted(passed)))
        print(f"\nfailures: {sum(len(v) for v in failures.values())} in {len(failures)} classes")
        summary = {}
        for cls, items in sorted(failures.items(), key=lambda kv: -len(kv[1])):
            size, case, result = best[cls]
            shrunk_note = ""
            if args.shrink:
                case, used = shrink(pool, case, cls, args.shrink_timeout)
                shrunk_note = f", shrunk in {used} runs"
            folder = write_reproducer(out, cls, case, result)
            fams = Counter(f for _, f, _ in items)
            print(f"\n== {cls}: {len(items)} case(s) ({', '.join(f'{f} {n}' for f, n in fams.most_common())})")
            print(f"   smallest: {case['family']}:{case['seed']} {'; '.join(case['desc'])}{shrunk_note}")
            print(f"   reproducer: {folder.relative_to(ROOT) if folder.is_relative_to(ROOT) else folder}/")
            detail = (result.get("detail") or "").strip().splitlines()
            if detail:
                print(f"   {detail[0][:200]}")
            trace = (result.get("trace") or "").strip().splitlines()
            for line in trace[-4:]:
                print(f"   | {line[:200]}")
            summary[cls] = {"count": len(items), "families": dict(fams), "reproducer": str(folder),
                            "case": f"{case['family']}:{case['seed']}", "desc": case["desc"],
                            "detail": result.get("detail", "")[:500]}
        (out / "summary.json").write_text(json.dumps({
            "cases": done, "seconds": elapsed, "outcomes": dict(outcomes), "codes": dict(codes),
            "typed": dict(typed), "failures": summary}, indent=2) + "\n")
        print(f"\nsummary: {out / 'summary.json'}")
        return 1 if failures else 0
    finally:
        pool.close()


if __name__ == "__main__":
    sys.exit(main())
