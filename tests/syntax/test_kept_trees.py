"""Kept parse trees (catandsl/syntax/kept.py): a tree read back from the cache is the
tree the parser makes, a compile gives the same scenario and the same diagnostics with
trees kept or not, and an edited text, a syntax error or a damaged file is parsed afresh.
Counted by whether the parser ran, never by a clock."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from catandsl import compiler, ir, resources
from catandsl.compiler import compile_path
from catandsl.syntax import kept, parser
from catandsl.syntax.parser import parse
from tests.conftest import ROOT

FILES = sorted((ROOT / "stdlib").glob("*.catan")) + sorted((ROOT / "scenarios").rglob("*.catan"))


@pytest.fixture
def parses(tmp_path, monkeypatch):
    """The cache in the test's own folder; the list of the files the parser really read."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    seen: list[str] = []
    real = parser.parse

    def counted(text, filename="<input>"):
        seen.append(filename)
        return real(text, filename)

    monkeypatch.setattr(parser, "parse", counted)  # (kept.parse imports it when it needs it)
    monkeypatch.setattr(compiler, "parse", counted)
    return seen


def kept_files(tmp_path: Path) -> list[Path]:
    return sorted((tmp_path / "xdg" / "catandsl").glob(f"{kept.PREFIX}*.json"))


@pytest.mark.parametrize("path", FILES, ids=lambda p: str(p.relative_to(ROOT)))
def test_a_tree_decodes_to_the_tree_the_parser_made(path):
    name = str(path.relative_to(ROOT))
    tree = parse(path.read_text(encoding="utf-8"), name)
    data = json.loads(json.dumps(kept.encode(tree, name)))
    assert kept.decode(data, name) == tree
    assert kept.decode(data, "elsewhere.catan") != tree  # the spans take the file's name


def test_the_standard_rulesets_are_parsed_once(parses, tmp_path):
    path = resources.find_scenario("base")
    first, diags, _ = compile_path(path)
    assert first is not None and not diags
    assert len(parses) == 3 and len(kept_files(tmp_path)) == 2  # base.catan and the two it uses; those two kept
    parses.clear()
    again, diags, _ = compile_path(path)
    assert [Path(p).name for p in parses] == ["base.catan"] and "stdlib" not in parses[0] and not diags
    assert ir.to_json(again) == ir.to_json(first)


def test_an_edited_file_is_parsed_afresh_and_the_rest_read_back(parses, tmp_path):
    main = tmp_path / "main.catan"
    shutil.copy(ROOT / "scenarios" / "base.catan", main)
    compile_path(main)
    main.write_text(main.read_text(encoding="utf-8").replace('"Catan"', '"Catan, edited"', 1), encoding="utf-8")
    parses.clear()
    scenario, diags, _ = compile_path(main)
    assert [Path(p).name for p in parses] == ["main.catan"]
    assert scenario is not None and scenario.title == "Catan, edited" and not diags


def test_same_diagnostics_with_trees_kept_or_not(parses, tmp_path, monkeypatch):
    """A compile error's diagnostics (codes, places, messages) are the same from a kept
    tree as from a fresh parse, and without any cache at all."""
    main = tmp_path / "main.catan"
    text = (ROOT / "scenarios" / "base.catan").read_text(encoding="utf-8")
    main.write_text(text.replace("uses base", "uses base\n  build nothing_here", 1), encoding="utf-8")
    _, fresh, _ = compile_path(main)
    assert fresh and parses
    parses.clear()
    _, again, _ = compile_path(main)
    assert [Path(p).name for p in parses] == ["main.catan"] and again == fresh
    monkeypatch.setattr(kept.cache, "open_directory", lambda: None)  # no cache: parse everything
    parses.clear()
    _, uncached, _ = compile_path(main)
    assert uncached == fresh and len(parses) == 3


def test_a_syntax_error_is_never_kept(parses, tmp_path):
    (tmp_path / "broken.catan").write_text("ruleset broken {\n  players 3..\n}\n", encoding="utf-8")
    main = tmp_path / "main.catan"
    main.write_text((ROOT / "scenarios" / "base.catan").read_text(encoding="utf-8") + 'import "broken.catan"\n',
                    encoding="utf-8")
    _, first, _ = compile_path(main)
    _, again, _ = compile_path(main)
    assert first and again == first and {d.code for d in first} == {"E0101"}
    assert [Path(p).name for p in parses].count("broken.catan") == 2
    assert len(kept_files(tmp_path)) == 2  # the standard rulesets only


def test_a_damaged_tree_is_parsed_afresh(parses, tmp_path):
    path = resources.stdlib_dir() / "base.catan"
    text = path.read_text(encoding="utf-8")
    tree = kept.parse(text, "base.catan")
    (kept_file,) = kept_files(tmp_path)
    for damage in ('["NoSuchNode", ["@", 1, 1, null, null]]', '["File"]', "[", '{"a": 1}',
                   '["Word", ["@", "x", 1, null, null], "road"]'):
        kept_file.write_text(damage, encoding="utf-8")
        parses.clear()
        assert kept.parse(text, "base.catan") == tree
        assert parses == ["base.catan"]
    parses.clear()
    assert kept.parse(text, "base.catan") == tree and parses == []  # kept afresh


def test_a_changed_parser_is_a_new_key(tmp_path, monkeypatch):
    monkeypatch.setattr(kept, "_code_key", None)
    before = kept.entry_name("text", "a.catan")
    monkeypatch.setattr(kept.cache, "lark_stamp", lambda: "another lark")
    monkeypatch.setattr(kept, "_code_key", None)
    assert kept.entry_name("text", "a.catan") != before
    assert kept.entry_name("text", "b.catan") != kept.entry_name("text", "a.catan")
