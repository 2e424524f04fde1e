"""Build the optional compiled catandsl: the engine's and the rules' modules compiled by
mypyc from the same sources, into build/compiled/ (never into the source tree, so the
pure-Python package stays what `pip install -e .` and the tests import).

    python scripts/build_compiled.py              # build (a few minutes on 2 cores)
    python scripts/build_compiled.py --list       # the modules it compiles, and those it leaves out
    python scripts/build_compiled.py --check      # replay the playthroughs on the build, byte for byte
    python scripts/build_compiled.py --pytest -q tests/engine tests/rules   # the tests, on the build
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
import ast
import hashlib
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Callable
from functools import partial
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "build" / "compiled"
PACKAGES = ("engine", "rules")
# The modules compiled as they are, their classes native (mypyc's own classes, with
# fields in a C struct): the expression interpreter, the pieces' network and routes, the
# queries and places the rules read, the primitives' registry, the actions' words,
# scoring and sites.
NATIVE = (
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
# Every other module of the engine and the rules is compiled with its classes left Python
# classes (`as_python_classes`): its functions and methods are compiled, its classes stay
# what the pure package has (the actions' and prompts' dataclasses with their `ClassVar`
# constants, the state read through its annotations, the errors players subclass).
# Modules left pure, each with why.
EXCLUDED = {
    # mypyc compiles the modules as one program and checks the `self` of a compiled
    # Python class's method against the subclasses it compiled: a subclass made in
    # Python is refused when it calls one
    "catandsl/rules/errors.py": "the errors, which players subclass in Python (`players.NoLegalAction`): "
                                "a compiled method of theirs would refuse the subclass",
    # mypyc checks what it reads from a field against the field's declared type
    "catandsl/engine/validate.py": "reads a saved state's JSON lists into the state's fields before it turns "
                                   "them into the records the fields are declared as (`moved`), which a "
                                   "compiled read refuses; not in a game's loop",
}


def _why(module: str) -> str:
    return EXCLUDED[module]


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


# pytest on the build: the package imported from the build before pytest starts, so that
# tests/conftest.py, which puts the checkout first on the path, finds it imported already
# (its modules not yet imported come from the package's own directory, the build's)
_PYTEST = """
import sys
sys.path.insert(0, sys.argv[1])
import catandsl.engine, catandsl.rules
import catandsl.engine.flow
assert not catandsl.engine.flow.__file__.endswith(".py"), catandsl.engine.flow.__file__
print("catandsl from", catandsl.engine.flow.__file__, flush=True)
import pytest
sys.exit(pytest.main(sys.argv[2:]))
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
    out = []
    for package in PACKAGES:
        for path in sorted((ROOT / "catandsl" / package).glob("*.py")):
            rel = path.relative_to(ROOT).as_posix()
            if rel not in EXCLUDED:
                out.append(rel)
    return out


def left_pure() -> dict[str, str]:
    """The engine's and the rules' other modules, each with why it is not compiled."""
    out = {}
    for package in PACKAGES:
        for path in sorted((ROOT / "catandsl" / package).glob("*.py")):
            rel = path.relative_to(ROOT).as_posix()
            if rel in EXCLUDED:
                out[rel] = _why(rel)
    return out


def is_compiled(module) -> bool:
    """Whether an imported module is an extension (the compiled build), not its source."""
    return not str(getattr(module, "__file__", "")).endswith(".py")


def as_python_classes(source: str) -> str:
    """The source with every class compiled as a Python class whose annotations are the
    pure module's: each class marked `@mypyc_attr(native_class=False)`, and given its
    annotations as written (`as_written`) before any other decorator runs.

    mypyc puts a compiled class's annotations into its `__annotations__` as the classes
    they name, dropping `ClassVar` (a dataclass then takes `KIND` for a field) and the
    type's arguments (`list[int]` becomes `list`, `int | None` becomes `type`, which
    `Prompt.check` and the state's shapes read), and it annotates a plain class
    attribute (`__slots__`) too; the pure module, under `from __future__ import
    annotations`, has each annotation as the string it is written as. The mark and the
    decorator change nothing mypy reads, and a Python class keeps what the rules rely on:
    subclasses in Python (the players' errors), `copy.copy`, the class-level constants."""
    tree = ast.parse(source)
    lines = source.splitlines(keepends=True)
    # each edit: (line, col) where it starts, 1-based lines, and what it does to `lines`;
    # made from the last up, so that an edit moves no position an earlier one names
    edits: list[tuple[int, int, Callable[[list[str]], None]]] = []
    classes = [node for node in tree.body if isinstance(node, ast.ClassDef)
               # (a named tuple mypyc makes with typing's own call, as Python does)
               and not any(ast.unparse(b) == "NamedTuple" for b in node.bases)]
    for node in classes:
        first = min([d.lineno for d in node.decorator_list] + [node.lineno])
        indent = lines[first - 1][: len(lines[first - 1]) - len(lines[first - 1].lstrip())]
        # (at the class's line too when it has no decorator: above `as_written`)
        edits.append((first, -2, partial(_insert, first, f"{indent}@mypyc_attr(native_class=False)\n")))
        # annotations as `from __future__ import annotations` writes them: ast.unparse
        written = {stmt.target.id: ast.unparse(stmt.annotation) for stmt in node.body
                   if isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name)}
        edits.append((node.lineno, -1, partial(_insert, node.lineno, f"{indent}@as_written({written!r})\n")))
        for stmt in node.body:
            if isinstance(stmt, ast.AnnAssign):
                # quoted for mypyc too: it would otherwise load the class an annotation
                # names when the class is made, before a class defined further down exists
                a = stmt.annotation
                assert a.end_lineno is not None and a.end_col_offset is not None
                if not (isinstance(a, ast.Constant) and isinstance(a.value, str)):
                    edits.append((a.lineno, a.col_offset,
                                  partial(_replace, a.lineno, a.col_offset, a.end_lineno, a.end_col_offset,
                                          repr(ast.unparse(a)))))
            elif (isinstance(stmt, ast.If) and not stmt.orelse and ast.unparse(stmt.test) == "not TYPE_CHECKING"):
                # mypyc takes no `if` in a class body: what runs (the empty slots of the
                # protocols the engine's state keeps its fields under) is written
                # unconditionally, as a call, so that mypy does not take the slots for
                # the subclasses' too
                assert stmt.end_lineno is not None
                body = "".join(lines[stmt.lineno:stmt.end_lineno]).strip()
                assert body == "__slots__ = ()", body
                edits.append((stmt.lineno, stmt.col_offset,
                              partial(_replace_lines, stmt.lineno, stmt.end_lineno, "__slots__ = tuple()")))
    for _, _, edit in sorted(edits, key=lambda e: (e[0], e[1]), reverse=True):
        edit(lines)
    text = "".join(lines)
    if classes:
        text = _after_future(text, "from mypy_extensions import mypyc_attr\n"
                                   f"from catandsl.{AS_WRITTEN} import as_written\n")
    return text


# The module (in the build only) of the decorator that gives a class its annotations.
AS_WRITTEN = "_as_written"
AS_WRITTEN_SOURCE = '''"""In the compiled build only (scripts/build_compiled.py): a class's annotations as
its source writes them."""

from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")


def as_written(annotations: dict[str, str]) -> Callable[[T], T]:
    def give(cls: T) -> T:
        cls.__annotations__ = annotations
        return cls
    return give
'''


def _insert(line: int, text: str, lines: list[str]) -> None:
    lines.insert(line - 1, text)


def _replace(line: int, col: int, end_line: int, end_col: int, text: str, lines: list[str]) -> None:
    lines[line - 1:end_line] = [lines[line - 1][:col] + text + lines[end_line - 1][end_col:]]


def _replace_lines(line: int, end_line: int, text: str, lines: list[str]) -> None:
    """Lines line..end_line replaced by one line of `text`, indented as the first was."""
    first = lines[line - 1]
    lines[line - 1:end_line] = [first[: len(first) - len(first.lstrip())] + text + "\n"]


def _after_future(text: str, line: str) -> str:
    """`line` inserted after the module's `from __future__` import (or first)."""
    m = re.search(r"^from __future__ import [^\n]*\n", text, re.M)
    at = m.end() if m else 0
    return text[:at] + line + text[at:]


def build(out: Path) -> None:
    source_digest = digest()
    if out.exists():
        shutil.rmtree(out)
    out.mkdir(parents=True)
    shutil.copytree(ROOT / "catandsl", out / "catandsl",
                    ignore=shutil.ignore_patterns("__pycache__", "*.so", "*.pyd"))
    (out / "catandsl" / f"{AS_WRITTEN}.py").write_text(AS_WRITTEN_SOURCE, encoding="utf-8")
    for module in modules():
        if module not in NATIVE:
            path = out / module
            path.write_text(as_python_classes(path.read_text(encoding="utf-8")), encoding="utf-8")
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
    ap.add_argument("--pytest", nargs=argparse.REMAINDER, metavar="ARGS",
                    help="run pytest with ARGS (the rest of the command line) on the build")
    args = ap.parse_args()
    if args.list:
        for m in modules():
            print(f"compiled  {m}" + ("" if m in NATIVE else "  (its classes Python classes)"))
        for m, why in left_pure().items():
            print(f"pure      {m}: {why}")
        return 0
    if args.check or args.pytest is not None:
        out = args.out.resolve()
        if not is_current(out):
            print(f"{out} holds no build of the current sources: run this script first", file=sys.stderr)
            return 2
        if args.pytest is not None:
            return subprocess.run([sys.executable, "-c", _PYTEST, str(out), *args.pytest], cwd=ROOT).returncode
        status, text = check(out)
        print(text, end="")
        print("playthroughs identical" if status == 0 else "playthroughs DIFFER")
        return 0 if status == 0 else 1
    build(args.out.resolve())
    print(f"built {len(modules())} modules into {args.out}; run with PYTHONPATH={args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
