"""Dependencies point one way: syntax -> compiler -> ir <- board <- rules <- engine <- players,
with rules (the primitive registry and its implementations, and the protocols through
which they see a game: rules/play.py) read by the compiler (to check) and the engine (to
run). The front door (catandsl/__init__.py, checks.py), the CLI, simulate, lint, the
pictures, the adapters (catandsl.adapters, extra `rl`) and the web studio
(catandsl.studio, extra `studio`) sit above them all, and nothing below them loads what
they need. Every import counts, those under `if TYPE_CHECKING:` too: a type named from
above ties the layers as surely as a call does. No modules import each other in a
circle."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "catandsl"

# what each part may import at run time (besides itself)
ALLOWED = {
    "syntax": {"diagnostics", "resources", "cache"},
    "compiler": {"syntax", "ir", "rules", "board", "diagnostics", "resources"},
    "ir": set(),
    "board": {"ir", "diagnostics"},
    "rules": {"ir", "board"},
    "engine": {"ir", "board", "rules"},
    "players": {"engine", "rules", "board"},
    "render": {"board", "ir", "engine", "rules"},
    # the adapters (extra `rl`) sit above the engine; the front door ("") loads scenarios
    "adapters": {"", "engine", "players", "rules", "ir", "resources"},
    "diagnostics": set(),
    "resources": set(),
    "cache": set(),
    # lint reads compiled scenarios and dealt maps; the front door (checks) gives it
    # `check`'s diagnostics, simulate the games of `balance --simulate`, render its colours
    "lint": {"board", "ir", "diagnostics", "compiler", "checks", "resources", "simulate", "render"},
    # the language server runs what `check` runs, and on save what `lint` finds; nothing below imports it
    "lsp": {"syntax", "compiler", "checks", "ir", "rules", "diagnostics", "resources", "lint"},
    # the web studio (`catandsl serve`, extra `studio`) sits on top of everything; nothing imports it
    # (rules: `rules.words`, the one place that words an action, labels its buttons)
    "studio": {"", "board", "checks", "compiler", "diagnostics", "engine", "ir", "lint", "players",
               "protocol", "render", "resources", "rules"},
}


def _part(module: str) -> str | None:
    parts = module.split(".")
    return parts[1] if parts[0] == "catandsl" and len(parts) > 1 else ("" if parts == ["catandsl"] else None)


def _imports(path: Path) -> list[tuple[int, str]]:
    """Every module a file imports, at run time, lazily inside a function, or for the
    type checker alone."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out += [(node.lineno, a.name) for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module == "catandsl" and node.level == 0:
            out += [(node.lineno, f"catandsl.{a.name}") for a in node.names]  # from catandsl import resources
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            out.append((node.lineno, node.module))
    return out


def _files():
    for path in sorted(PACKAGE.rglob("*.py")):
        rel = path.relative_to(PACKAGE)
        part = rel.parts[0].removesuffix(".py")
        if part in ALLOWED:
            yield part, path


@pytest.mark.parametrize("part, path", list(_files()), ids=lambda x: str(x).split("catandsl/")[-1])
def test_imports_point_one_way(part, path):
    for line, module in _imports(path):
        other = _part(module)
        if other is None or other == part:
            continue
        assert other in ALLOWED[part], f"{path.relative_to(ROOT)}:{line} imports {module}"


def _module(path: Path) -> str:
    rel = path.relative_to(ROOT).with_suffix("")
    parts = rel.parts[:-1] if rel.name == "__init__" else rel.parts
    return ".".join(parts)


def test_no_modules_import_each_other_in_a_circle():
    """The modules of catandsl, each an arrow to what it imports (a name taken from a
    package is an arrow to that package's module of the name, when it is one), hold no
    circle: a strongly connected part of more than one module."""
    modules = {_module(p): p for p in PACKAGE.rglob("*.py")}
    arrows: dict[str, set[str]] = {m: set() for m in modules}
    for m, path in modules.items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                arrows[m].update(a.name for a in node.names if a.name in modules)
            elif isinstance(node, ast.ImportFrom) and node.module in modules and node.level == 0:
                for a in node.names:
                    arrows[m].add(f"{node.module}.{a.name}" if f"{node.module}.{a.name}" in modules
                                  else node.module)
    arrows = {m: {t for t in ts if t != m} for m, ts in arrows.items()}
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    circles = []

    def visit(m: str) -> None:  # Tarjan's strongly connected components
        index[m] = low[m] = len(index)
        stack.append(m)
        for t in sorted(arrows[m]):
            if t not in index:
                visit(t)
                low[m] = min(low[m], low[t])
            elif t in stack:
                low[m] = min(low[m], index[t])
        if low[m] == index[m]:
            part = []
            while True:
                t = stack.pop()
                part.append(t)
                if t == m:
                    break
            if len(part) > 1:
                circles.append(sorted(part))

    for m in sorted(modules):
        if m not in index:
            visit(m)
    assert circles == [], circles


def test_the_compiler_loads_no_engine_and_the_engine_no_front_door():
    code = ("import sys, catandsl.compiler, catandsl.rules; "
            "assert not [m for m in sys.modules if m.startswith('catandsl.engine')], 'engine loaded'; "
            "import catandsl.engine; "
            "assert 'catandsl.checks' not in sys.modules and 'catandsl.compiler' in sys.modules")
    p = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True)
    assert p.returncode == 0, p.stderr


def test_the_core_loads_none_of_the_rl_extras():
    """Everything but catandsl.adapters runs without gymnasium, pettingzoo, numpy or pyspiel:
    those load only when an adapter is imported."""
    code = ("import sys, catandsl, catandsl.engine, catandsl.players, catandsl.simulate; "
            "catandsl.Position, catandsl.queries, catandsl.Observer; "
            "import catandsl.engine.observer, catandsl.adapters; "
            "bad = [m for m in ('gymnasium', 'pettingzoo', 'numpy', 'pyspiel') if m in sys.modules]; "
            "assert not bad, bad")
    p = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True)
    assert p.returncode == 0, p.stderr


def test_the_core_and_the_formatter_need_no_lsp_extra():
    """pygls is an extra: parsing, compiling and formatting never load it, and only
    catandsl/lsp/server.py imports it."""
    code = ("import sys, catandsl, catandsl.compiler, catandsl.syntax.fmt, catandsl.checks, catandsl.cli.app; "
            "assert not [m for m in sys.modules if m.split('.')[0] in ('pygls', 'lsprotocol')], 'pygls loaded'; "
            "assert 'catandsl.lsp.server' not in sys.modules")
    p = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    users = sorted(path.relative_to(ROOT).as_posix() for path in PACKAGE.rglob("*.py")
                   if any(m.split(".")[0] in ("pygls", "lsprotocol") for _, m in _imports(path)))
    assert users == ["catandsl/lsp/server.py"]


def test_the_core_and_the_cli_need_no_studio_extra():
    """Starlette, uvicorn and watchfiles are the studio's extra: the core and the CLI (its
    commands registered, `serve` among them) never load them, and only catandsl/studio/
    imports them."""
    code = ("import sys, catandsl, catandsl.engine, catandsl.players, catandsl.cli.app; "
            "bad = [m for m in sys.modules if m.split('.')[0] in ('starlette', 'uvicorn', 'watchfiles')]; "
            "assert not bad, bad; assert not [m for m in sys.modules if m.startswith('catandsl.studio')]")
    p = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    web = ("starlette", "uvicorn", "watchfiles")
    users = sorted(path.relative_to(ROOT).as_posix() for path in PACKAGE.rglob("*.py")
                   if any(m.split(".")[0] in web for _, m in _imports(path)))
    assert users and all(u.startswith("catandsl/studio/") for u in users), users
    importers = sorted(path.relative_to(ROOT).as_posix() for path in PACKAGE.rglob("*.py")
                       if not path.relative_to(PACKAGE).as_posix().startswith("studio/")
                       and any(m.startswith("catandsl.studio") for _, m in _imports(path)))
    assert importers == ["catandsl/cli/studio.py"], importers
