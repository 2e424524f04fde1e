"""Hosted games over the network: the routes, and the WebSockets (Starlette's own) that
bring every move to every page at once.

- `POST /api/rooms` hosts a game (`ref`, `players`, `options`, `seed`, `seats`: who
  plays each seat, `human` or a bot) and answers its tokens: `host`, `watch` (the
  spectators') and one per seat. A page opens `/room?t=TOKEN`.
- `GET /api/rooms/{token}`: the token's page as JSON (a seat's view, a spectator's,
  or the host's: a spectator's view and the links).
- `POST /api/rooms/{token}/act` `{"action": id}`, `{"actions": [ids]}` (cards chosen
  together, all or none applied) or `{"site": {"kind", "at"}}`: a move for the token's
  seat.
- `POST /api/rooms/{token}/seats` `{"seat": n, "player": "human"|bot}`: the host hands
  a seat to a bot or back to a person.
- `POST /api/rooms/{token}/replay`: a replay of the game once it is over.
- `WS /api/rooms/{token}/live`: the token's view now and after every change
  (`{"type": "view", "view": ...}`); moves sent on it (`{"type": "act", ...}`) are
  answered with an error to the sender alone (`{"type": "error", "error": ...}`) or
  with the new views to everyone.

After a person's move the bots and the dice move one action at a time (`Hub.settle`),
each shown to every page, `pause` seconds apart, so a person can follow them.
A WebSocket is refused unless its Host is the server's own and its Origin (when the
browser sends one) is that same host, so no page elsewhere can open one.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route, WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect

from catandsl.studio.clients import client_of, current_client
from catandsl.studio.errors import StudioError, error_body
from catandsl.studio.rooms import Room, Rooms
from catandsl.studio.store import HOST, Store
from catandsl.studio.web import HEADERS, _body_options, _field, _players, _seed, read_json
from catandsl.studio.web import page as page_of

PAUSE = 0.4  # seconds between two bots' moves shown to the pages
MAX_MESSAGE = 4096  # characters of one message a page sends
MAX_WATCHERS = 64  # pages open on one game at once
SEND_SECONDS = 20.0  # a page that takes longer to take one view is closed (it reconnects if it can)
log = logging.getLogger("catandsl.studio")


class _Page:
    """One open WebSocket: its seat, and a lock so that its messages go out whole and
    in order."""

    __slots__ = ("ws", "seat", "lock")

    def __init__(self, ws: WebSocket, seat: int):
        self.ws, self.seat, self.lock = ws, seat, asyncio.Lock()


class Hub:
    """The pages open on each game, and what is sent to them."""

    def __init__(self, rooms: Rooms, pause: float = PAUSE):
        self.rooms = rooms
        self.pause = pause
        self.pages: dict[str, list[_Page]] = {}
        self._pushing: dict[str, asyncio.Lock] = {}
        self._driving: dict[str, asyncio.Lock] = {}
        self._pushed: dict[str, int] = {}  # the version each game's pages were last sent
        self.sent = 0  # views sent (the load benchmark counts them)

    def online(self, room: Room) -> list[int]:
        seats = [0] * room.game.num_players
        for page in self.pages.get(room.id, ()):
            if page.seat >= 0:
                seats[page.seat] += 1
        return seats

    def view(self, room: Room, seat: int) -> dict[str, Any]:
        out = room.view(seat, self.online(room))
        if seat == HOST:
            out["links"] = self.rooms.links(room)
        return self.rooms.library.public(out)

    async def push(self, room: Room) -> None:
        """Every page open on the room gets its view as the game stands now."""
        lock = self._pushing.setdefault(room.id, asyncio.Lock())
        async with lock:
            pages = list(self.pages.get(room.id, ()))
            if not pages:
                return
            seats = sorted({p.seat for p in pages})
            views = await run_in_threadpool(lambda: {s: self.view(room, s) for s in seats})
            self._pushed[room.id] = min(v["version"] for v in views.values())
            for page in pages:
                await self._send(page, {"type": "view", "view": views[page.seat]})

    async def _send(self, page: _Page, message: dict) -> None:
        async with page.lock:
            try:
                await asyncio.wait_for(page.ws.send_text(json.dumps(message)), SEND_SECONDS)
                self.sent += 1
            except TimeoutError:  # a page that reads nothing holds up no one: it is closed
                with contextlib.suppress(Exception):
                    await page.ws.close(code=1008)
            except Exception:  # noqa: BLE001 - a page gone away: its own loop ends it
                pass

    async def settle(self, room: Room) -> None:
        """The bots' moves and chance outcomes until a person decides or the game ends,
        each shown to the pages (`pause` apart); then, unless they have it, the pages get
        the game as it stands."""
        lock = self._driving.setdefault(room.id, asyncio.Lock())
        async with lock:
            while await run_in_threadpool(room.bot_step):
                if self.pause > 0 and self.pages.get(room.id):
                    await self.push(room)
                    await asyncio.sleep(self.pause)
        if self._pushed.get(room.id) != room.version:  # the pages have not seen the game as it stands
            await self.push(room)


class Live:
    """The hosted games of one studio: their store, rooms, hub and routes."""

    def __init__(self, studio, hosts: frozenset[str] | None, pause: float = PAUSE):
        self.studio = studio
        self.store = Store(studio.library.root)
        self.rooms = Rooms(studio.library, self.store)
        self.hub = Hub(self.rooms, pause)
        self.hosts = hosts

    def close(self) -> None:
        self.store.close()

    # ---- HTTP -----------------------------------------------------------------------------

    def endpoint(self, work, body: bool = False):
        """An HTTP endpoint: `work(request, body)` (a coroutine), in the client's turn
        (clients.Gate), any exception a typed error."""

        async def run(request: Request) -> Response:
            client = client_of(request.cookies, request.client.host if request.client else None)
            current_client.set(client)
            try:
                async with self.studio.gate.admit(client):
                    data = await read_json(request) if body else {}
                    result = await work(request, data)
            except Exception as e:  # noqa: BLE001 - every failure is a typed answer
                status, answer = error_body(e)
                return JSONResponse(self.studio.library.public(answer), status_code=status, headers=HEADERS)
            return JSONResponse(self.studio.library.public(result), headers=HEADERS)

        return run

    async def _find(self, request: Request) -> tuple[Room, int]:
        return await run_in_threadpool(self.rooms.find, request.path_params["token"])

    async def create(self, request: Request, body: dict) -> dict:
        made = await run_in_threadpool(self.rooms.create, _field(body, "ref", str), _players(body),
                                       _body_options(body), _seed(body), _field(body, "seats", list))
        room, _ = await run_in_threadpool(self.rooms.find, made["host"])
        await self.hub.settle(room)  # the bots who begin the set-up
        return made

    async def get(self, request: Request, _: dict) -> dict:
        room, seat = await self._find(request)
        return await run_in_threadpool(self.hub.view, room, seat)

    async def act(self, request: Request, body: dict) -> dict:
        room, seat = await self._find(request)
        if "action" in body:
            await run_in_threadpool(room.act, seat, body["action"])
        elif "actions" in body:
            await run_in_threadpool(room.act_all, seat, body["actions"])
        elif "site" in body and isinstance(body["site"], dict):
            await run_in_threadpool(room.click, seat, body["site"].get("kind"), body["site"].get("at"))
        else:
            raise StudioError("request/field", "give 'action' (an id) or 'site'")
        await self.hub.push(room)
        await self.hub.settle(room)
        return await run_in_threadpool(self.hub.view, room, seat)

    async def seats(self, request: Request, body: dict) -> dict:
        room, seat = await self._find(request)
        if seat != HOST:
            raise StudioError("room/not_host", "only the host's link hands seats over")
        await run_in_threadpool(room.hand_over, body.get("seat"), body.get("player"))
        await self.hub.push(room)
        await self.hub.settle(room)
        return await run_in_threadpool(self.hub.view, room, seat)

    async def replay(self, request: Request, _: dict) -> dict:
        room, _seat = await self._find(request)

        def make() -> dict:
            with room.lock:
                if not room.state.is_terminal():
                    raise StudioError("room/not_over", "a game is replayed once it is over (its replay shows "
                                      "every hand)")
                actions, entries = list(room.actions), list(room.entries)
            return {"id": self.studio.replays.add(room.scenario.title, room.game, actions, entries).id}

        return await run_in_threadpool(make)

    # ---- WebSockets -------------------------------------------------------------------------

    def _allowed(self, ws: WebSocket) -> bool:
        host = ws.headers.get("host", "")
        name = host.rsplit(":", 1)[0] if not host.endswith("]") else host
        if self.hosts is not None and name.lower() not in self.hosts:
            return False
        origin = ws.headers.get("origin")
        return origin is None or origin.partition("://")[2].lower() == host.lower()

    async def live(self, ws: WebSocket) -> None:
        if not self._allowed(ws):
            await ws.close(code=1008)
            return
        await ws.accept()
        try:
            room, seat = await run_in_threadpool(self.rooms.find, ws.path_params["token"])
        except Exception as e:  # noqa: BLE001 - a typed answer, then the socket closes
            await ws.send_text(json.dumps({"type": "error", "error": error_body(e)[1]["error"]}))
            await ws.close(code=4404)
            return
        pages = self.hub.pages.setdefault(room.id, [])
        if len(pages) >= MAX_WATCHERS:
            await ws.send_text(json.dumps({"type": "error", "error": {
                "code": "room/full", "message": f"at most {MAX_WATCHERS} pages follow one game"}}))
            await ws.close(code=4429)
            return
        page = _Page(ws, seat)
        pages.append(page)
        room.pages += 1
        try:
            await self.hub.push(room)  # the new page's view, and everyone sees who is here
            if room.bots_to_move():  # a game loaded after a restart, while the bots were moving
                await self.hub.settle(room)
            while True:
                text = await ws.receive_text()
                await self._message(room, page, text)
        except (WebSocketDisconnect, RuntimeError):  # gone, or closed by `_send` for reading nothing
            pass
        finally:
            room.pages -= 1
            pages.remove(page)
            if not pages:
                self.hub.pages.pop(room.id, None)
            await self.hub.push(room)

    async def _message(self, room: Room, page: _Page, text: str) -> None:
        try:
            if len(text) > MAX_MESSAGE:
                raise StudioError("body/too_large", f"a message is at most {MAX_MESSAGE} characters")
            try:
                msg = json.loads(text)
            except ValueError:
                raise StudioError("body/json", "a message is a JSON object") from None
            kind = msg.get("type") if isinstance(msg, dict) else None
            if kind == "view":
                await self._send_view(room, page)
                return
            if kind == "act" and "action" in msg:
                await run_in_threadpool(room.act, page.seat, msg["action"])
            elif kind == "act" and "actions" in msg:
                await run_in_threadpool(room.act_all, page.seat, msg["actions"])
            elif kind == "act" and isinstance(msg.get("site"), dict):
                await run_in_threadpool(room.click, page.seat, msg["site"].get("kind"), msg["site"].get("at"))
            else:
                raise StudioError("request/field", 'a message is {"type": "act", "action": id}, '
                                  '{"type": "act", "actions": [ids]}, {"type": "act", "site": {...}} '
                                  'or {"type": "view"}')
        except Exception as e:  # noqa: BLE001 - the sender alone gets the typed error
            err = error_body(e)[1]["error"]
            await self.hub._send(page, {"type": "error", "error": self.studio.library.public(err)})
            return
        await self.hub.push(room)
        await self.hub.settle(room)

    async def _send_view(self, room: Room, page: _Page) -> None:
        view = await run_in_threadpool(self.hub.view, room, page.seat)
        await self.hub._send(page, {"type": "view", "view": view})

    def routes(self) -> list[BaseRoute]:
        return [
            Route("/room", page_of("room", "game")),
            Route("/api/rooms", self.endpoint(self.create, body=True), methods=["POST"]),
            Route("/api/rooms/{token}", self.endpoint(self.get)),
            Route("/api/rooms/{token}/act", self.endpoint(self.act, body=True), methods=["POST"]),
            Route("/api/rooms/{token}/seats", self.endpoint(self.seats, body=True), methods=["POST"]),
            Route("/api/rooms/{token}/replay", self.endpoint(self.replay), methods=["POST"]),
            WebSocketRoute("/api/rooms/{token}/live", self.live),
        ]
