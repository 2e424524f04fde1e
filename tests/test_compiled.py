"""The optional compiled build (scripts/build_compiled.py) plays the recorded
playthroughs byte for byte as the pure package does. Building takes minutes, so the test
does not build: it checks the build in build/compiled/ when one of the current sources is
there (`python scripts/build_compiled.py` makes it), else runs the same check on the pure
package, so the check itself is always exercised. `python scripts/build_compiled.py
--check` runs it on the build by hand."""

import importlib.util
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
_spec = importlib.util.spec_from_file_location("build_compiled", ROOT / "scripts" / "build_compiled.py")
build_compiled = importlib.util.module_from_spec(_spec)
sys.modules[_spec.name] = build_compiled
_spec.loader.exec_module(build_compiled)


def test_playthroughs_are_identical_on_the_build_or_the_pure_package():
    compiled = build_compiled.is_current()
    where = build_compiled.OUT if compiled else ROOT
    status, text = build_compiled.check(where)
    first = text.splitlines()[0] if text else ""
    # the package came from where it was asked for: extensions in a build, sources else
    assert first.startswith(str(where / "catandsl")), text
    assert first.endswith(".py") != compiled, first
    assert status == 0, text


def test_every_module_of_the_engine_and_the_rules_is_compiled_or_says_why_not():
    modules = build_compiled.modules()
    assert "catandsl/engine/interpreter.py" in modules and "catandsl/rules/network.py" in modules
    pure = build_compiled.left_pure()
    assert not set(modules) & set(pure)
    for module in modules + list(pure):
        assert (ROOT / module).is_file(), module
    for package in ("engine", "rules"):
        for path in (ROOT / "catandsl" / package).glob("*.py"):
            rel = path.relative_to(ROOT).as_posix()
            assert rel in modules or pure.get(rel), rel


def test_a_build_of_other_sources_is_not_current(tmp_path):
    assert not build_compiled.is_current(tmp_path)
    (tmp_path / build_compiled.STAMP).write_text("0" * 64 + "\n")
    assert not build_compiled.is_current(tmp_path)
    (tmp_path / build_compiled.STAMP).write_text(build_compiled.digest() + "\n")
    assert build_compiled.is_current(tmp_path)
