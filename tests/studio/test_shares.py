"""One client cannot starve or evict the others: games held per client, requests per
client at once, compiles in worker processes taking turns by client and bounded in
CPU time, a listing that compiles a bounded number of files, bodies bounded in values;
and no answer holds an absolute path of the server's.

Everything is bounded and checked by counts (jobs started, games held); the watchdog
only catches a hang."""

from __future__ import annotations

import asyncio
import json
import shutil
import threading

import pytest
from starlette.testclient import TestClient

from catandsl.studio import workers
from catandsl.studio.app import create_app
from catandsl.studio.clients import BACKGROUND, COOKIE, RUNNING, WAITING, Gate, current_client
from catandsl.studio.errors import StudioError
from catandsl.studio.play import MATCHES_PER_CLIENT, MAX_MATCHES
from catandsl.studio.web import MAX_VALUES
from tests.studio.helpers import ROOT, error_of, make_folder
from tests.watchdog import no_hang

HANG = 300.0


def as_client(name: str) -> dict[str, str]:
    """The headers of a browser holding the studio's token `name` (padded to a token's length)."""
    return {"cookie": f"{COOKIE}={name:_<22}"}


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    path = make_folder(tmp_path_factory.mktemp("shares") / "maps")
    island = (path / "island.catan").read_text(encoding="utf-8")
    (path / "missing_import.catan").write_text(island.replace("uses base", 'uses base\n  import "nowhere.catan"', 1),
                                               encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def client(folder):
    with TestClient(create_app(folder, watch=False), base_url="http://127.0.0.1:8000",
                    raise_server_exceptions=False) as c:
        yield c


def new_game(client, who: str) -> str:
    r = client.post("/api/games", json={"ref": "dir:island.catan", "players": 2, "seed": 2},
                    headers=as_client(who))
    assert r.status_code == 200, r.text[:300]
    return r.json()["id"]


# ---- games per client -----------------------------------------------------------------------------


def test_one_client_making_games_never_evicts_anothers(client):
    mine = new_game(client, "patient")
    theirs = [new_game(client, "greedy") for _ in range(MAX_MATCHES + 1)]
    assert client.get(f"/api/games/{mine}", headers=as_client("patient")).status_code == 200
    held = [g for g in theirs if client.get(f"/api/games/{g}").status_code == 200]
    assert held == theirs[-MATCHES_PER_CLIENT:]  # its own least recently used went first
    # many clients together: the least recently used of the one holding most goes first
    others = [new_game(client, f"other{k}") for k in range(MAX_MATCHES - MATCHES_PER_CLIENT)]
    assert client.get(f"/api/games/{mine}").status_code == 200
    assert all(client.get(f"/api/games/{g}").status_code == 200 for g in others[1:])
    assert len(client.app.state.studio.matches.held) == MAX_MATCHES


# ---- requests per client ---------------------------------------------------------------------------


def test_a_clients_requests_past_its_share_wait_then_are_refused():
    async def scenario():
        gate = Gate()
        release = asyncio.Event()
        inside: list[str] = []

        async def request(client: str) -> str:
            try:
                async with gate.admit(client):
                    inside.append(client)
                    await release.wait()
                return "done"
            except StudioError as e:
                return e.code

        flood = [asyncio.create_task(request("flood")) for _ in range(RUNNING + WAITING + 3)]
        await asyncio.sleep(0)
        other = asyncio.create_task(request("other"))
        for _ in range(5):
            await asyncio.sleep(0)
        assert inside.count("flood") == RUNNING and "other" in inside  # the other client is not behind the flood
        release.set()
        return [await t for t in flood], await other

    flood, other = asyncio.run(scenario())
    assert flood.count("done") == RUNNING + WAITING and flood.count("request/busy") == 3 and other == "done"


# ---- compiles -------------------------------------------------------------------------------------


def test_a_listing_waits_for_no_compile(tmp_path):
    """The first listing answers before any compile: every file `pending`, compiled in
    the background, each once; the listings after it fill in."""
    folder = make_folder(tmp_path / "many")
    for k in range(6):
        shutil.copy(folder / "island.catan", folder / f"copy{k:02d}.catan")
    with no_hang(HANG, "listing"), TestClient(create_app(folder, watch=False), base_url="http://127.0.0.1:8000") as c:
        library = c.app.state.studio.library
        first = c.get("/api/scenarios").json()
        rows = first["files"] + first["shipped"]
        assert all(r["pending"] for r in rows)
        for _ in range(2000):  # a bound on the polls, not a speed
            data = c.get("/api/scenarios").json()
            if not any(r.get("pending") for r in data["files"] + data["shipped"]):
                break
            threading.Event().wait(0.05)
        assert library.compiles == len(rows)  # each file compiled once
        assert all(r["ok"] for r in data["files"] if r["label"].startswith("copy"))
        assert c.get("/api/scenarios").json() == data


class _HeldWorker:
    """A worker that answers when the test lets it (the pool's order of jobs is what is tested)."""

    started: list[str] = []
    gates: dict[str, threading.Event] = {}

    def __init__(self) -> None:
        self.alive = True

    def run(self, name, cwd, args):
        who = current_client.get()
        _HeldWorker.started.append(who)
        _HeldWorker.gates.setdefault(who, threading.Event()).wait(60)
        return who

    def kill(self) -> None:
        self.alive = False


def test_compile_jobs_take_turns_by_client(monkeypatch):
    """One worker; a client with a job running and another waiting, then the
    background's and a second client's: the second client goes first, then the first
    client's second job, the background's last."""
    monkeypatch.setattr(workers, "_Worker", _HeldWorker)
    _HeldWorker.started, _HeldWorker.gates = [], {}
    pool = workers.Pool(size=1)

    def job(who: str) -> None:
        current_client.set(who)
        pool.run("compile", ROOT, "x")

    def waiting(n: int) -> None:
        for _ in range(2000):
            if len(pool._waiting) == n:
                return
            threading.Event().wait(0.01)
        raise AssertionError("the jobs did not queue")

    threads = [threading.Thread(target=job, args=("flood",))]
    threads[0].start()
    while not _HeldWorker.started:
        threading.Event().wait(0.01)
    threads.append(threading.Thread(target=job, args=("flood",)))
    threads[-1].start()
    waiting(1)
    threads.append(threading.Thread(target=job, args=(BACKGROUND,)))
    threads[-1].start()
    waiting(2)
    threads.append(threading.Thread(target=job, args=("other",)))
    threads[-1].start()
    waiting(3)
    for who in ("flood", "other", BACKGROUND):
        _HeldWorker.gates.setdefault(who, threading.Event()).set()
    for t in threads:
        t.join(60)
    assert _HeldWorker.started == ["flood", "other", "flood", BACKGROUND]


def test_a_compile_past_its_cpu_bound_is_a_typed_answer(tmp_path, monkeypatch):
    folder = make_folder(tmp_path / "costly")
    monkeypatch.setattr(workers, "CPU_SECONDS", 0.001)  # a compile of anything needs more
    with no_hang(HANG, "a compile past its bound"), \
            TestClient(create_app(folder, watch=False), base_url="http://127.0.0.1:8000") as c:
        err = error_of(c.get("/api/author", params={"ref": "dir:island.catan"}), 422)
        assert err["code"] == "scenario/too_costly"
        for _ in range(2000):  # a bound on the polls, not a speed
            row = next(r for r in c.get("/api/scenarios").json()["files"] if r["ref"] == "dir:island.catan")
            if not row.get("pending"):
                break
            threading.Event().wait(0.05)
        assert row["ok"] is False and row["problem"] == "scenario/too_costly"
        err = error_of(c.post("/api/games", json={"ref": "dir:island.catan"}), 422)
        assert err["code"] == "scenario/too_costly"  # kept until the file changes: not compiled again
        assert c.get("/api/author", params={"ref": "dir:growing.catan"}).json()["error"]["code"] == \
            "scenario/too_costly"
        monkeypatch.setattr(workers, "CPU_SECONDS", 30.0)  # the workers live on: a file compiles
        (folder / "fresh.catan").write_text((folder / "island.catan").read_text(encoding="utf-8"), encoding="utf-8")
        r = c.get("/api/author", params={"ref": "dir:fresh.catan"})
        assert r.json().get("svg"), r.text[:500]


# ---- bodies ---------------------------------------------------------------------------------------


def test_a_body_of_too_many_values_is_refused_before_any_work(client):
    library = client.app.state.studio.library
    jobs = library.compiles
    with no_hang(HANG, "a body of many values"):
        save = {"format": "catandsl-studio-game", "version": 1, "scenario": "dir:island.catan", "players": 2,
                "options": {}, "seed": 2, "seat": 0, "bots": ["greedy", "greedy"],
                "actions": [0] * MAX_VALUES, "state": "{}"}
        err = error_of(client.post("/api/games/resume", json=save), 413)
        assert err["code"] == "body/too_large"
        err = error_of(client.post("/api/games", json={"ref": "dir:island.catan",
                                                       "options": {f"o{i}": "x" for i in range(MAX_VALUES)}}), 413)
        assert err["code"] == "body/too_large"
    assert library.compiles == jobs  # nothing compiled


# ---- paths ----------------------------------------------------------------------------------------


def test_no_answer_holds_a_path_of_the_server(client, folder):
    """Diagnostics name files under the served folder by their path there; nothing the
    studio answers holds the folder's absolute path or catandsl's own."""
    answers = [client.get("/api/author", params={"ref": "dir:broken.catan"}),
               client.get("/api/author", params={"ref": "dir:missing_import.catan"}),
               client.post("/api/games", json={"ref": "dir:broken.catan"}),
               client.get("/api/scenarios"),
               client.get("/api/author", params={"ref": "shipped:base"})]
    for r in answers:
        text = r.text
        for path in {str(folder), str(folder.resolve()), str(ROOT), str(ROOT.resolve())}:
            assert path not in text, (r.url, path)
    (d,) = answers[0].json()["diagnostics"]
    assert d["text"].startswith("broken.catan:16:") and d["span"]["file"] == "broken.catan"
    missing = next(d for d in answers[1].json()["diagnostics"] if d["code"] == "E0202")
    assert missing["file"] == "missing_import.catan" and "nowhere.catan" in missing["help"]
    assert json.dumps(answers[2].json()["error"]["diagnostics"]).count('"file": "broken.catan"') == 1


def test_a_player_count_of_0_is_refused_as_the_engine_refuses_it(client):
    """0 players is no count (the engine's new_game refuses it), not "the most"."""
    for body in ({"ref": "dir:island.catan", "players": 0}, {"ref": "dir:island.catan", "players": 9},
                 {"ref": "dir:island.catan", "players": -1}):
        assert error_of(client.post("/api/games", json=body))["code"] == "request/value"
    err = error_of(client.post("/api/replays", json={"log": "P1: builds", "ref": "dir:island.catan", "players": 0}))
    assert err["code"] == "request/value"
    assert client.post("/api/games", json={"ref": "dir:island.catan"}).json()["players"].__len__() == 3
