"""What the studio's application (app.py) and its games with several people (live.py)
both serve requests with: the headers every answer carries, a request body read as JSON
within bounds (`MAX_BODY` bytes, `MAX_VALUES` values, in a worker thread), its fields
checked, and a view's page.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import HTMLResponse, Response

from catandsl.studio.clients import client_of, cookie_header, new_token
from catandsl.studio.errors import StudioError

MAX_BODY = 4 << 20  # a saved game or a log is far smaller
MAX_VALUES = 250_000  # JSON values in a body: a saved game of the longest game (about 100,000 actions) fits
MAX_OPTIONS = 64
HERE = Path(__file__).resolve().parent
HEADERS = {
    "Content-Security-Policy": "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
                               "img-src 'self' data:; object-src 'none'; frame-ancestors 'none'; base-uri 'none'",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "DENY",
    "Cache-Control": "no-store",
}


def _field(body: dict, name: str, kind: type | tuple, default: Any = ...) -> Any:
    if name not in body:
        if default is ...:
            raise StudioError("request/field", f"the request needs {name!r}")
        return default
    value = body[name]
    if not isinstance(value, kind) or isinstance(value, bool) and kind is not bool:
        raise StudioError("request/field", f"{name!r} has the wrong type")
    return value


def _body_options(body: dict) -> dict[str, str]:
    options = _field(body, "options", dict, {})
    if len(options) > MAX_OPTIONS or not all(isinstance(k, str) and isinstance(v, str) for k, v in options.items()):
        raise StudioError("request/field", "'options' maps option names to item names")
    return options


async def read_json(request: Request) -> dict:
    """The request's JSON object, at most MAX_BODY bytes."""
    kind = request.headers.get("content-type", "")
    if kind.split(";")[0].strip().lower() != "application/json":
        raise StudioError("request/media_type", "send JSON (Content-Type: application/json)")
    declared = request.headers.get("content-length")
    if declared is not None and (not declared.isdigit() or int(declared) > MAX_BODY):
        raise StudioError("body/too_large", f"a request body is at most {MAX_BODY:,} bytes")
    chunks, size = [], 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > MAX_BODY:
            raise StudioError("body/too_large", f"a request body is at most {MAX_BODY:,} bytes")
        chunks.append(chunk)
    return await run_in_threadpool(parse_body, b"".join(chunks))


def parse_body(raw: bytes) -> dict:
    """A body's JSON object, refused past MAX_VALUES values before anything reads it."""
    from catandsl.protocol import values_within

    try:
        data = json.loads(raw.decode("utf-8"))
    except (ValueError, RecursionError):
        raise StudioError("body/json", "the request body is not JSON") from None
    if not isinstance(data, dict):
        raise StudioError("body/json", "the request body is a JSON object")
    if not values_within(data, MAX_VALUES):
        raise StudioError("body/too_large", f"a request body holds at most {MAX_VALUES:,} JSON values")
    return data


def _players(body: dict) -> int | None:
    """The player count asked for: none (the scenario's most), or 1 to 8; 0 is no count."""
    players = _field(body, "players", int, None)
    if players is not None and not 1 <= players <= 8:
        raise StudioError("request/value", "players is from 1 to 8 (leave it out for the scenario's most)")
    return players


def _seed(body: dict) -> int:
    from catandsl.studio.author import MAX_SEED

    seed = _field(body, "seed", int, 1)
    if not 0 <= seed <= MAX_SEED:
        raise StudioError("request/value", f"a seed is from 0 to {MAX_SEED}")
    return seed


def page(view: str, title: str):
    """A view's page: its body in the frame every page shares (pages/frame.html)."""
    frame = (HERE / "pages" / "frame.html").read_text(encoding="utf-8")
    body = (HERE / "pages" / f"{view}.html").read_text(encoding="utf-8")
    html = frame.replace("{title}", title).replace("{view}", view).replace("{body}", body)

    async def endpoint(request: Request) -> Response:
        headers = dict(HEADERS)
        if client_of(request.cookies, None).startswith("address:"):  # a browser new to the studio: its token
            headers["Set-Cookie"] = cookie_header(new_token())
        return HTMLResponse(html, headers=headers)

    return endpoint
