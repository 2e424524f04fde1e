"""The studio's errors: every one a user can cause is a typed JSON object, `{"error":
{"code", "message"}}`, with an HTTP status, never a traceback.

The engine's own errors (an illegal action, a tampered state, a bad configuration, a
scenario with diagnostics) are encoded by the protocol's `known_error`, so the page
shows the same codes and messages as `catandsl engine`; anything else is a bug,
`studio/internal` with a reference that the server's log repeats with the traceback.
"""

from __future__ import annotations

import logging
from typing import Any

log = logging.getLogger("catandsl.studio")

# the status of each family of codes; anything else a user caused is a plain 400
_STATUS = {"path/": 404, "body/too_large": 413, "request/media_type": 415, "game/unknown": 404,
           "replay/unknown": 404, "room/unknown": 404, "request/not_found": 404, "request/method": 405,
           "request/host": 400,
           "request/busy": 429, "scenario/too_costly": 422, "log/too_costly": 422}


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


def is_typed(e: Exception) -> bool:
    """Whether an exception is one a user can cause (a typed 4xx), not a bug."""
    from catandsl.engine import IllegalAction
    from catandsl.protocol import known_error

    return isinstance(e, (StudioError, IllegalAction)) or known_error(e) is not None


def error_body(e: Exception) -> tuple[int, dict[str, Any]]:
    """(status, `{"error": {...}}`) for anything an endpoint raised; a bug is
    `studio/internal` with a reference the server's log gives with the traceback."""
    from catandsl.engine import IllegalAction
    from catandsl.protocol import internal_error, known_error

    if isinstance(e, StudioError):
        err = {"code": e.code, "message": e.message, **e.extra}
    elif isinstance(e, IllegalAction):  # its text repeats the code: the message alone
        err = {"code": e.code, "message": e.message}
    else:
        err = known_error(e) or internal_error(e, "studio/internal", log)
    return status_of(err["code"]), {"error": err}
