"""Time to parse, check and compile each file in stdlib/ and scenarios/ (warm).

    python bench/compile_speed.py [--repeat N]

The parser is built once (Lark's cache); each figure is the median of N runs of the
whole pipeline for that file: read, parse, resolve `uses`/`import`, lower, check names
and rules, and instantiate the board for every player count and option (which is how
`check` validates a map). Target: under 50 ms for scenarios/base.catan.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from catandsl.compiler import compile_path  # noqa: E402
from catandsl.syntax.parser import _parser, parse  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=20)
    args = ap.parse_args()
    t0 = time.perf_counter()
    _parser()
    print(f"parser build (cached): {(time.perf_counter() - t0) * 1000:.1f} ms")
    files = sorted((ROOT / "stdlib").glob("*.catan")) + sorted((ROOT / "scenarios").rglob("*.catan"))
    print(f"{'file':45} {'parse ms':>9} {'all stages ms':>14}")
    for f in files:
        text = f.read_text()
        compile_path(f)  # warm
        parse_times, total_times = [], []
        for _ in range(args.repeat):
            t = time.perf_counter()
            parse(text, str(f))
            parse_times.append(time.perf_counter() - t)
            t = time.perf_counter()
            scenario, diags, _ = compile_path(f)
            total_times.append(time.perf_counter() - t)
            # E0701: the file is fine, the engine cannot run it yet (its trial game stops)
            assert scenario is not None or {d.code for d in diags} == {"E0701"}, diags
        note = "" if scenario is not None else "  (E0701: the engine cannot run it yet)"
        print(f"{str(f.relative_to(ROOT)):45} {statistics.median(parse_times) * 1000:9.2f} "
              f"{statistics.median(total_times) * 1000:14.2f}{note}")


if __name__ == "__main__":
    main()
