"""`catandsl engine`, the JSON-lines protocol: every reply matches the published schema,
a bad message gets a typed error and the session goes on, a refused action leaves the
state as it was, and the Node.js example plays a full game through it."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import jsonschema
import pytest

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:  # so that `python tests/embedding/test_protocol.py --update` works too
    sys.path.insert(0, str(ROOT))

from catandsl.protocol import Session, request_schema, response_schema  # noqa: E402

DOCS = ROOT / "docs" / "protocol"
SCHEMAS = {"request.schema.json": request_schema, "response.schema.json": response_schema}
REQUEST = jsonschema.Draft202012Validator(request_schema())
RESPONSE = jsonschema.Draft202012Validator(response_schema())


def ask(ses: Session, message) -> dict:
    line = message if isinstance(message, str) else json.dumps(message)
    reply = ses.handle(line)
    RESPONSE.validate(reply)
    json.dumps(reply)  # a reply is JSON as it stands
    return reply


def ok(ses: Session, message: dict):
    REQUEST.validate(message)
    reply = ask(ses, message)
    assert reply["ok"], reply
    return reply["result"]


def test_the_published_schemas_are_current():
    for name, make in SCHEMAS.items():
        assert json.loads((DOCS / name).read_text()) == make(), "run: python tests/embedding/test_protocol.py --update"


@pytest.mark.parametrize("line, code", [
    ("{not json", "protocol/json"),
    ("[1, 2]", "protocol/message"),
    ('{"call": "fly"}', "protocol/unknown_call"),
    ('{"call": "apply", "state": 1}', "protocol/message"),
    ('{"call": "apply", "state": 99, "action": 0}', "protocol/unknown_handle"),
    ('{"call": "new_game", "scenario": "no_such_scenario"}', "scenario/errors"),  # E0005, with diagnostics
    ('{"call": "new_game", "scenario": "base", "players": 9}', "players/out_of_range"),
    ('{"call": "new_game", "ir": {"name": 3}}', "scenario/format"),
    ('{"call": "query", "state": 2, "name": "__import__"}', "protocol/unknown_call"),
    ('{"call": "query", "state": 2, "name": "production", "args": {"totals": [99]}}', "argument/invalid"),
    ('{"call": "query", "state": 2, "name": "route_length", "args": {"player": "x"}}', "argument/invalid"),
    ('{"call": "query", "state": 2, "name": "route_length", "args": {"player": 0, "evil": 1}}', "argument/invalid"),
    ('{"call": "position", "game": 1, "edits": [{"op": "hand", "seat": 0, "resources": {"seat": 1}}]}',
     "argument/invalid"),
    ('{"call": "restore", "game": 1, "text": "{\\"format\\": 1}"}', "state/format"),
    ("[" * 100_000, "protocol/json"),
])
def test_a_bad_message_gets_a_typed_error_and_the_session_goes_on(line, code):
    ses = Session()
    ok(ses, {"call": "new_game", "scenario": "base", "players": 3, "seed": 1})
    reply = ask(ses, line)
    assert not reply["ok"] and reply["error"]["code"] == code, reply
    assert ok(ses, {"id": 7, "call": "status", "state": 2})["stage"] == "setup"


@pytest.mark.parametrize("message", [
    {"call": "apply", "state": 2, "action": {"kind": "nonsense"}},
    {"call": "apply", "state": 2, "action": {"kind": "build"}},
    {"call": "apply", "state": 2, "action": {"kind": "build", "piece": ["road"], "at": {}}},
    {"call": "apply", "state": 2, "action": {"kind": "end_turn", "extra": 1}},
    {"call": "query", "state": 2, "name": "route_length", "args": {"player": 0, "pieces": [1]}},
    {"call": "query", "state": 2, "name": "production", "args": {"totals": 5}},
    {"call": "position", "game": 1, "edits": [{"op": "bank", "resources": {"self": 1}}]},
    {"call": "position", "game": 1, "edits": [{"op": "tokens", "seat": 0, "tokens": {"seat": 1}}]},
    {"call": "describe", "state": 2, "action": 10**6},
    {"call": "describe", "state": 2, "action": {"kind": "nonsense"}},
    {"call": "describe", "state": 2, "action": 0, "viewer": 7},
])
def test_a_callers_mistake_is_never_called_internal(message):
    ses = Session()
    ok(ses, {"call": "new_game", "scenario": "base", "players": 3, "seed": 1})
    reply = ask(ses, message)
    assert not reply["ok"] and reply["error"]["code"] != "engine/internal", reply


def test_describe_words_an_action_as_a_viewer_reads_it():
    """`describe` gives the rulebook words of the registry (catandsl/rules/words.py): a
    button's and the log's; the card another seat draws is `a development card`."""
    ses = Session()
    ok(ses, {"call": "new_game", "scenario": "base", "players": 3, "seed": 1})
    actions = ok(ses, {"call": "actions", "game": 1})
    build = next(k for k, a in enumerate(actions) if a["kind"] == "build" and a["piece"] == "settlement")
    ok(ses, {"call": "apply", "state": 2, "action": {"kind": "start_player", "player": 0}})
    said = ok(ses, {"call": "describe", "state": 2, "action": build})
    assert said["text"].startswith("Build a settlement at the ") and said["event"].startswith("P1 builds a settlement")
    knight = {"kind": "draw", "deck": "development", "card": "knight"}
    assert ok(ses, {"call": "describe", "state": 2, "action": knight})["text"] == \
        "Draw a development card: Knight"
    assert ok(ses, {"call": "describe", "state": 2, "action": knight, "viewer": 1})["text"] == \
        "Draw a development card"


def test_an_internal_error_says_so_with_a_reference_the_log_gives(monkeypatch, caplog):
    """A bug (here a handler made to fail as a bug would) is `engine/internal`, never the
    caller's fault, with a reference that the log line holding the traceback repeats."""
    from catandsl import protocol

    def broken(ses, m):
        return {"turn": [][m["state"]]}  # an IndexError no request can cause

    monkeypatch.setitem(protocol.HANDLERS, "status", broken)
    ses = Session()
    ok(ses, {"call": "new_game", "scenario": "base", "players": 3, "seed": 1})
    with caplog.at_level("ERROR", logger="catandsl.engine"):
        first = ask(ses, {"id": 1, "call": "status", "state": 2})["error"]
        second = ask(ses, {"id": 2, "call": "status", "state": 2})["error"]
    assert first["code"] == second["code"] == "engine/internal"
    assert first["ref"] != second["ref"] and first["ref"] in first["message"] and "bug" in first["message"]
    logged = [r for r in caplog.records if first["ref"] in r.getMessage()]
    assert len(logged) == 1 and logged[0].exc_info[0] is IndexError
    assert ok(ses, {"call": "legal_actions", "state": 2})["actions"]  # the session goes on


def test_every_list_in_a_message_is_bounded_before_any_work(monkeypatch):
    """Past a bound, the reply is `protocol/too_large` and nothing of the call runs (the
    position builder and new_game are counted, not timed)."""
    import catandsl
    from catandsl import protocol
    from catandsl.engine.position import Position
    from tests.watchdog import no_hang

    ses = Session()
    ok(ses, {"call": "new_game", "scenario": "base", "players": 3, "seed": 1})
    calls = {"edits": 0, "games": 0}
    real_hand, real_new_game = Position.hand, catandsl.new_game

    def counted_hand(self, *a, **kw):
        calls["edits"] += 1
        return real_hand(self, *a, **kw)

    def counted_new_game(*a, **kw):
        calls["games"] += 1
        return real_new_game(*a, **kw)

    monkeypatch.setattr(Position, "hand", counted_hand)
    monkeypatch.setattr(catandsl, "new_game", counted_new_game)
    hand = {"op": "hand", "seat": 0, "resources": {"ore": 1}}
    too_large = [
        {"call": "new_game", "scenario": "base", "options": {f"o{i}": "x" for i in range(protocol.MAX_OPTIONS + 1)}},
        {"call": "position", "game": 1, "edits": [hand] * (protocol.MAX_EDITS + 1)},
        {"call": "position", "game": 1, "edits": [{"op": "hand", "seat": 0, "resources": {
            f"r{i}": 1 for i in range(protocol.MAX_NAMES + 1)}}]},
        {"call": "position", "game": 1, "edits": [{"op": "neutral", "piece": "robber",
                                                   "sites": [0] * (protocol.MAX_SITES + 1)}]},
        {"call": "query", "state": 2, "name": "production", "args": {f"a{i}": 1 for i in range(protocol.MAX_ARGS + 1)}},
        {"call": "new_game", "scenario": "base", "id": 1, "seed": 1, "ir": {"x": [0] * protocol.MAX_VALUES}},
        # the most keys a message of MAX_LINE characters holds: a walk of MAX_VALUES, then refused
        {"call": "new_game", "scenario": "base", "options": {f"{i:x}": "" for i in range(protocol.MAX_LINE // 14)}},
    ]
    with no_hang(120, "refusing large messages"):
        for message in too_large:
            line = json.dumps(message)
            assert len(line) <= protocol.MAX_LINE
            reply = ask(ses, line)
            assert reply["error"]["code"] == "protocol/too_large", (reply, line[:100])
    assert calls == {"edits": 0, "games": 0}
    # at the bound, the work is done
    ok(ses, {"call": "position", "game": 1, "edits": [hand] * protocol.MAX_EDITS})
    assert calls["edits"] == protocol.MAX_EDITS


def test_a_game_position_queries_and_restore_through_the_protocol():
    ses = Session()
    g = ok(ses, {"call": "new_game", "path": str(ROOT / "scenarios" / "base.catan"), "players": 3, "seed": 4})
    s = g["state"]
    before = ok(ses, {"call": "serialize", "state": s})["text"]
    reply = ask(ses, {"call": "apply", "state": s, "action": {"kind": "end_turn"}})
    assert reply["error"]["code"] == "action/not_legal"
    assert ok(ses, {"call": "serialize", "state": s})["text"] == before  # refused: unchanged
    while not ok(ses, {"call": "status", "state": s})["terminal"]:
        legal = ok(ses, {"call": "legal_actions", "state": s})
        action = ok(ses, {"call": "sample_chance", "state": s})["action"] if legal["chance"] else legal["actions"][0]
        ok(ses, {"call": "apply", "state": s, "action": action})
        if ok(ses, {"call": "status", "state": s})["actions_applied"] >= 150:
            break
    text = ok(ses, {"call": "serialize", "state": s})["text"]
    again = ok(ses, {"call": "restore", "game": g["game"], "text": text})["state"]
    assert ok(ses, {"call": "serialize", "state": again})["text"] == text
    obs = ok(ses, {"call": "observation", "state": s, "player": 1, "tensor": True})
    assert len(obs["tensor"]) == max(z for _, z in obs["slices"].values()) and len(obs["mask"]) == g["num_actions"]
    p = ok(ses, {"call": "position", "game": g["game"], "edits": [
        {"op": "place", "seat": 0, "piece": "settlement", "at": [0, 0, "N"]},
        {"op": "place", "seat": 0, "piece": "road", "at": [1, -1, "W"], "rules": True},
        {"op": "hand", "seat": 1, "resources": {"ore": 2}}]})["state"]
    assert ok(ses, {"call": "query", "state": p, "name": "route_length", "args": {"player": 0}}) == 1
    bad = ask(ses, {"call": "position", "game": g["game"], "edits": [
        {"op": "place", "seat": 0, "piece": "road", "at": [1, -1, "W"], "rules": True}]})
    assert bad["error"]["code"] == "position/illegal_place" and "edits[0]" in bad["error"]["message"]
    ok(ses, {"call": "close", "game": g["game"]})
    assert ask(ses, {"call": "status", "state": s})["error"]["code"] == "protocol/unknown_handle"


def test_a_trade_composed_through_the_protocol_in_json_actions():
    """An offer composed by JSON actions, one item each; the others' observations show
    no draft until it is proposed, then the offer by name; a refused step says why."""
    ses = Session()
    g = ok(ses, {"call": "new_game", "scenario": "base", "players": 3, "seed": 4})
    s = ok(ses, {"call": "position", "game": g["game"], "edits": [
        {"op": "hand", "seat": 0, "resources": {"brick": 3}}, {"op": "hand", "seat": 1, "resources": {"ore": 1}},
        {"op": "turn", "seat": 0, "rolled": True}]})["state"]
    for action in ({"kind": "new_offer"}, {"kind": "offer_add", "side": "give", "item": "brick"},
                   {"kind": "offer_add", "side": "give", "item": "brick"}):
        ok(ses, {"call": "apply", "state": s, "action": action})
    refused = ask(ses, {"call": "apply", "state": s, "action": {"kind": "offer_add", "side": "get", "item": "brick"}})
    assert refused["error"]["code"] == "action/not_legal" and "itself" in refused["error"]["message"]
    ok(ses, {"call": "apply", "state": s, "action": {"kind": "offer_add", "side": "get", "item": "ore"}})
    mine = ok(ses, {"call": "observation", "state": s, "player": 0})["observation"]
    theirs = ok(ses, {"call": "observation", "state": s, "player": 1})["observation"]
    assert mine["trade"]["draft"] == {"player": 0, "to": -1, "counter": False, "give": {"brick": 2}, "get": {"ore": 1}}
    assert theirs["trade"] == {"offer": None, "draft": None}
    assert theirs["pending"][-1]["give"] is None and "brick" not in json.dumps(theirs["pending"])
    ok(ses, {"call": "apply", "state": s, "action": {"kind": "propose"}})
    theirs = ok(ses, {"call": "observation", "state": s, "player": 2})["observation"]
    assert theirs["trade"]["offer"]["give"] == {"brick": 2} and theirs["trade"]["offer"]["asked"] == [1, 2]
    for action in ({"kind": "accept"}, {"kind": "decline"}, {"kind": "trade_with", "player": 1}):
        ok(ses, {"call": "apply", "state": s, "action": action})
    end = ok(ses, {"call": "observation", "state": s, "player": 1})["observation"]
    assert end["hands"][1] == [2, 0, 0, 0, 0] and end["trade"] == {"offer": None, "draft": None}


def test_the_engine_command_reads_lines_until_quit():
    lines = ['{"id": "a", "call": "new_game", "scenario": "base", "seed": 2}', "garbage",
             '{"id": "b", "call": "legal_actions", "state": 2}', '{"call": "quit"}',
             '{"id": "never", "call": "status", "state": 2}']
    p = subprocess.run([sys.executable, "-m", "catandsl", "engine"], input="\n".join(lines) + "\n", cwd=ROOT,
                       capture_output=True, text=True, timeout=120)
    replies = [json.loads(x) for x in p.stdout.splitlines()]
    assert p.returncode == 0 and p.stderr == ""
    assert [r["id"] for r in replies] == ["a", None, "b", None]
    assert [r["ok"] for r in replies] == [True, False, True, True]


def test_bytes_that_are_not_utf8_and_overlong_lines_do_not_end_the_session(monkeypatch):
    import io

    from catandsl import protocol

    monkeypatch.setattr(protocol, "MAX_LINE", 100)
    data = b'{"call": "\xff\xfe"}\n' + b"[" * 250 + b"\n" + b'{"id": 3, "call": "quit"}\n'
    out = io.StringIO()
    assert protocol.serve(io.TextIOWrapper(io.BytesIO(data), encoding="utf-8"), out) == 0
    replies = [json.loads(x) for x in out.getvalue().splitlines()]
    assert [r["error"]["code"] for r in replies[:2]] == ["protocol/unknown_call", "protocol/too_long"]
    assert replies[2] == {"id": 3, "ok": True, "result": {}}


@pytest.mark.skipif(shutil.which("node") is None, reason="Node.js is not installed")
def test_the_node_client_plays_a_full_game():
    env = {**os.environ, "CATANDSL_PYTHON": sys.executable}
    p = subprocess.run(["node", str(ROOT / "examples" / "node_client.mjs"), "base", "3"], cwd=ROOT, env=env,
                       capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, p.stderr
    end = json.loads(p.stdout)
    assert end["terminal"] and end["reason"] in ("victory", "turn_limit", "action_limit")
    assert end["refused"] == "protocol/message" and end["actions_applied"] > 100


if __name__ == "__main__" and sys.argv[1:] == ["--update"]:
    DOCS.mkdir(parents=True, exist_ok=True)
    for name, make in SCHEMAS.items():
        (DOCS / name).write_text(json.dumps(make(), indent=2) + "\n")


def test_a_bot_answers_through_the_protocol():
    ses = Session()
    g = ok(ses, {"call": "new_game", "scenario": "base", "players": 3, "seed": 2})
    s = g["state"]
    assert ask(ses, {"call": "bot_action", "state": s, "bot": "greedy"})["error"]["code"] == "bot/no_decision"
    ok(ses, {"call": "apply", "state": s, "action": ok(ses, {"call": "sample_chance", "state": s})["action"]})
    legal = ok(ses, {"call": "legal_actions", "state": s})["actions"]
    first = ok(ses, {"call": "bot_action", "state": s, "bot": "mcts:5", "seed": 3})["action"]
    assert first in legal
    assert ok(ses, {"call": "bot_action", "state": s, "bot": "mcts:5", "seed": 3})["action"] == first  # seeded
    assert ok(ses, {"call": "bot_action", "state": s, "bot": "greedy"})["action"] in legal
    assert ask(ses, {"call": "bot_action", "state": s, "bot": "mcts:0"})["error"]["code"] == "protocol/unknown_bot"


def test_status_names_every_winner_as_play_does():
    import catandsl
    from catandsl.players import make_bot, play_game

    path = str(ROOT / "scenarios" / "base.catan")
    game = catandsl.new_game(path, 3, seed=2)
    final, _ = play_game(game, [make_bot("random", p) for p in range(3)], seed=2, log=False)
    ses = Session()
    g = ok(ses, {"call": "new_game", "path": path, "players": 3, "seed": 2})
    s = ok(ses, {"call": "restore", "game": g["game"], "text": final.serialize()})["state"]
    status = ok(ses, {"call": "status", "state": s})
    assert status["terminal"] and status["winner"] >= 0 and status["winners"] == [status["winner"]]
    assert ok(ses, {"call": "query", "state": s, "name": "winners"}) == [status["winner"]]
    shared = json.loads(final.serialize())
    shared.update(winner=-1, winners=[0, 2])  # a victory shared at a scenario's own end
    t = ok(ses, {"call": "restore", "game": g["game"], "text": json.dumps(shared)})["state"]
    status = ok(ses, {"call": "status", "state": t})
    assert status["winner"] == -1 and status["winners"] == [0, 2] and status["returns"] == [1.0, -1.0, 1.0]
