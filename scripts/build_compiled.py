"""Build the optional compiled catandsl: the engine's and the rules' modules compiled by
mypyc from the same sources, into build/compiled/ (never into the source tree, so the
pure-Python package stays what `pip install -e .` and the tests import).

    python scripts/build_compiled.py              # build (a few minutes on 2 cores)
    python scripts/build_compiled.py --list       # the modules it compiles, and those it leaves out
    python scripts/build_compiled.py --check      # replay the playthroughs on the build, byte for byte
    PYTHONPATH=build/compiled python ...          # run anything on the compiled build

build/compiled/ holds a copy of `catandsl/` with the compiled modules beside their
sources (Python imports the extension first) and links to `grammars/`, `stdlib/`,
`scenarios/` and `docs/`, which the package finds beside itself in a checkout. Needs mypy
with mypyc (`pip install 'mypy[mypyc]'`, in the test extras) and a C compiler.

`python bench/compare_catanatron.py --compiled` measures it. `--check` plays the recorded
playthroughs (tests/playthroughs/) on it and compares them byte for byte, as
`scripts/regenerate_playthroughs.py --check` does on the pure package;
`tests/test_compiled.py` runs that check on the build when one of the current sources is
present, else on the pure package (docs/scale.md).
"""

from __future__ import annotations

import argparse
import hashlib
import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "build" / "compiled"
PACKAGES = ("engine", "rules")
# The modules compiled: the expression interpreter, the pieces' network
# and routes, the queries and places the rules read, the primitives' registry, the
# actions' words, scoring and sites. Every other module of the engine
# and the rules stays pure (`--list` says why): mypyc cannot compile it as it is written.
COMPILED = (
    "catandsl/engine/interpreter.py",
    "catandsl/engine/queries.py",
    "catandsl/rules/network.py",
    "catandsl/rules/routes.py",
    "catandsl/rules/common.py",
    "catandsl/rules/places.py",
    "catandsl/rules/areas.py",
    "catandsl/rules/hubs.py",
    "catandsl/rules/islands.py",
    "catandsl/rules/counters.py",
    "catandsl/rules/standings.py",
    "catandsl/rules/registry.py",
    "catandsl/rules/words.py",
    "catandsl/rules/scoring.py",
    "catandsl/rules/sites.py",
)
# Why the rest stays pure (docs/scale.md, "A compiled build").
ACTIONS = ("defines actions or prompts: dataclasses with ClassVar constants (KIND, WRITES), which mypyc "
           "hands to @dataclass as fields, so a subclass's field without a default is refused")
EXCLUDED = {
    "catandsl/engine/state.py": "`clone`, `serialize` and the schema read the fields' shapes from the class's "
                                "annotations, which a compiled class does not keep",
    "catandsl/engine/state_schema.py": "reads State's annotations; not played",
    "catandsl/engine/observer.py": "reads State's annotations",
    "catandsl/engine/game.py": "`Game.reseeded` copies a game with copy.copy, which a compiled class refuses "
                               "(its __new__ runs __init__)",
    "catandsl/rules/errors.py": "the exceptions: players and callers subclass them, which a compiled class "
                                "forbids, and mypyc compiles no subclass of RuntimeError",
    "catandsl/rules/base.py": "Action and Prompt: " + ACTIONS.split(": ", 1)[1]
                              + "; and every module that subclasses them would have to be compiled too",
}


OUTSIDE = "not in the loop the bench plays (resampling, a saved state's checks, positions built by hand); not tried"
OTHERS = {
    "catandsl/engine/__init__.py": "re-exports only",
    "catandsl/engine/actions.py": "re-exports the action classes",
    "catandsl/engine/errors.py": "re-exports the errors",
    "catandsl/engine/infostate.py": OUTSIDE,
    "catandsl/engine/validate.py": OUTSIDE,
    "catandsl/engine/position.py": OUTSIDE,
    "catandsl/rules/__init__.py": "imports every rule module",
    "catandsl/rules/play.py": "the protocols the engine's Game and State subclass (pure classes), and the "
                              "records of a game's tables; not tried",
}


def _why(module: str) -> str:
    return EXCLUDED.get(module) or OTHERS.get(module) or ACTIONS


DATA = ("grammars", "stdlib", "scenarios", "docs")
STAMP = "SOURCES"  # the digest of the sources a build was made from


def digest() -> str:
    """A digest of every source file of the package (a build of other sources is stale)."""
    h = hashlib.sha256()
    for path in sorted((ROOT / "catandsl").rglob("*.py")):
        h.update(path.relative_to(ROOT).as_posix().encode() + b"\0" + path.read_bytes() + b"\0")
    return h.hexdigest()


def is_current(out: Path = OUT) -> bool:
    """Whether `out` holds a finished build of the sources as they are now."""
    stamp = out / STAMP
    return stamp.is_file() and stamp.read_text(encoding="utf-8").strip() == digest()


# Run in a fresh interpreter: the package imported from `where` first, so the playthrough
# script's own path to the checkout comes too late to replace it.
_CHECK = """
import runpy, sys
sys.path.insert(0, sys.argv[1])
import catandsl.engine.interpreter
print(catandsl.engine.interpreter.__file__, flush=True)
script = sys.argv[2]
sys.argv = [script, "--check"]
runpy.run_path(script, run_name="__main__")
"""


def check(where: Path) -> tuple[int, str]:
    """Replay the playthroughs with the package found in `where` (a build, or the checkout):
    the exit status of `regenerate_playthroughs.py --check` (0: byte-identical) and what it
    printed, the turn interpreter's module file first."""
    script = ROOT / "scripts" / "regenerate_playthroughs.py"
    result = subprocess.run([sys.executable, "-c", _CHECK, str(where), str(script)],
                            capture_output=True, text=True, cwd=ROOT)
    return result.returncode, result.stdout + result.stderr


def modules() -> list[str]:
    """The source files to compile, relative to the package's parent."""
    return list(COMPILED)


def left_pure() -> dict[str, str]:
    """The engine's and the rules' other modules, each with why it is not compiled."""
    out = {}
    for package in PACKAGES:
        for path in sorted((ROOT / "catandsl" / package).glob("*.py")):
            rel = path.relative_to(ROOT).as_posix()
            if rel not in COMPILED:
                out[rel] = _why(rel)
    return out


def is_compiled(module) -> bool:
    """Whether an imported module is an extension (the compiled build), not its source."""
    return not str(getattr(module, "__file__", "")).endswith(".py")


def build(out: Path) -> None:
    source_digest = digest()
    if out.exists():
        shutil.rmtree(out)
    out.mkdir(parents=True)
    shutil.copytree(ROOT / "catandsl", out / "catandsl",
                    ignore=shutil.ignore_patterns("__pycache__", "*.so", "*.pyd"))
    for name in DATA:
        (out / name).symlink_to(ROOT / name, target_is_directory=True)
    env = dict(os.environ, MYPYC_OPT_LEVEL=os.environ.get("MYPYC_OPT_LEVEL", "3"))
    # mypyc's own command line: it type-checks the program (following imports into the pure
    # modules), writes C beside the copy and builds the extensions in place
    command = [sys.executable, "-m", "mypyc", "--config-file", str(ROOT / "pyproject.toml"), *modules()]
    result = subprocess.run(command, cwd=out, env=env)
    if result.returncode != 0:
        raise SystemExit(f"mypyc failed (exit {result.returncode}); the sources in {out} are left as they were")
    shutil.rmtree(out / "build", ignore_errors=True)
    (out / STAMP).write_text(source_digest + "\n", encoding="utf-8")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", type=Path, default=OUT, help=f"where to build (default {OUT.relative_to(ROOT)})")
    ap.add_argument("--list", action="store_true", help="print the modules compiled and those left out")
    ap.add_argument("--check", action="store_true",
                    help="replay the playthroughs on the build (exit 1 if one differs)")
    args = ap.parse_args()
    if args.list:
        for m in modules():
            print(f"compiled  {m}")
        for m, why in left_pure().items():
            print(f"pure      {m}: {why}")
        return 0
    if args.check:
        out = args.out.resolve()
        if not is_current(out):
            print(f"{out} holds no build of the current sources: run this script first", file=sys.stderr)
            return 2
        status, text = check(out)
        print(text, end="")
        print("playthroughs identical" if status == 0 else "playthroughs DIFFER")
        return 0 if status == 0 else 1
    build(args.out.resolve())
    print(f"built {len(modules())} modules into {args.out}; run with PYTHONPATH={args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
