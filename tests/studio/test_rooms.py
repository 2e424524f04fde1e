"""Hosted games on the server side: seat tokens, moves from the wrong seat or out of
turn, what each seat and a spectator may see, the WebSockets, handing a seat to a bot,
a restart (a fresh app on the same folder), and the replay once the game is over."""

from __future__ import annotations

import json
import random

import pytest
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from catandsl.studio.app import create_app
from tests.studio.helpers import make_folder

BASE = "http://127.0.0.1:8000"
WS = "ws://127.0.0.1:8000"
MAX_MOVES = 3000  # a game of the seven-hex island takes a few hundred actions


@pytest.fixture
def folder(tmp_path):
    return make_folder(tmp_path / "served")


def client_for(folder):
    app = create_app(folder, watch=False)
    app.state.live.hub.pause = 0  # the bots' moves follow each other at once: nobody watches
    return TestClient(app, base_url=BASE, raise_server_exceptions=False)


def host(c, seats=("human", "human", "greedy"), seed=2, ref="dir:island.catan") -> dict:
    r = c.post("/api/rooms", json={"ref": ref, "players": len(seats), "seed": seed, "seats": list(seats)})
    assert r.status_code == 200, r.text[:300]
    return r.json()


def token(made, seat: int) -> str:
    return made["seats"][seat]["token"]


def room_of(c, made):
    return c.app.state.live.rooms.find(made["host"])[0]


def err(r, status=None) -> dict:
    body = r.json()
    assert set(body) == {"error"}, body
    if status is not None:
        assert r.status_code == status, (r.status_code, body)
    assert 400 <= r.status_code < 500
    return body["error"]


_PEOPLE: dict[tuple[str, int], object] = {}  # the scripted person of each seat, kept from move to move


def move_for(room, seat: int, rng) -> int:
    """What the seat's scripted person (a greedy player: the test reads the server's
    state) plays now."""
    from catandsl.players import make_bot

    person = _PEOPLE.setdefault((room.id, seat), make_bot("greedy", rng.randrange(1 << 30)))
    return person.choose(room.state.clone())  # type: ignore[attr-defined]


def play_on(c, made, moves: int | None = None, rng=None) -> int:
    """The people's moves (a greedy choice each) sent with their seats' tokens until the
    game is over or `moves` were made; the moves made."""
    rng = rng or random.Random(7)
    room = room_of(c, made)
    for n in range(MAX_MOVES):
        if room.state.is_terminal() or n == moves:
            return n
        seat = room.state.current_player()
        r = c.post(f"/api/rooms/{token(made, seat)}/act", json={"action": move_for(room, seat, rng)})
        assert r.status_code == 200, r.text[:300]
    raise AssertionError(f"no winner after {MAX_MOVES} moves")


# ---- hosting and tokens ------------------------------------------------------------------------


def test_a_hosted_game_gives_an_unguessable_token_per_seat_and_each_acts_only_for_its_seat(folder):
    with client_for(folder) as c:
        made = host(c)
        tokens = [made["host"], made["watch"]] + [s["token"] for s in made["seats"]]
        assert len(set(tokens)) == len(tokens) and all(len(t) >= 24 for t in tokens)
        for seat in range(3):
            v = c.get(f"/api/rooms/{token(made, seat)}").json()
            assert v["seat"] == seat and v["role"] == "seat" and v["players"][seat]["you"]
        assert c.get(f"/api/rooms/{made['watch']}").json()["role"] == "spectator"
        host_view = c.get(f"/api/rooms/{made['host']}").json()
        assert host_view["role"] == "host" and [s["token"] for s in host_view["links"]["seats"]] == tokens[2:]
        # a token nobody was given, or one a letter off
        assert err(c.get("/api/rooms/" + "x" * 24), 404)["code"] == "room/unknown"
        assert err(c.get("/api/rooms/" + token(made, 0)[:-1] + "A"), 404)["code"] == "room/unknown"
        # the spectators' and the host's links make no moves
        room = room_of(c, made)
        aid = room.state.legal_actions()[0]
        for t in (made["watch"], made["host"]):
            assert err(c.post(f"/api/rooms/{t}/act", json={"action": aid}))["code"] == "seat/none"


@pytest.mark.parametrize("seats, code", [
    (["human", "human"], "request/seats"),  # three players, two seats named
    (["human", "human", "hal9000"], "request/seats"),
    (["human", "human", "mcts:999999"], "request/seats"),
    ("human", "request/field"),
])
def test_a_game_hosted_with_wrong_seats_is_refused(folder, seats, code):
    with client_for(folder) as c:
        r = c.post("/api/rooms", json={"ref": "dir:island.catan", "players": 3, "seed": 1, "seats": seats})
        assert err(r)["code"] == code


def test_a_move_from_the_wrong_seat_or_out_of_turn_gets_the_engines_refusal_and_changes_nothing(folder):
    with client_for(folder) as c:
        made = host(c)
        room = room_of(c, made)
        play_on(c, made, moves=8)
        to_move = room.state.current_player()
        assert room.seats[to_move] == "human"
        other = 1 - to_move
        before = (room.state.serialize(), room.version, len(room.actions))
        for aid in room.state.legal_actions():  # every move the seat to move may make, sent by the other
            e = err(c.post(f"/api/rooms/{token(made, other)}/act", json={"action": aid}))
            assert e["code"] == "action/not_your_turn", e
        # a move nobody may make now, from the seat to move: the engine's reason
        illegal = next(a for a in range(room.game.num_distinct_actions()) if a not in room.state.legal_actions())
        assert err(c.post(f"/api/rooms/{token(made, to_move)}/act", json={"action": illegal}))["code"].startswith(
            "action/")
        assert err(c.post(f"/api/rooms/{token(made, to_move)}/act", json={"action": "1"}))["code"] == "request/field"
        assert err(c.post(f"/api/rooms/{token(made, to_move)}/act", json={"action": 10**9}))["code"] == "action/unknown"
        assert (room.state.serialize(), room.version, len(room.actions)) == before


# ---- what each page may see --------------------------------------------------------------------


def _without_log(view: dict) -> dict:
    return {k: v for k, v in view.items() if k not in ("log", "log_length")}


def _views_agree_with_every_deal_the_viewer_cannot_tell_apart(room, rng) -> int:
    """A view is the same for the real state and for states dealt to agree with what
    the viewer sees (infostate.resample): so it holds nothing the viewer may not see."""
    from catandsl.engine.infostate import resample
    from catandsl.rules.words import SPECTATOR
    from catandsl.studio.seat_view import seat_view

    g, s = room.game, room.state
    compared = 0
    for viewer in [*range(g.num_players), SPECTATOR]:
        real = _without_log(seat_view(g, s, [], viewer, "t"))
        deals = range(g.num_players) if viewer == SPECTATOR else [viewer]
        for seat in deals:
            for _ in range(2):
                other = resample(s, seat, rng)
                if other.is_chance_node() != s.is_chance_node():
                    # the engine rolls by itself when the player holds no card to play
                    # before the dice, so whose move it is tells that much: the engine's
                    # turn flow, which no view can hide
                    continue
                assert _without_log(seat_view(g, other, [], viewer, "t")) == real, (viewer, s.turns)
                compared += 1
    return compared


def test_no_seat_and_no_spectator_sees_what_it_may_not(folder):
    rng = random.Random(3)
    with client_for(folder) as c:
        made = host(c, seats=("human", "human", "greedy"), seed=5)
        room = room_of(c, made)
        checked = 0
        for n in range(MAX_MOVES):  # played in the server's room directly: the views are what is checked
            while room.bot_step():
                pass
            if room.state.is_terminal():
                break
            if len(room.actions) % 17 == 0 or (room.state.pending and n % 3 == 0):
                checked += _views_agree_with_every_deal_the_viewer_cannot_tell_apart(room, rng)
            seat = room.state.current_player()
            room.act(seat, move_for(room, seat, rng))
        assert room.state.is_terminal() and checked > 100
        # the log: a secret (a card drawn, a card stolen) reads veiled to every seat but its own
        secrets = [e for e in room.entries if e.get("readers") is not None]
        assert secrets, "the game had no secret in its log: the test shows nothing"
        views = {p: c.get(f"/api/rooms/{token(made, p)}").json() for p in range(3)}
        views[-1] = c.get(f"/api/rooms/{made['watch']}").json()
        for e in secrets:
            for viewer, v in views.items():
                text = f"{e['who']}: {e['text']}"
                if viewer not in e["readers"] and e["text"] != e["veiled"]:
                    assert text not in v["log"], (viewer, text)
        spectator = views[-1]
        assert all(p["hand"] is None and p["cards"] is None for p in spectator["players"])
        assert [p["points"] for p in spectator["players"]] == [room.state.public_points(p) for p in range(3)]
        for p in range(3):
            mine = views[p]["players"]
            assert mine[p]["hand"] is not None and all(q["hand"] is None for q in mine if q["seat"] != p)


# ---- the WebSockets ----------------------------------------------------------------------------


def _next_view(ws, after: int) -> dict:
    """The first view past version `after` (pages also get views when someone comes or goes)."""
    for _ in range(200):
        msg = ws.receive_json()
        assert msg["type"] == "view", msg
        if msg["view"]["version"] > after:
            return msg["view"]
    raise AssertionError("no newer view came")


def test_a_move_reaches_every_page_at_once_and_an_error_only_its_sender(folder):
    with client_for(folder) as c:
        made = host(c)
        room = room_of(c, made)
        with c.websocket_connect(f"{WS}/api/rooms/{token(made, 0)}/live") as a, \
                c.websocket_connect(f"{WS}/api/rooms/{token(made, 1)}/live") as b, \
                c.websocket_connect(f"{WS}/api/rooms/{made['watch']}/live") as w:
            first = a.receive_json()["view"]
            assert first["seat"] == 0
            version = room.version
            to_move = room.state.current_player()
            mover, waiter = (a, b) if to_move == 0 else (b, a)
            # the waiting seat sends the mover's move: the engine's refusal, to the waiting seat alone
            aid = room.state.legal_actions()[0]
            waiter.send_json({"type": "act", "action": aid})
            for _ in range(10):
                msg = waiter.receive_json()
                if msg["type"] == "error":
                    break
            assert msg["error"]["code"] == "action/not_your_turn"
            assert room.version == version
            mover.send_json({"type": "act", "action": aid})
            seen = [_next_view(ws, version) for ws in (a, b, w)]
            assert {v["seat"] for v in seen} == {0, 1, -1}
            assert all(f"P{to_move + 1}:" in "\n".join(v["log"]) for v in seen)
            # junk on the socket: a typed error, the socket stays open
            a.send_text("not json")
            for _ in range(50):
                msg = a.receive_json()
                if msg["type"] == "error":
                    break
            assert msg["error"]["code"] == "body/json"
            a.send_json({"type": "view"})
            assert _next_view(a, -1)["seat"] == 0


def test_a_websocket_from_another_host_or_origin_is_refused(folder):
    with client_for(folder) as c:
        made = host(c)
        with pytest.raises(WebSocketDisconnect):
            with c.websocket_connect(f"ws://testserver/api/rooms/{token(made, 0)}/live") as ws:
                ws.receive_json()
        with pytest.raises(WebSocketDisconnect):
            with c.websocket_connect(f"{WS}/api/rooms/{token(made, 0)}/live",
                                     headers={"origin": "http://evil.example"}) as ws:
                ws.receive_json()
        with c.websocket_connect(f"{WS}/api/rooms/{'y' * 24}/live") as ws:
            assert ws.receive_json()["error"]["code"] == "room/unknown"


# ---- bots, restarts, replays -------------------------------------------------------------------


def test_the_host_hands_a_seat_to_a_bot_and_back(folder):
    with client_for(folder) as c:
        made = host(c)
        room = room_of(c, made)
        assert err(c.post(f"/api/rooms/{token(made, 0)}/seats", json={"seat": 1, "player": "greedy"}))["code"] == \
            "room/not_host"
        assert err(c.post(f"/api/rooms/{made['host']}/seats", json={"seat": 1, "player": "hal"}))["code"] == \
            "request/seats"
        r = c.post(f"/api/rooms/{made['host']}/seats", json={"seat": 1, "player": "greedy"})
        assert r.status_code == 200 and r.json()["seats"][1]["player"] == "greedy"
        # only seat 0 is a person now: the bots play every other move
        play_on(c, made, moves=6)
        assert room.state.current_player() == 0 or room.state.is_terminal()
        aid = room.state.legal_actions()[0]
        assert err(c.post(f"/api/rooms/{token(made, 1)}/act", json={"action": aid}))["code"] == "seat/bot"
        c.post(f"/api/rooms/{made['host']}/seats", json={"seat": 1, "player": "human"})
        assert c.get(f"/api/rooms/{token(made, 1)}").json()["players"][1]["bot"] is None


def test_a_game_survives_a_restart_and_is_replayed_once_over(folder):
    with client_for(folder) as c:
        made = host(c, seed=4)
        play_on(c, made, moves=30)
        before = {t: c.get(f"/api/rooms/{t}").json() for t in (token(made, 0), token(made, 1), made["watch"])}
        room = room_of(c, made)
        state = room.state.serialize()
        assert err(c.post(f"/api/rooms/{token(made, 0)}/replay"))["code"] == "room/not_over"
    assert (folder / ".catandsl" / "studio.sqlite3").exists()
    with client_for(folder) as c:  # a fresh app on the same folder: nothing in memory
        assert not c.app.state.live.rooms._held
        after = {t: c.get(f"/api/rooms/{t}").json() for t in before}
        assert after == before
        assert room_of(c, made).state.serialize() == state
        play_on(c, made)  # and it plays on to its end
        room = room_of(c, made)
        assert room.state.is_terminal()
        r = c.post(f"/api/rooms/{made['watch']}/replay")
        assert r.status_code == 200, r.text
        last = c.get(f"/api/replays/{r.json()['id']}/{len(room.actions)}").json()
        assert last["result"].startswith("winner: P")
    with client_for(folder) as c:  # the finished game too
        v = c.get(f"/api/rooms/{made['watch']}").json()
        assert v["over"] and v["actions_applied"] == len(room.actions)


def test_a_studio_nobody_hosts_in_writes_nothing_into_its_folder(folder):
    with client_for(folder) as c:
        assert err(c.get("/api/rooms/" + "z" * 24))["code"] == "room/unknown"
        assert c.get("/room").status_code == 200
    assert not (folder / ".catandsl").exists()
    assert json.dumps(sorted(p.name for p in folder.iterdir()))  # the folder is as made


def _bots_game(folder, restart_after: int | None) -> list[int]:
    """A game of one person (a seeded greedy player reading the server's state) and two
    greedy bots to its end, the server restarted once after the person's
    `restart_after`-th move; the actions applied."""
    from catandsl.players import make_bot

    person = make_bot("greedy", 11)
    c = client_for(folder)
    c.__enter__()
    made = host(c, seats=("human", "greedy", "greedy"), seed=3)
    for n in range(MAX_MOVES):
        room = room_of(c, made)
        if room.state.is_terminal():
            break
        if n == restart_after:
            c.__exit__(None, None, None)
            c = client_for(folder)  # a fresh app on the same folder: the bots made anew
            c.__enter__()
            room = room_of(c, made)
        assert room.state.current_player() == 0
        r = c.post(f"/api/rooms/{token(made, 0)}/act", json={"action": person.choose(room.state.clone())})
        assert r.status_code == 200, r.text[:300]
    actions = list(room_of(c, made).actions)
    c.__exit__(None, None, None)
    return actions


def test_bots_play_after_a_restart_as_if_there_was_none(tmp_path):
    whole = _bots_game(make_folder(tmp_path / "a"), None)
    restarted = _bots_game(make_folder(tmp_path / "b"), 25)
    assert len(whole) > 100  # (the restart came mid-game, with bots' moves after it)
    assert restarted == whole


def _stored_bytes(folder) -> bytes:
    """Every file of the studio's database (the database, its write-ahead log)."""
    data = folder / ".catandsl"
    return b"".join(p.read_bytes() for p in sorted(data.iterdir()) if p.name.startswith("studio.sqlite3"))


def test_the_database_holds_no_token_and_the_links_open_their_seats_after_a_restart(folder):
    with client_for(folder) as c:
        made = host(c)
        tokens = [made["host"], made["watch"]] + [s["token"] for s in made["seats"]]
        play_on(c, made, moves=3)
        stored = _stored_bytes(folder)
        for t in tokens:
            assert t.encode() not in stored
        key = folder / ".catandsl" / "studio.key"
        assert key.exists() and key.stat().st_mode & 0o077 == 0  # the key: its owner's alone
    with client_for(folder) as c:  # after a restart: the same links, each its seat's
        v = c.get(f"/api/rooms/{made['host']}").json()
        assert [s["token"] for s in v["links"]["seats"]] == tokens[2:] and v["links"]["watch"] == tokens[1]
        assert c.get(f"/api/rooms/{token(made, 1)}").json()["role"] == "seat"
        assert c.get(f"/api/rooms/{token(made, 1)}").json()["seat"] == 1
        assert err(c.get(f"/api/rooms/{token(made, 1)[:-1]}x"))["code"] == "room/unknown"
    (folder / ".catandsl" / "studio.key").unlink()  # the database without its key opens no seat
    with client_for(folder) as c:
        assert err(c.get(f"/api/rooms/{token(made, 1)}"))["code"] == "room/unknown"


def test_an_older_database_with_tokens_in_clear_keeps_only_their_hmacs(folder):
    import sqlite3

    from catandsl.studio.store import Store

    data = folder / ".catandsl"
    data.mkdir()
    clear = "Q" * 28
    db = sqlite3.connect(data / "studio.sqlite3")
    db.executescript("CREATE TABLE games (id TEXT PRIMARY KEY, ref TEXT NOT NULL, players INTEGER NOT NULL, "
                     "options TEXT NOT NULL, seed INTEGER NOT NULL, seats TEXT NOT NULL, created INTEGER NOT NULL);"
                     "CREATE TABLE tokens (token TEXT PRIMARY KEY, game TEXT NOT NULL, seat INTEGER NOT NULL);")
    db.execute("INSERT INTO games VALUES ('g1', 'dir:island.catan', 3, '{}', 2, '[\"human\",\"human\",\"greedy\"]', 0)")
    db.execute("INSERT INTO tokens VALUES (?, 'g1', 1)", (clear,))
    db.commit()
    db.close()
    store = Store(folder)
    assert store.token(clear) == ("g1", 1)  # the old link still opens its seat
    store.close()
    assert clear.encode() not in _stored_bytes(folder)


def test_cards_chosen_together_are_applied_together_or_not_at_all(folder):
    from tests.studio.pages import owe_a_discard

    with client_for(folder) as c:
        made = host(c, seats=("human", "greedy", "greedy"), seed=5, ref="shipped:base")
        room = room_of(c, made)
        owe_a_discard(room, 0)
        while room.bots_to_move():  # (a bot owing a discard too may come first)
            room.bot_step()
        view = c.get(f"/api/rooms/{token(made, 0)}").json()
        need = view["by_card"]["count"]
        g = room.game
        assert view["by_card"]["kind"] == "discard" and need == sum(room.state.hands[0]) // 2
        ids = {g.actions[a].resource: a for a in room.state.legal_actions(0) if g.actions[a].KIND == "discard"}
        chosen = [ids[r] for r, n in zip(g.resources, room.state.hands[0]) for _ in range(n)][:need]
        before, logged = room.state.serialize(), len(room.entries)
        bad = chosen[:-1] + [g.action_id[next(a for a in g.actions if a.KIND == "end_turn")]]
        for body, code in (({"actions": bad}, "action/not_legal"), ({"actions": []}, "request/value"),
                           ({"actions": chosen + ["x"]}, "request/value")):
            r = c.post(f"/api/rooms/{token(made, 0)}/act", json=body)
            assert err(r)["code"] == code and room.state.serialize() == before and len(room.entries) == logged
        assert err(c.post(f"/api/rooms/{token(made, 1)}/act", json={"actions": chosen}))["code"] == "seat/bot"
        assert err(c.post(f"/api/rooms/{made['watch']}/act", json={"actions": chosen}))["code"] == "seat/none"
        assert room.state.serialize() == before
        r = c.post(f"/api/rooms/{token(made, 0)}/act", json={"actions": chosen})
        assert r.status_code == 200, r.text[:300]
        done = room.entries[logged:logged + need]
        assert [(e["player"], e["kind"]) for e in done] == [(0, "discard")] * need
