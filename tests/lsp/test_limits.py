"""The language server stops at the compiler's bounds: a file whose imports hold more
than the 4 MiB a scenario's imports may hold is answered E0205 after reading the
files up to the bound, not all of them (counted: files opened, never seconds)."""

from __future__ import annotations

import io
import os
from pathlib import Path

import pytest

from catandsl.compiler import MAX_TOTAL_BYTES
from catandsl.lsp import analysis as an

IMPORTS = 60
FILE_BYTES = 900_000  # four of them fit in MAX_TOTAL_BYTES, the fifth does not
FIT = MAX_TOTAL_BYTES // FILE_BYTES

MAIN = '''scenario bulky "Bulky" {
  uses base
%s  map { hex (0, 0) forest 8 }
}
'''


@pytest.fixture(scope="module")
def bulky(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("bulky")
    filler = ("# " + "x" * 98 + "\n") * (FILE_BYTES // 101)
    for i in range(IMPORTS):
        (folder / f"part{i:02d}.catan").write_text(filler + f"ruleset part{i:02d} {{\n}}\n", encoding="utf-8")
    main = folder / "main.catan"
    main.write_text(MAIN % "".join(f'  import "part{i:02d}.catan"\n' for i in range(IMPORTS)), encoding="utf-8")
    return main


@pytest.fixture
def opened(monkeypatch, bulky):
    """The imported files opened for reading, by name, however they are opened."""
    seen: list[str] = []
    real_os_open, real_io_open = os.open, io.open

    def os_open(path, *a, **kw):
        if str(path).startswith(str(bulky.parent)) and str(path).endswith(".catan"):
            seen.append(Path(path).name)
        return real_os_open(path, *a, **kw)

    def io_open(path, *a, **kw):
        if isinstance(path, (str, os.PathLike)) and str(path).startswith(str(bulky.parent)):
            seen.append(Path(path).name)
        return real_io_open(path, *a, **kw)

    monkeypatch.setattr(os, "open", os_open)
    monkeypatch.setattr(io, "open", io_open)
    return seen


def test_opening_stops_reading_imports_at_the_size_bound(bulky, opened):
    result = an.analyse(bulky.read_text(encoding="utf-8"), str(bulky))  # what didOpen runs
    codes = [d.code for d in result.diagnostics]
    assert "E0205" in codes and result.scenario is None
    parts = [name for name in opened if name.startswith("part")]
    assert len(parts) == FIT, parts  # the fifth import is refused by its size, unread; so is every later one
    opened.clear()
    found = an.included_files(result.tree, str(bulky))  # what hover, completion and definition read
    assert [p.name for p in found if p.parent == bulky.parent] == [f"part{i:02d}.catan" for i in range(FIT)]
    assert len([name for name in opened if name.startswith("part")]) <= FIT


def test_the_server_answers_such_a_file_with_e0205(bulky):
    pytest.importorskip("pygls")
    from tests.lsp.client import Client

    client = Client()
    try:
        uri = bulky.as_uri()
        client.notify("textDocument/didOpen", {"textDocument": {
            "uri": uri, "languageId": "catan", "version": 1, "text": bulky.read_text(encoding="utf-8")}})
        codes = {d["code"] for d in client.diagnostics(uri)}
        assert "E0205" in codes
        hover = client.request("textDocument/hover", {"textDocument": {"uri": uri},
                                                      "position": {"line": 1, "character": 3}})
        assert hover is None or "contents" in hover
    finally:
        client.close()
