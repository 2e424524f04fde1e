"""`catandsl lsp` over a pipe (tests/lsp/client.py): the messages an editor sends, and
what it must get back. One server for the module; each test opens its own document."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("pygls")

from tests.lsp.client import ROOT, Client  # noqa: E402

GOOD = '''scenario tiny "Tiny" {
  uses base
  map { hex (0, 0) forest 8 }
}
'''
# `feilds` is not a terrain: E0xxx with "did you mean `fields`?"
BAD = GOOD.replace("forest 8", "feilds 8")


@pytest.fixture(scope="module")
def client():
    c = Client()
    yield c
    c.close()


def _open(client: Client, name: str, text: str, tmp_path: Path) -> str:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    uri = path.as_uri()
    client.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "catan", "version": 1,
                                                             "text": text}})
    return uri


def _change(client: Client, uri: str, text: str, version: int) -> None:
    client.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": version},
                                             "contentChanges": [{"text": text}]})


def test_a_diagnostic_at_its_range_then_cleared(client, tmp_path):
    uri = _open(client, "a.catan", BAD, tmp_path)
    diags = client.diagnostics(uri)
    assert len(diags) == 1
    d = diags[0]
    assert d["code"].startswith("E0") and "feilds" in d["message"]
    assert d["range"] == {"start": {"line": 2, "character": 19}, "end": {"line": 2, "character": 25}}
    assert d["data"] == {"replacement": "fields"}
    _change(client, uri, GOOD, 2)
    assert client.diagnostics(uri) == []


def test_a_syntax_error_is_a_diagnostic_and_the_server_lives_on(client, tmp_path):
    uri = _open(client, "b.catan", "ruleset r {\n  cost brick + + lumber\n}\n", tmp_path)
    (d,) = client.diagnostics(uri)
    assert d["code"] == "E0101" and d["range"]["start"] == {"line": 1, "character": 15}
    _change(client, uri, "\x00\x01 {{{ ((((", 2)
    assert client.diagnostics(uri)[0]["code"].startswith("E0")
    # a request about a position that is not there: no answer, and the server still works
    assert client.request("textDocument/hover", {"textDocument": {"uri": uri},
                                                 "position": {"line": 99, "character": 99}}) is None
    assert client.request("textDocument/hover", {"textDocument": {"uri": "file:///nowhere.catan"},
                                                 "position": {"line": 0, "character": 0}}) is None
    _change(client, uri, GOOD, 3)
    assert client.diagnostics(uri) == []


def test_the_code_action_replaces_the_misspelt_name(client, tmp_path):
    uri = _open(client, "c.catan", BAD, tmp_path)
    diags = client.diagnostics(uri)
    actions = client.request("textDocument/codeAction", {
        "textDocument": {"uri": uri}, "range": diags[0]["range"], "context": {"diagnostics": diags}})
    assert [a["title"] for a in actions] == ["Replace with `fields`"]
    (edit,) = actions[0]["edit"]["changes"][uri]
    assert edit == {"range": diags[0]["range"], "newText": "fields"}


def test_hover_a_primitive(client, tmp_path):
    text = GOOD.replace("}\n}", "}\n  rule r {\n    on dice_rolled { take_from_bank(player, ore, 1) }\n  }\n}")
    uri = _open(client, "d.catan", text, tmp_path)
    assert client.diagnostics(uri) == []
    hover = client.request("textDocument/hover", {"textDocument": {"uri": uri},
                                                  "position": {"line": 4, "character": 25}})
    value = hover["contents"]["value"]
    assert "take_from_bank(player: player" in value
    from catandsl.rules.registry import PRIMITIVES
    assert PRIMITIVES["take_from_bank"].doc.split("\n")[0] in value
    event = client.request("textDocument/hover", {"textDocument": {"uri": uri},
                                                  "position": {"line": 4, "character": 8}})
    assert "after the dice" in event["contents"]["value"]


def test_complete_a_resource_and_an_event(client, tmp_path):
    good = GOOD.replace("}\n}", "}\n  bank 19 each\n  rule r {\n    on setup_ended {}\n  }\n}")
    uri = _open(client, "e.catan", good, tmp_path)
    assert client.diagnostics(uri) == []
    _change(client, uri, good.replace("on setup_ended {}", "on "), 2)  # typing: it does not parse now
    assert client.diagnostics(uri)
    items = client.request("textDocument/completion", {"textDocument": {"uri": uri},
                                                       "position": {"line": 3, "character": 2}})["items"]
    resources = {i["label"] for i in items if i.get("detail") == "resource"}
    assert {"brick", "lumber", "wool", "grain", "ore"} <= resources
    assert any(i["label"] == "give_tokens" and "give_tokens(" in i["detail"] for i in items)
    events = client.request("textDocument/completion", {"textDocument": {"uri": uri},
                                                        "position": {"line": 5, "character": 7}})["items"]
    assert {i["label"] for i in events} >= {"dice_rolled", "built", "setup_ended"}
    assert all(i["kind"] == 23 for i in events)  # CompletionItemKind.Event


def test_go_to_a_definition_in_stdlib(client, tmp_path):
    uri = _open(client, "f.catan", GOOD, tmp_path)
    client.diagnostics(uri)
    uses = client.request("textDocument/definition", {"textDocument": {"uri": uri},
                                                      "position": {"line": 1, "character": 8}})
    assert uses["uri"] == (ROOT / "stdlib" / "base.catan").resolve().as_uri()
    forest = client.request("textDocument/definition", {"textDocument": {"uri": uri},
                                                        "position": {"line": 2, "character": 22}})
    assert forest["uri"] == (ROOT / "stdlib" / "base.catan").resolve().as_uri()
    line = (ROOT / "stdlib" / "base.catan").read_text(encoding="utf-8").split("\n")[forest["range"]["start"]["line"]]
    assert line.strip().startswith("terrain forest")


def test_document_symbols(client, tmp_path):
    text = GOOD.replace("}\n}", "}\n  option o \"O\" {\n    item a \"A\" default\n  }\n}")
    uri = _open(client, "g.catan", text, tmp_path)
    client.diagnostics(uri)
    (top,) = client.request("textDocument/documentSymbol", {"textDocument": {"uri": uri}})
    assert top["name"] == "tiny"
    assert [(c["name"], c["detail"]) for c in top["children"]] == [("map", "map"), ("o", "option")]


def test_format_a_document(client, tmp_path):
    messy = "scenario tiny   \"Tiny\"{\nuses base\n     map { hex (0,0) forest 8 }\n}"
    uri = _open(client, "h.catan", messy, tmp_path)
    client.diagnostics(uri)
    (edit,) = client.request("textDocument/formatting", {"textDocument": {"uri": uri},
                                                         "options": {"tabSize": 2, "insertSpaces": True}})
    assert edit["newText"] == GOOD
    assert edit["range"] == {"start": {"line": 0, "character": 0}, "end": {"line": 3, "character": 1}}


def test_saving_runs_the_trial_games_of_check(client, tmp_path):
    text = (ROOT / "tests" / "fixtures" / "bad" / "E0701_engine_cannot_run.catan").read_text(encoding="utf-8")
    uri = _open(client, "i.catan", text, tmp_path)
    assert client.diagnostics(uri) == []  # it compiles: as you type, no game is played
    client.notify("textDocument/didSave", {"textDocument": {"uri": uri}})
    (d,) = client.diagnostics(uri)
    assert d["code"] == "E0701" and "take_from_bank" in d["message"]
    assert d["range"]["start"] == {"line": 7, "character": 21}  # the fixture expects 8:22


def test_ranges_count_utf16_units_as_lsp_does(client, tmp_path):
    # the die is one code point and two UTF-16 units: the `+` after it is one unit further
    uri = _open(client, "j.catan", 'ruleset r {\n  title "\U0001F3B2"; cost brick + + lumber\n}\n', tmp_path)
    (d,) = client.diagnostics(uri)
    assert d["code"] == "E0101"
    assert d["range"]["start"] == {"line": 1, "character": len('  title "XX"; cost brick + ')}
    hover = client.request("textDocument/hover", {"textDocument": {"uri": uri},
                                                  "position": {"line": 1, "character": len('  title "XX"; co')}})
    assert hover["contents"]["value"].startswith("`cost`")
