"""A fast start, checked by what a command loads rather than by a clock: `--version`
loads no stage, `check` neither networkx nor pydantic, and `list` reads its summary from
a cache keyed by the content of everything it is made from."""

import json
import os
import shutil
import subprocess
import sys

import pytest

from catandsl import catalog, resources
from tests.conftest import ROOT


def loaded_after(args: list[str], env_cache) -> tuple[str, set[str]]:
    """What `catandsl ARGS` printed, and the top modules (and catandsl's) it loaded."""
    code = ("import json, sys; from catandsl.cli import main; code = main(json.loads(sys.argv[1])); "
            "sys.stdout.flush(); print('\\0' + json.dumps(sorted(sys.modules)), end=''); sys.exit(code)")
    env = {**os.environ, "XDG_CACHE_HOME": str(env_cache)}
    p = subprocess.run([sys.executable, "-c", code, json.dumps(args)], cwd=ROOT, capture_output=True, text=True,
                       env=env)
    assert p.returncode == 0, p.stderr
    out, _, modules = p.stdout.rpartition("\0")
    return out, set(json.loads(modules))


def test_version_loads_no_stage_of_the_language(tmp_path):
    out, modules = loaded_after(["--version"], tmp_path)
    assert out.startswith("catandsl ")
    assert not {m for m in modules if m.split(".")[0] in ("lark", "networkx", "pydantic", "rich", "jsonschema")}
    assert not {m for m in modules if m.startswith(("catandsl.syntax", "catandsl.compiler", "catandsl.engine"))}


def test_check_loads_neither_networkx_nor_pydantic(tmp_path):
    out, modules = loaded_after(["check", "base"], tmp_path)
    assert out.startswith("ok base")
    assert "catandsl.engine" in modules  # the trial game played
    assert not {m for m in modules if m.split(".")[0] in ("networkx", "pydantic")}


def test_list_compiles_once_then_reads_the_cached_summary(tmp_path):
    first, compiled = loaded_after(["list", "--format", "json"], tmp_path)
    again, cached = loaded_after(["list", "--format", "json"], tmp_path)
    assert "catandsl.compiler" in compiled and "catandsl.compiler" not in cached
    assert again == first and json.loads(first)
    assert len(list((tmp_path / "catandsl").glob("list-*.json"))) == 1


@pytest.fixture
def copied(tmp_path, monkeypatch):
    """The shipped scenarios and the standard library copied where a test may edit
    them, with the cache in the test's own folder."""
    scenarios, stdlib = tmp_path / "scenarios", tmp_path / "stdlib"
    shutil.copytree(resources.scenarios_dir(), scenarios)
    shutil.copytree(resources.stdlib_dir(), stdlib)
    monkeypatch.setattr(resources, "scenarios_dir", lambda: scenarios)
    monkeypatch.setattr(resources, "stdlib_dir", lambda: stdlib)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    return scenarios, stdlib


def entry(entries, name: str) -> dict:
    return next(e for e in entries if e["name"] == name)


def test_an_edited_scenario_is_compiled_afresh(copied):
    scenarios, _ = copied
    assert entry(catalog.shipped_entries(), "base")["title"] == "Catan"
    base = scenarios / "base.catan"
    base.write_text(base.read_text(encoding="utf-8").replace('"Catan"', '"Catan, edited"', 1), encoding="utf-8")
    assert entry(catalog.shipped_entries(), "base")["title"] == "Catan, edited"


def test_an_edited_library_file_is_compiled_afresh(copied):
    _, stdlib = copied
    assert "errors" not in entry(catalog.shipped_entries(), "base")
    (stdlib / "base.catan").write_text("this is not a ruleset\n", encoding="utf-8")
    assert entry(catalog.shipped_entries(), "base")["errors"]


def test_a_damaged_cache_file_is_compiled_afresh(copied):
    expected = catalog.shipped_entries()
    (cached,) = (copied[0].parent / "xdg" / "catandsl").glob("list-*.json")
    cached.write_text('{"not": "a list"}', encoding="utf-8")
    assert catalog.shipped_entries() == expected
    cached.write_text("[{", encoding="utf-8")
    assert catalog.shipped_entries() == expected


def test_the_cache_keeps_the_newest_files_of_a_kind(tmp_path, monkeypatch):
    from catandsl import cache

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    fd = cache.open_directory()
    assert fd is not None
    try:
        for k in range(5):
            cache.write(fd, f"list-{k}.json", b"[]")
            os.utime(f"list-{k}.json", ns=(k, k), dir_fd=fd)
        cache.write(fd, "parser-0.pickle", b"")
        cache.prune(fd, "list-", keep=3)
        assert sorted(os.listdir(fd)) == ["list-2.json", "list-3.json", "list-4.json", "parser-0.pickle"]
        assert cache.read(fd, "list-4.json") == b"[]"
    finally:
        os.close(fd)


def test_check_of_an_unchanged_clean_file_answers_from_its_note(tmp_path):
    """A clean check is noted; the same file checked again loads no compiler and says
    the same; an edited import runs the check in full."""
    folder = tmp_path / "s"
    folder.mkdir()
    main = folder / "main.catan"
    shutil.copy(ROOT / "scenarios" / "base.catan", main)
    main.write_text(main.read_text(encoding="utf-8") + 'import "extra.catan"\n', encoding="utf-8")
    (folder / "extra.catan").write_text("ruleset extra {\n}\n", encoding="utf-8")
    first, compiled = loaded_after(["check", str(main)], tmp_path)
    again, noted = loaded_after(["check", str(main)], tmp_path)
    assert "catandsl.compiler" in compiled and "catandsl.compiler" not in noted
    assert again == first and first.startswith("ok ")
    (folder / "extra.catan").write_text("ruleset extra {\n  # edited\n}\n", encoding="utf-8")
    _, edited = loaded_after(["check", str(main)], tmp_path)
    assert "catandsl.compiler" in edited
    _, noted = loaded_after(["check", str(main)], tmp_path)
    assert "catandsl.compiler" not in noted


def test_commands_take_an_unchanged_checked_file_from_its_note(tmp_path):
    """`compile`, `simulate` (and every command that starts from a checked file) compile
    and check it once; again, unchanged, its scenario comes from the note, with neither
    the parser nor the compiler loaded, and the output is the same. An edited import is
    compiled again."""
    folder = tmp_path / "s"
    folder.mkdir()
    main = folder / "main.catan"
    shutil.copy(ROOT / "scenarios" / "base.catan", main)
    main.write_text(main.read_text(encoding="utf-8") + 'import "extra.catan"\n', encoding="utf-8")
    (folder / "extra.catan").write_text("ruleset extra {\n}\n", encoding="utf-8")
    games = ["simulate", str(main), "--games", "3", "--seed", "5", "--format", "json",
             "--out", str(tmp_path / "games.jsonl"), "--actions"]
    first, compiled = loaded_after(games, tmp_path)
    played = (tmp_path / "games.jsonl").read_text(encoding="utf-8")
    again, noted = loaded_after(games, tmp_path)
    assert "catandsl.compiler" in compiled
    assert not {m for m in noted if m.split(".")[0] == "lark" or m.startswith("catandsl.compiler")}
    assert json.loads(again)["games"] == json.loads(first)["games"] == 3
    assert (tmp_path / "games.jsonl").read_text(encoding="utf-8") == played  # the same games, action for action
    ir_first, _ = loaded_after(["compile", str(main)], tmp_path)
    (tmp_path / "xdg-fresh").mkdir()
    ir_fresh, fresh = loaded_after(["compile", str(main)], tmp_path / "xdg-fresh")
    assert "catandsl.compiler" in fresh and ir_first == ir_fresh
    (folder / "extra.catan").write_text("ruleset extra {\n  # edited\n}\n", encoding="utf-8")
    _, edited = loaded_after(["compile", str(main)], tmp_path)
    assert "catandsl.compiler" in edited


def test_a_file_with_a_warning_is_compiled_every_time_and_warns_every_time(tmp_path):
    """Only a clean check is noted: a diagnostic is printed by every command, as the
    first time."""
    main = tmp_path / "main.catan"
    text = (ROOT / "scenarios" / "base.catan").read_text(encoding="utf-8")
    main.write_text(text.replace("uses base", "uses base\n  build nothing_here", 1), encoding="utf-8")
    code = ("import sys; from catandsl.cli import main; code = main(sys.argv[1:]); "
            "print('compiler' if 'catandsl.compiler' in sys.modules else 'noted', file=sys.stderr); sys.exit(code)")
    env = {**os.environ, "XDG_CACHE_HOME": str(tmp_path / "xdg")}
    runs = [subprocess.run([sys.executable, "-c", code, "compile", str(main)], cwd=ROOT, capture_output=True,
                           text=True, env=env) for _ in range(2)]
    assert runs[0].stderr == runs[1].stderr and "compiler" in runs[1].stderr
    assert runs[0].returncode == runs[1].returncode == 1
    assert not list((tmp_path / "xdg" / "catandsl").glob("check-*.json"))


def test_check_leaves_the_scenario_to_the_first_command_that_plays(tmp_path):
    """`check` notes its verdict alone (a check of a file being edited writes no more);
    the first command that starts from the file compiles it once more and notes the
    scenario, which the next one takes."""
    main = tmp_path / "main.catan"
    shutil.copy(ROOT / "scenarios" / "base.catan", main)
    loaded_after(["check", str(main)], tmp_path)
    (note,) = (tmp_path / "catandsl").glob("check-*.json")
    assert "scenario" not in json.loads(note.read_text(encoding="utf-8"))
    first, compiled = loaded_after(["compile", str(main)], tmp_path)
    again, noted = loaded_after(["compile", str(main)], tmp_path)
    assert "catandsl.compiler" in compiled and "catandsl.compiler" not in noted and again == first
    _, checked = loaded_after(["check", str(main)], tmp_path)
    assert "catandsl.compiler" not in checked
