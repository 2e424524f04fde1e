"""House rules a reader relies on, checked so they stay true: the code, tests and docs
name no document outside the repository and no issue number; every public class of
catandsl says what it is; a test module borrows nothing private from another."""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TESTS = ROOT / "tests"

# Written in pieces so that this file does not match itself.
FORBIDDEN = re.compile(
    "|".join((
        r"RULES(_TB_VARIANTS)?" + r"\.md",
        "DESIGN" + r"\.md",
        "STYLE" + r"\.md",
        r"\b[Ii]ssue" + r" #?[0-9]+",
        r"\.\./" + "shared",
    ))
)
TEXT_SUFFIXES = {".py", ".md", ".catan", ".toml", ".json", ".txt", ".lark", ".js", ".html", ".css"}
SEARCHED = ("catandsl", "tests", "docs", "bench", "examples", "scenarios", "stdlib", "README.md")


def _in_venv(p: Path) -> bool:
    """Inside a virtual environment (`.venv`, or `bench/.venv-catanatron` that
    compare_catanatron.py makes): installed packages, not the repository's text."""
    return any(part.startswith(".venv") for part in p.parts)


def _text_files():
    for top in SEARCHED:
        base = ROOT / top
        paths = [base] if base.is_file() else sorted(base.rglob("*"))
        for p in paths:
            if p.is_file() and p.suffix in TEXT_SUFFIXES and not _in_venv(p):
                yield p


def _catandsl_modules():
    return sorted((ROOT / "catandsl").rglob("*.py"))


def _public_classes(tree: ast.Module):
    """Public classes at module level and public classes inside them."""
    todo = list(tree.body)
    while todo:
        node = todo.pop(0)
        if isinstance(node, ast.ClassDef) and not node.name.startswith("_"):
            yield node
            todo.extend(node.body)


def test_nothing_names_a_document_outside_the_repository_or_an_issue_number():
    found = []
    for p in _text_files():
        for n, line in enumerate(p.read_text(encoding="utf-8", errors="replace").splitlines(), 1):
            if FORBIDDEN.search(line):
                found.append(f"{p.relative_to(ROOT)}:{n}: {line.strip()}")
    assert not found, "say it here, or point at the repository's own docs:\n" + "\n".join(found)


def test_the_forbidden_references_are_found():
    for line in ("see RULES" ".md B.9", "(DESIGN" ".md section 6)", "fixed in issue" " 12", "issue" " #29",
                 "../" "shared/seed", "RULES_TB_VARIANTS" ".md"):
        assert FORBIDDEN.search(line), line
    for line in ("rule B.9", "docs/conformance.md", "an issue with the map", "../scenarios"):
        assert not FORBIDDEN.search(line), line


def test_every_public_class_of_catandsl_has_a_docstring():
    missing = []
    for p in _catandsl_modules():
        tree = ast.parse(p.read_text(encoding="utf-8"))
        missing += [f"{p.relative_to(ROOT)}:{c.lineno} {c.name}" for c in _public_classes(tree)
                    if ast.get_docstring(c) is None]
    assert not missing, "public classes without a docstring:\n" + "\n".join(missing)


def test_the_docstring_check_sees_a_class_without_one():
    tree = ast.parse('class A:\n    """A."""\n\n    class B:\n        pass\n\nclass _C:\n    pass\n')
    assert [c.name for c in _public_classes(tree) if ast.get_docstring(c) is None] == ["B"]


# ---- tests borrow from shared helper modules, never from each other --------------------------


def _test_modules():
    """Every module of the tests and the benches: test modules, their helpers, the benches
    that reuse the tests' checks."""
    return sorted(p for p in [*TESTS.rglob("*.py"), *(ROOT / "bench").rglob("*.py")] if not _in_venv(p))


def _module_name(p: Path, root: Path) -> str:
    return ".".join(p.relative_to(root).with_suffix("").parts)


def _borrowed(p: Path, root: Path = ROOT) -> list[str]:
    """What module `p` imports from another test module (`test_*`) or, from any module
    under tests/, by a private name."""
    tree = ast.parse(p.read_text(encoding="utf-8"))
    own = _module_name(p, root)
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module:
            module = node.module if node.level == 0 else _relative(p, root, node.module, node.level)
            if not module.startswith("tests.") or module == own:
                continue
            last = module.rsplit(".", 1)[-1]
            for alias in node.names:
                if last.startswith("test_") or alias.name.startswith("_"):
                    out.append(f"{p.relative_to(root)}:{node.lineno}: from {module} import {alias.name}")
                elif _is_test_module(root, module, alias.name):
                    out.append(f"{p.relative_to(root)}:{node.lineno}: from {module} import {alias.name}")
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.startswith("tests.") and alias.name.rsplit(".", 1)[-1].startswith("test_"):
                    out.append(f"{p.relative_to(root)}:{node.lineno}: import {alias.name}")
    return out


def _relative(p: Path, root: Path, module: str, level: int) -> str:
    package = _module_name(p, root).split(".")[:-level]
    return ".".join([*package, module])


def _is_test_module(root: Path, package: str, name: str) -> bool:
    """`from tests.engine import test_ships`: a test module imported whole."""
    return name.startswith("test_") and (root / Path(*package.split(".")) / f"{name}.py").exists()


def test_no_module_imports_from_a_test_module_or_a_private_name_of_the_tests():
    found = [b for p in _test_modules() for b in _borrowed(p)]
    assert not found, ("shared helpers live in tests/conftest.py or a helper module "
                       "(tests/engine/helpers.py, ...), under public names:\n" + "\n".join(found))


def test_the_import_check_sees_what_it_forbids(tmp_path):
    (tmp_path / "tests" / "engine").mkdir(parents=True)
    (tmp_path / "tests" / "engine" / "test_ships.py").write_text("")
    (tmp_path / "tests" / "engine" / "helpers.py").write_text("")
    p = tmp_path / "tests" / "engine" / "test_a.py"
    p.write_text("from tests.engine.test_rules import chain\n"
                 "from tests.engine.helpers import _blank, act\n"
                 "from tests.engine import test_ships as ships\n"
                 "from .test_rules import x\n"
                 "from tests.conftest import game_of\n"
                 "from catandsl.engine import _private\n")
    assert [b.split(": ", 1)[1] for b in _borrowed(p, tmp_path)] == [
        "from tests.engine.test_rules import chain",
        "from tests.engine.helpers import _blank",
        "from tests.engine import test_ships",
        "from tests.engine.test_rules import x",
    ]
