"""The studio's web application (Starlette): four pages, their static files, and a JSON
API the pages call.

Every API answer is JSON; every error a user can cause is `{"error": {"code",
"message"}}` with a 4xx status (errors.py), and anything else is a typed
`studio/internal` error, its traceback only in the server's log. Request bodies are
JSON of at most `MAX_BODY` bytes and `MAX_VALUES` values, read in a worker thread (web.py); a
request whose Host is not the server's own is refused (so a web page elsewhere cannot
reach a loopback server through DNS rebinding); scenarios are named by references
(library.py), never paths, and no answer holds an absolute path of the server's.

No request can starve the others (clients.py): each client has its share of requests
at once and of games held; compiles run in worker processes, bounded in CPU time
(workers.py); a listing never waits for one (library.py).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import Callable
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import JSONResponse, Response, StreamingResponse
from starlette.routing import BaseRoute, Mount, Route
from starlette.staticfiles import StaticFiles

from catandsl.studio.clients import Gate, client_of, current_client
from catandsl.studio.errors import StudioError, error_body
from catandsl.studio.library import Library
from catandsl.studio.play import Matches
from catandsl.studio.replays import Replays
from catandsl.studio.watch import Watcher
from catandsl.studio.web import HEADERS, MAX_OPTIONS, _body_options, _field, _players, _seed, page, read_json

HERE = Path(__file__).resolve().parent
# path -> (the view: its body in pages/VIEW.html and its script static/VIEW.js, the title)
PAGES = {"/": ("list", "scenarios"), "/author": ("author", "author"), "/play": ("play", "play"),
         "/replay": ("replay", "replay")}
LOOPBACK = ("127.0.0.1", "localhost", "::1", "[::1]")
log = logging.getLogger("catandsl.studio")


class Studio:
    """What the endpoints share: the folder's scenarios, the games, the replays."""

    def __init__(self, root: Path):
        self.library = Library(root)
        self.matches = Matches(self.library)
        self.replays = Replays()
        self.watcher = Watcher(self.library.root, self.library.folders)
        self.gate = Gate()


# ---- reading requests ------------------------------------------------------------------------


def _int(value: str | None, name: str, lo: int, hi: int) -> int | None:
    if value is None or value == "":
        return None
    try:
        n = int(value)
    except ValueError:
        raise StudioError("request/value", f"{name} is a whole number, not {value[:40]!r}") from None
    if not lo <= n <= hi:
        raise StudioError("request/value", f"{name} is from {lo} to {hi}")
    return n


def _options(pairs: list[str]) -> dict[str, str]:
    if len(pairs) > MAX_OPTIONS:
        raise StudioError("request/value", f"at most {MAX_OPTIONS} options")
    out = {}
    for p in pairs:
        name, eq, item = p.partition("=")
        if not eq or not name:
            raise StudioError("request/value", f"an option is NAME=ITEM, not {p[:40]!r}")
        out[name] = item
    return out


def _answer(request: Request, e: Exception) -> JSONResponse:
    status, body = error_body(e)
    return JSONResponse(_studio(request).library.public(body), status_code=status, headers=HEADERS)


def api(fn: Callable[..., Any], body: bool = False):
    """An endpoint: `fn(request, body)` run in a worker thread (it compiles and plays)
    when the client's turn comes (clients.Gate), its result as JSON without the server's
    paths, any exception as a typed error."""

    async def endpoint(request: Request) -> Response:
        client = client_of(request.cookies, request.client.host if request.client else None)
        current_client.set(client)  # the worker thread runs in a copy of this context
        try:
            async with _studio(request).gate.admit(client):
                data = await read_json(request) if body else {}
                result = await run_in_threadpool(fn, request, data)
        except Exception as e:  # noqa: BLE001 - every failure is a typed answer
            return _answer(request, e)
        if isinstance(result, Response):
            return result
        return JSONResponse(_studio(request).library.public(result), headers=HEADERS)

    return endpoint


# ---- the endpoints ---------------------------------------------------------------------------------


def _studio(request: Request) -> Studio:
    return request.app.state.studio


def scenarios(request: Request, _: dict) -> dict:
    """The folder's files and the shipped scenarios, each summarised, or `pending` while
    compiled in the background (the page asks again)."""
    lib = _studio(request).library
    mine, shipped = lib.entries()
    return {"folder": lib.root.name + "/", "files": [lib.listed(e) for e in mine],
            "shipped": [lib.listed(e) for e in shipped]}


def author(request: Request, _: dict) -> dict:
    from catandsl.studio.author import MAX_SEED, author_view

    studio = _studio(request)
    q = request.query_params
    entry = studio.library.resolve(q.get("ref"))
    players = _int(q.get("players"), "players", 1, 8)
    seed = _int(q.get("seed"), "seed", 0, MAX_SEED)
    return author_view(studio.library, entry, players, _options(q.getlist("option")), 1 if seed is None else seed)


def new_game(request: Request, body: dict) -> dict:
    ref = _field(body, "ref", str)
    players = _players(body)
    seed = _seed(body)
    seat = _field(body, "seat", int, 0)
    bots = _field(body, "bots", (list, str), "greedy")
    if isinstance(bots, list) and not all(isinstance(b, str) for b in bots):
        raise StudioError("request/field", "'bots' is a bot name or a list of them, one per seat")
    t = _studio(request).matches.new(ref, players, _body_options(body), seed, seat, bots)
    with t.lock:
        return t.view()


def game_view(request: Request, _: dict) -> dict:
    t = _studio(request).matches.get(request.path_params["gid"])
    with t.lock:
        t.catch_up()
        return t.view()


def game_act(request: Request, body: dict) -> dict:
    t = _studio(request).matches.get(request.path_params["gid"])
    with t.lock:
        t.catch_up()
        if "action" in body:
            t.act(_field(body, "action", int))
        elif "actions" in body:  # several confirmed at once (a discard's cards)
            ids = _field(body, "actions", list)
            if not all(isinstance(i, int) and not isinstance(i, bool) for i in ids):
                raise StudioError("request/field", "'actions' is a list of action ids")
            t.act_all(ids)
        elif "site" in body:
            site = _field(body, "site", dict)
            kind, at = site.get("kind"), site.get("at")
            if not isinstance(kind, str) or not isinstance(at, int) or isinstance(at, bool):
                raise StudioError("request/field", "'site' is {\"kind\": hex|intersection|path, \"at\": N}")
            t.click(kind, at)
        else:
            raise StudioError("request/field", "give 'action' (an id), 'actions' (ids) or 'site'")
        return t.view()


def game_save(request: Request, _: dict) -> Response:
    t = _studio(request).matches.get(request.path_params["gid"])
    with t.lock:
        data = t.save()
    name = "".join(c if c.isalnum() else "-" for c in t.scenario.name) or "game"
    return JSONResponse(data, headers={**HEADERS, "Content-Disposition": f'attachment; filename="{name}.game.json"'})


def game_resume(request: Request, body: dict) -> dict:
    t = _studio(request).matches.resume(body)
    with t.lock:
        return t.view()


def new_replay(request: Request, body: dict) -> dict:
    """A replay of a studio game (`game`: its id), a saved game (`save`), or a `play
    --log` text (`log`, with `ref`, and `players`, `options`, `seed` as played)."""
    from catandsl.rules.words import EVERYONE
    from catandsl.studio.replays import match_log, parse_log, seats_in_log

    studio = _studio(request)
    viewer = EVERYONE  # a saved game or a log: its file holds every secret already
    if "game" in body:
        t = studio.matches.get(body["game"])
        with t.lock:
            actions, entries, game, title = list(t.actions), list(t.entries), t.game, t.scenario.title
            viewer = t.seat  # the person's replay of their own game shows what their seat saw
    elif "save" in body:
        saved = studio.matches.read_save(body["save"])
        if not saved.actions and saved.data["actions"]:
            raise StudioError("save/actions", "the saved game's actions do not lead to its saved state")
        actions, entries, game, title = saved.actions, saved.entries, saved.game, saved.scenario.title
    elif "log" in body:
        text = _field(body, "log", str)
        steps = parse_log(text)
        players = _players(body) or seats_in_log(text) or None
        _, scenario, game = studio.matches.game_for(_field(body, "ref", str), players, _body_options(body),
                                                   _seed(body))
        if len(steps) > game.max_game_length():
            raise StudioError("log/format", "the log has more actions than a game of this scenario can")
        actions, entries = match_log(game, steps)
        title = scenario.title
    else:
        raise StudioError("request/field", "give 'game', 'save' or 'log'")
    return studio.replays.add(title, game, actions, entries, viewer).frame(0)


def replay_frame(request: Request, _: dict) -> dict:
    replay = _studio(request).replays.get(request.path_params["rid"])
    step = _int(request.path_params["step"], "step", 0, 1 << 30)
    assert step is not None
    return replay.frame(step)


async def events(request: Request) -> Response:
    """Server-sent events: `{"changed": [paths under the folder]}` when .catan files change."""
    watcher = _studio(request).watcher
    queue = watcher.listen()

    async def stream():
        try:
            yield "retry: 1000\n\n"
            while not watcher.stop.is_set():
                try:
                    changed = await asyncio.wait_for(queue.get(), 10)
                except TimeoutError:
                    yield ": still here\n\n"
                    continue
                yield f"data: {json.dumps({'changed': changed})}\n\n"
        finally:
            watcher.forget(queue)

    return StreamingResponse(stream(), media_type="text/event-stream", headers=HEADERS)


async def not_found(request: Request, exc: Exception) -> Response:
    status = getattr(exc, "status_code", 404)
    code = "request/method" if status == 405 else "request/not_found"
    message = "that method is not allowed here" if status == 405 else f"nothing at {request.url.path[:200]}"
    return JSONResponse({"error": {"code": code, "message": message}}, status_code=status, headers=HEADERS)


class HostCheck:
    """Refuse requests addressed to another host than the server's (DNS rebinding)."""

    def __init__(self, app, hosts: frozenset[str] | None):
        self.app, self.hosts = app, hosts

    async def __call__(self, scope, receive, send):
        if scope["type"] == "http" and self.hosts is not None:
            host = dict(scope["headers"]).get(b"host", b"").decode("latin-1")
            name = host.rsplit(":", 1)[0] if not host.endswith("]") else host
            if name.lower() not in self.hosts:
                response = JSONResponse({"error": {"code": "request/host", "message": "this server answers for "
                                                   "its own address only"}}, status_code=400, headers=HEADERS)
                await response(scope, receive, send)
                return
        await self.app(scope, receive, send)


def create_app(root: Path, host: str = "127.0.0.1", watch: bool = True) -> Starlette:
    """The studio for the folder `root`, answering for `host` (and the loopback names)."""
    from catandsl.studio.live import Live

    studio = Studio(root)
    wildcard = host in ("0.0.0.0", "::", "")
    hosts = None if wildcard else frozenset({host.lower(), *LOOPBACK})
    live = Live(studio, hosts)

    @contextlib.asynccontextmanager
    async def lifespan(app):
        task = asyncio.create_task(studio.watcher.run()) if watch else None
        try:
            yield
        finally:
            studio.library.close()
            live.close()
            studio.watcher.stop.set()
            if task is not None:
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await asyncio.wait_for(task, 5)

    routes: list[BaseRoute] = [Route(path, page(view, title)) for path, (view, title) in PAGES.items()]
    routes.append(Route("/favicon.ico", lambda request: Response(status_code=204)))
    routes += [
        Route("/api/scenarios", api(scenarios)),
        Route("/api/author", api(author)),
        Route("/api/events", events),
        Route("/api/games", api(new_game, body=True), methods=["POST"]),
        Route("/api/games/resume", api(game_resume, body=True), methods=["POST"]),
        Route("/api/games/{gid}", api(game_view)),
        Route("/api/games/{gid}/act", api(game_act, body=True), methods=["POST"]),
        Route("/api/games/{gid}/save", api(game_save)),
        Route("/api/replays", api(new_replay, body=True), methods=["POST"]),
        Route("/api/replays/{rid}/{step}", api(replay_frame)),
        Mount("/static", StaticFiles(directory=HERE / "static"), name="static"),
    ]
    routes += live.routes()  # games with several people (live.py)
    app = Starlette(routes=routes, lifespan=lifespan, exception_handlers={HTTPException: not_found})
    app.state.studio = studio
    app.state.live = live
    app.add_middleware(HostCheck, hosts=hosts)
    return app


def listen(host: str, port: int):
    """A listening socket on host:port (port 0: any free one); OSError when it cannot."""
    import socket

    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((host, port))
        sock.listen(128)
    except OSError:
        sock.close()
        raise
    return sock


def server(app, sock):
    """A uvicorn server for the app on the socket (run it with `.run(sockets=[sock])`)."""
    import uvicorn

    config = uvicorn.Config(app, log_level="warning", timeout_graceful_shutdown=2, lifespan="on")
    return uvicorn.Server(config)


def serve(root: Path, host: str = "127.0.0.1", port: int = 8000) -> None:
    """Serve the studio until interrupted; OSError when the address cannot be had."""
    sock = listen(host, port)
    app = create_app(root, host)
    bound = sock.getsockname()[1]
    shown = f"[{host}]" if ":" in host else host
    print(f"catandsl studio: serving {root} on http://{shown}:{bound}/ (Ctrl+C stops)", flush=True)
    server(app, sock).run(sockets=[sock])
