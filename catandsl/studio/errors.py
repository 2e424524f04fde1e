"""The studio's errors: every one a user can cause is a typed JSON object, `{"error":
{"code", "message"}}`, with an HTTP status, never a traceback.

The engine's own errors (an illegal action, a tampered state, a bad configuration, a
scenario with diagnostics) are encoded by the protocol's `error_object`, so the page
shows the same codes and messages as `catandsl engine`.
"""

from __future__ import annotations

from typing import Any

# the status of each family of codes; anything else a user caused is a plain 400
_STATUS = {"path/": 404, "body/too_large": 413, "request/media_type": 415, "game/unknown": 404,
           "replay/unknown": 404, "request/not_found": 404, "request/method": 405, "request/host": 400}


class StudioError(Exception):
    """A request the studio refuses: a code (`family/what`), a message for the page."""

    def __init__(self, code: str, message: str, **extra: Any):
        super().__init__(message)
        self.code, self.message, self.extra = code, message, extra


def status_of(code: str) -> int:
    for prefix, status in _STATUS.items():
        if code == prefix or (prefix.endswith("/") and code.startswith(prefix)):
            return status
    return 500 if code == "studio/internal" else 400


def error_body(e: Exception) -> tuple[int, dict[str, Any]]:
    """(status, `{"error": {...}}`) for anything an endpoint raised."""
    from catandsl.engine import IllegalAction

    if isinstance(e, StudioError):
        err = {"code": e.code, "message": e.message, **e.extra}
    elif isinstance(e, IllegalAction):  # its text repeats the code: the message alone
        err = {"code": e.code, "message": e.message}
    else:
        from catandsl.protocol import error_object

        err = error_object(e)
        if err["code"] == "engine/internal":  # a bug: say so, without a traceback
            err = {"code": "studio/internal", "message": f"internal error ({type(e).__name__}); "
                   "this is a bug in catandsl, please report what you did"}
    return status_of(err["code"]), {"error": err}
