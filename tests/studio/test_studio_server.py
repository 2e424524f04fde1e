"""The studio's server side: what it refuses and how. Paths outside the folder
(symlinks too), bodies past the bound, junk sent to every endpoint, a bad action, a
tampered saved game, another Host: each a typed JSON error, never a server error."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys

import pytest
from starlette.testclient import TestClient

from catandsl import resources
from catandsl.studio.app import create_app
from catandsl.studio.web import MAX_BODY
from tests.studio.helpers import ROOT, error_of, make_folder


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    path = make_folder(tmp_path_factory.mktemp("served") / "maps")
    outside = path.parent / "secret.catan"
    outside.write_text((path / "island.catan").read_text(encoding="utf-8"), encoding="utf-8")
    (path / "escape.catan").symlink_to(outside)  # a link out of the folder
    (path / "inside.catan").symlink_to(path / "island.catan")  # a link that stays inside
    return path


@pytest.fixture(scope="module")
def client(folder):
    with TestClient(create_app(folder, watch=False), base_url="http://127.0.0.1:8000",
                    raise_server_exceptions=False) as c:
        yield c


def new_game(client, ref="dir:island.catan", **kw) -> dict:
    r = client.post("/api/games", json={"ref": ref, "players": 2, "seed": 2, **kw})
    assert r.status_code == 200, r.text[:300]
    return r.json()


# ---- paths ------------------------------------------------------------------------------------

@pytest.mark.parametrize("ref, code", [
    ("dir:../secret.catan", "path/outside"),
    ("dir:/etc/passwd.catan", "path/outside"),
    ("dir:maps/../../secret.catan", "path/outside"),
    ("dir:escape.catan", "path/outside"),  # the symlink's target lies outside
    ("dir:notes.txt", "path/not_scenario"),
    ("dir:missing.catan", "path/unknown"),
    ("dir:island.catan\x00.catan", "path/invalid"),
    ("file:island.catan", "path/invalid"),
    ("/etc/passwd", "path/invalid"),
    ("shipped:../../etc", "path/unknown"),
    ("", "path/missing"),
])
def test_paths_outside_the_folder_are_refused(client, ref, code):
    err = error_of(client.get("/api/author", params={"ref": ref}))
    assert err["code"] == code
    err = error_of(client.post("/api/games", json={"ref": ref}))
    assert err["code"] == code


def test_the_list_holds_the_folder_and_no_link_out_of_it(client):
    data = client.get("/api/scenarios").json()
    refs = [f["ref"] for f in data["files"]]
    assert "dir:escape.catan" not in refs and "dir:inside.catan" in refs and "dir:island.catan" in refs
    assert all(not r.endswith(".txt") for r in refs)
    assert any(s["ref"] == "shipped:base" for s in data["shipped"])
    assert any(s["ref"] == "shipped:five_six" for s in data["shipped"])


def test_a_link_inside_the_folder_is_served(client):
    r = client.get("/api/author", params={"ref": "dir:inside.catan", "players": 2})
    assert r.status_code == 200 and r.json()["svg"].startswith("<svg")


# ---- the author view -----------------------------------------------------------------------------

def test_the_author_view_has_the_ids_the_language_uses(client):
    data = client.get("/api/author", params={"ref": "dir:growing.catan", "players": 2, "seed": 5}).json()
    assert data["title"] == "Growing Island" and data["chosen"] == {"players": 2, "options": {}, "seed": 5}
    svg = data["svg"]
    assert 'data-id="(0, 0)"' in svg and 'data-id="(0, 0, N)"' in svg and 'data-id="(0, 0, NE)"' in svg
    assert svg.count('class="site site-hex') == data["counts"]["hexes"] == 7


def test_a_broken_file_gives_diagnostics_in_place_of_the_board(client):
    data = client.get("/api/author", params={"ref": "dir:broken.catan"}).json()
    assert data["svg"] is None and data["errors"] == 1
    (d,) = data["diagnostics"]
    assert d["code"] == "E0302" and d["file"] == "broken.catan" and d["span"]["line"] == 16
    assert [line["here"] for line in d["excerpt"]].count(True) == 1
    assert "feilds" in next(line["text"] for line in d["excerpt"] if line["here"])


@pytest.mark.parametrize("params, code", [
    ({"players": "9"}, "request/value"),
    ({"players": "two"}, "request/value"),
    ({"seed": "-1"}, "request/value"),
    ({"option": "nonsense"}, "request/value"),
])
def test_bad_settings_are_typed_errors(client, params, code):
    err = error_of(client.get("/api/author", params={"ref": "dir:island.catan", **params}))
    assert err["code"] == code


def test_an_option_or_count_the_scenario_lacks_is_a_problem_shown_in_place(client):
    data = client.get("/api/author", params={"ref": "dir:island.catan", "players": 5}).json()
    assert data["svg"] is None and data["problem"]["code"] == "players/out_of_range"
    data = client.get("/api/author", params={"ref": "dir:island.catan", "option": "trade_build=never"}).json()
    assert data["svg"] is None and "never" in data["problem"]["message"]


# ---- bodies -------------------------------------------------------------------------------------

def test_request_bodies_are_bounded(client):
    big = b'{"ref": "' + b"x" * (MAX_BODY + 10) + b'"}'
    err = error_of(client.post("/api/games", content=big, headers={"content-type": "application/json"}), 413)
    assert err["code"] == "body/too_large"

    def chunks():  # no Content-Length: counted as it arrives
        yield b'{"ref": "'
        for _ in range(MAX_BODY // 65536 + 2):
            yield b"x" * 65536
        yield b'"}'

    err = error_of(client.post("/api/games", content=chunks(), headers={"content-type": "application/json"}), 413)
    assert err["code"] == "body/too_large"


def test_bodies_must_be_json_objects(client):
    assert error_of(client.post("/api/games", content=b"ref=x"), 415)["code"] == "request/media_type"
    for junk in (b"{", b"[1, 2]", b"\xff\xfe", b"null", b'"text"', b"[" * 100_000):
        err = error_of(client.post("/api/games", content=junk, headers={"content-type": "application/json"}))
        assert err["code"] == "body/json"


# ---- junk to every endpoint -------------------------------------------------------------------------

JUNK = [{}, {"ref": 7}, {"ref": ["dir:island.catan"]}, {"action": "x"}, {"action": -1}, {"action": 10**30},
        {"site": "x"}, {"site": {"kind": "hex", "at": -5}}, {"site": {"kind": "moon", "at": 1}},
        {"save": 5}, {"save": {"format": "catandsl-studio-game"}}, {"log": 5}, {"log": ""},
        {"log": "P1: flies away", "ref": "dir:island.catan"}, {"game": ["x"]}, {"ref": "dir:island.catan", "bots": 3},
        {"ref": "dir:island.catan", "bots": ["greedy", "nobody"]}, {"ref": "dir:island.catan", "seat": 9},
        {"ref": "dir:island.catan", "options": {"trade_build": 5}}, {"ref": "dir:island.catan", "players": True},
        {"ref": "dir:island.catan", "seed": 2**70}, {"ref": "dir:broken.catan"},
        {"ref": "shipped:base", "options": {"layout": "spiral"}}]


def test_junk_sent_to_every_endpoint_is_a_typed_error(client):
    gid = new_game(client)["id"]
    posts = ["/api/games", "/api/games/resume", f"/api/games/{gid}/act", "/api/replays", "/api/games/nope/act"]
    for url in posts:
        for body in JUNK:
            r = client.post(url, json=body)
            if r.status_code == 200:  # a body another endpoint would refuse may be this one's good request
                continue
            error_of(r)
    gets = ["/api/games/nope", "/api/games/nope/save", "/api/replays/nope/0", "/api/author", "/api/author?ref=%00",
            "/api/replays/x/y", "/nothing", "/static/../app.py", "/static/nothing.js", "/api/games/" + "x" * 5000]
    for url in gets:
        error_of(client.get(url))
    error_of(client.delete("/api/games"), 405)
    error_of(client.get("/api/games"), 405)


# ---- games -----------------------------------------------------------------------------------------

def test_a_bad_action_gets_the_engines_typed_reason_and_changes_nothing(client):
    view = new_game(client, seat=0)
    gid = view["id"]
    legal = {a["id"] for g in view["offers"]["groups"] for a in g["actions"]}
    illegal = next(a for a in range(1000) if a not in legal)
    err = error_of(client.post(f"/api/games/{gid}/act", json={"action": illegal}))
    assert err["code"].startswith("action/")
    assert error_of(client.post(f"/api/games/{gid}/act", json={"action": 10**9}))["code"] == "action/unknown"
    after = client.get(f"/api/games/{gid}").json()
    assert after["actions_applied"] == view["actions_applied"] and after["log"] == view["log"]


def test_a_click_on_a_site_is_its_one_action_or_the_engines_reason(client):
    view = new_game(client, seat=0)
    gid = view["id"]
    key = next(iter(view["offers"]["sites"]))
    kind, at = key.split(":")
    after = client.post(f"/api/games/{gid}/act", json={"site": {"kind": kind, "at": int(at)}}).json()
    assert after["actions_applied"] > view["actions_applied"]
    # the settlement's neighbour: too close, in the engine's words
    err = error_of(client.post(f"/api/games/{gid}/act", json={"site": {"kind": kind, "at": int(at)}}))
    assert err["code"].startswith("action/") and err["code"] != "action/unknown"


def test_the_search_bot_is_an_opponent(client):
    view = new_game(client, seat=1, bots="mcts:3")  # the bot at seat 0 places first or second
    gid = view["id"]
    for _ in range(2):
        key = next(iter(view["offers"]["sites"]))
        kind, at = key.split(":")
        view = client.post(f"/api/games/{gid}/act", json={"site": {"kind": kind, "at": int(at)}}).json()
    match = client.app.state.studio.matches.get(gid)
    assert sum(match.state.placed[0]) >= 2  # the bot has placed its pieces too
    err = error_of(client.post("/api/games", json={"ref": "dir:island.catan", "players": 2, "bots": "mcts:0"}))
    assert err["code"] == "request/bots"


def test_a_saved_game_resumes_and_a_tampered_one_is_refused(client):
    view = new_game(client, seat=1)
    gid = view["id"]
    for _ in range(3):  # the first set-up sites
        key = next(iter(view["offers"]["sites"]))
        kind, at = key.split(":")
        view = client.post(f"/api/games/{gid}/act", json={"site": {"kind": kind, "at": int(at)}}).json()
    saved = client.get(f"/api/games/{gid}/save").json()
    resumed = client.post("/api/games/resume", json=saved).json()
    assert resumed["id"] != gid and resumed["log"] == view["log"] and resumed["svg"] == view["svg"]

    state = json.loads(saved["state"])
    state["bank"][0] += 3
    tampered = {**saved, "state": json.dumps(state)}
    assert error_of(client.post("/api/games/resume", json=tampered))["code"].startswith("state/")
    assert error_of(client.post("/api/replays", json={"save": tampered}))["code"].startswith("state/")
    assert error_of(client.post("/api/games/resume", json={**saved, "scenario": "dir:../secret.catan"}))["code"] == \
        "path/outside"
    assert error_of(client.post("/api/games/resume", json={**saved, "actions": "all"}))["code"] == "save/shape"
    # actions that do not lead to the state: the state is resumed, the log starts there
    other = client.post("/api/games/resume", json={**saved, "actions": saved["actions"][:-1]}).json()
    assert other["log"] == [] and "log starts here" in other["notice"]


def test_a_replay_steps_to_the_end_of_a_finished_game(client):
    import catandsl
    from catandsl.players import GreedyPlayer, play_game
    from catandsl.players.base import log_lines
    from catandsl.studio.replays import result_line

    game = catandsl.new_game(catandsl.load(client.app.state.studio.library.root / "island.catan"), 2, {}, 9)
    state, entries = play_game(game, [GreedyPlayer(900), GreedyPlayer(901)], seed=9)
    text = "\n".join(log_lines(entries) + [result_line(game, state)]) + "\n"
    first = client.post("/api/replays", json={"log": text, "ref": "dir:island.catan", "seed": 9}).json()
    assert first["step"] == 0 and first["steps"] == len(entries)
    last = client.get(f"/api/replays/{first['id']}/{first['steps']}").json()
    assert last["result"] == result_line(game, state) and last["result"].startswith("winner: P")
    assert error_of(client.get(f"/api/replays/{first['id']}/{first['steps'] + 1}"))["code"] == "replay/step"
    err = error_of(client.post("/api/replays", json={"log": text, "ref": "dir:island.catan", "seed": 10}))
    assert err["code"] == "log/mismatch"  # another seed: another board, the log's moves are not its own


# ---- the server ---------------------------------------------------------------------------------------

def test_another_host_is_refused_and_pages_carry_a_strict_policy(client):
    err = error_of(client.get("/api/scenarios", headers={"host": "evil.example"}))
    assert err["code"] == "request/host"
    r = client.get("/")
    assert r.status_code == 200 and "script-src 'self'" in r.headers["content-security-policy"]
    assert "<script>" not in r.text  # scripts come from files: the policy allows no inline script


def test_catandsl_serve_listens_on_loopback_and_stops_on_an_interrupt(folder):
    p = subprocess.Popen([sys.executable, "-m", "catandsl", "serve", str(folder), "--port", "0"],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        line = p.stdout.readline()
        assert "http://127.0.0.1:" in line, line + p.stderr.read()
        url = line.split("http://", 1)[1].split("/", 1)[0]
        import urllib.request

        with urllib.request.urlopen(f"http://{url}/api/scenarios", timeout=60) as r:
            assert any(f["ref"] == "dir:island.catan" for f in json.load(r)["files"])
    finally:
        p.send_signal(signal.SIGINT)
        p.wait(60)
    assert p.returncode == 0


def test_catandsl_serve_refuses_a_missing_folder(tmp_path):
    p = subprocess.run([sys.executable, "-m", "catandsl", "serve", str(tmp_path / "nowhere")],
                       capture_output=True, text=True, env={**os.environ, "COLUMNS": "200"})
    assert p.returncode == 2 and "is not a folder" in p.stderr and "Traceback" not in p.stderr



SCENARIOS = [(None, f"shipped:{s.name}") for s in resources.shipped_scenarios()]
EXAMPLES = [("examples/scenarios", "guild_hall.catan"), ("examples/scenarios", "lost_colony.catan"),
            ("examples", "fog_bank.catan")]


@pytest.mark.parametrize("folder, name", SCENARIOS + EXAMPLES, ids=lambda x: x or "shipped")
def test_every_scenario_is_playable_from_what_the_page_offers(folder, name):
    """The person's moves chosen among the offers alone (no page code per scenario): the
    page offers exactly the legal actions under their kinds' headings, the engine takes
    each, and every site offered is lit on the board."""
    import random

    from catandsl.studio.library import Library
    from catandsl.studio.offers import offers
    from catandsl.studio.play import Matches

    matches = Matches(Library(ROOT / (folder or "examples")))
    match = matches.new(name if folder is None else f"dir:{name}", None, {}, 3, 0, "random")
    rng = random.Random(name)
    kinds = set()
    for move in range(40):
        if match.state.is_terminal():
            break
        offered = offers(match.state, match.seat)
        ids = [a["id"] for g in offered["groups"] for a in g["actions"]]
        assert len(ids) == len(set(ids)) and set(ids) == set(match.state.legal_actions(match.seat))
        for g in offered["groups"]:  # headed by the kind's own heading, never by its id
            assert g["title"][:1].isupper() and "_" not in g["title"], g["title"]
            assert all(match.game.actions[a["id"]].listed_under() == (g["kind"], g["title"]) for a in g["actions"])
        if move % 10 == 0:
            assert match.view()["svg"].count(' target"') == len(offered["sites"])
        aid = rng.choice(ids)
        kinds.add(match.game.actions[aid].KIND)
        match.act(aid)
    assert match.stopped is None
    assert len(kinds) >= 2


def test_markup_in_a_file_reaches_the_page_as_text(client, folder):
    """A title with markup is escaped in the board's SVG (the page puts the rest in as text)."""
    text = (folder / "island.catan").read_text(encoding="utf-8").replace(
        '"Seven-Hex Island"', '"<img src=x onerror=alert(1)> & Co"')
    (folder / "hostile.catan").write_text(text, encoding="utf-8")
    data = client.get("/api/author", params={"ref": "dir:hostile.catan", "players": 2}).json()
    assert data["title"] == "<img src=x onerror=alert(1)> & Co"  # JSON: the page sets it as textContent
    assert "<img" not in data["svg"] and "&lt;img src=x onerror=alert(1)&gt; &amp; Co" in data["svg"]


def test_a_trade_composed_card_by_card_through_the_studio(folder):
    """The person opens an offer, gives and asks card by card, proposes; the bots answer
    (accept, decline or counter) before the person picks. The page's groups name the
    steps, `trade` shows the draft and the offer, and the log shows no bot's draft."""
    import catandsl
    from catandsl.studio.library import Library
    from catandsl.studio.offers import offers
    from catandsl.studio.play import Matches

    matches = Matches(Library(folder))
    match = matches.new("shipped:base", 4, {}, 3, 0, "random")
    pos = catandsl.position(match.game)
    for seat, hand in enumerate(({"brick": 2, "lumber": 1}, {"ore": 2, "wool": 1}, {"ore": 1}, {"grain": 2})):
        pos.hand(seat, **hand)
    match.state = pos.turn(0, rolled=True).state()

    def do(kind, **fields):
        a = next(x for g in offers(match.state, 0)["groups"] for x in g["actions"]
                 if x["action"] == {"kind": kind, **fields})
        match.act(a["id"])
        return match.view()

    view = do("new_offer")
    assert view["trade"] == {"offer": None, "draft": {"player": 0, "to": -1, "counter": False, "give": {}, "get": {}}}
    titles = {g["kind"]: g["title"] for g in view["offers"]["groups"]}
    assert titles["offer_add:give"] == "Your offer gives" and titles["offer_add:get"] == "Your offer asks for"
    gives = [a["label"] for g in view["offers"]["groups"] if g["kind"] == "offer_add:give" for a in g["actions"]]
    assert gives == ["Add 1 brick to the cards offered", "Add 1 lumber to the cards offered"]  # what they hold
    do("offer_add", side="give", item="brick")
    view = do("offer_add", side="get", item="ore")
    assert view["trade"]["draft"]["give"] == {"brick": 1} and view["trade"]["draft"]["get"] == {"ore": 1}
    view = do("propose")  # the bots answer at once
    offer = view["trade"]["offer"]
    assert offer["proposer"] == 0 and offer["give"] == {"brick": 1} and offer["asked"] == []
    assert sorted(offer["accepted"] + offer["declined"] + [c["player"] for c in offer["counters"]]) == [1, 2, 3]
    groups = {g["kind"]: g["actions"] for g in view["offers"]["groups"]}
    assert [a["label"] for a in groups["propose"]] == ["Withdraw the offer"]
    took_up = offer["accepted"] + [c["player"] for c in offer["counters"]]
    assert all(a["action"]["player"] in took_up for a in groups.get("trade_with", []))
    # a bot's counter is in the log as proposed, its steps are not (the person's own are)
    assert offer["counters"] and any(re.match(r"^P\d: counters with ", line) for line in view["log"])
    assert not [line for line in view["log"] if re.match(r"^P[234]: (adds|takes) 1 ", line)]
    assert any(re.match(r"^P[234]: changes the offer( \(\u00d7\d+\))?$", line) for line in view["log"])
    assert any(line == "P1: adds 1 brick to the cards offered" for line in view["log"])
