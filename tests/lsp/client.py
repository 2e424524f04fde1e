"""A small synchronous LSP client over a pipe, for the tests: JSON-RPC messages framed
with Content-Length, sent to `python -m catandsl lsp`, read by a thread into a queue."""

from __future__ import annotations

import json
import os
import queue
import subprocess
import sys
import threading
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
TIMEOUT = 60.0  # seconds: only catches a hang, never a slow machine


class Client:
    def __init__(self) -> None:
        env = dict(os.environ, PYTHONPATH=str(ROOT), PYTHONDONTWRITEBYTECODE="1")
        self.proc = subprocess.Popen([sys.executable, "-m", "catandsl", "lsp"], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, cwd=ROOT, env=env)
        self.messages: queue.Queue = queue.Queue()
        self.next_id = 0
        threading.Thread(target=self._read, daemon=True).start()
        self.request("initialize", {"processId": os.getpid(), "rootUri": ROOT.as_uri(), "capabilities": {}})
        self.notify("initialized", {})

    def _read(self) -> None:
        out = self.proc.stdout
        assert out is not None
        while True:
            length = None
            while True:
                line = out.readline()
                if not line:
                    return
                if line in (b"\r\n", b"\n"):
                    break
                name, _, value = line.decode("ascii").partition(":")
                if name.lower() == "content-length":
                    length = int(value.strip())
            if length is None:
                return
            self.messages.put(json.loads(out.read(length)))

    def _send(self, message: dict) -> None:
        body = json.dumps(message).encode("utf-8")
        assert self.proc.stdin is not None
        self.proc.stdin.write(f"Content-Length: {len(body)}\r\n\r\n".encode("ascii") + body)
        self.proc.stdin.flush()

    def notify(self, method: str, params: dict) -> None:
        self._send({"jsonrpc": "2.0", "method": method, "params": params})

    def request(self, method: str, params: dict):
        self.next_id += 1
        wanted = self.next_id
        self._send({"jsonrpc": "2.0", "id": wanted, "method": method, "params": params})
        msg = self.wait(lambda m: m.get("id") == wanted and "method" not in m)
        assert "error" not in msg, msg
        return msg.get("result")

    def wait(self, match) -> dict:
        """The next message `match` accepts (others are dropped)."""
        while True:
            msg = self.messages.get(timeout=TIMEOUT)
            if match(msg):
                return msg

    def diagnostics(self, uri: str) -> list[dict]:
        msg = self.wait(lambda m: m.get("method") == "textDocument/publishDiagnostics"
                        and m["params"]["uri"] == uri)
        return msg["params"]["diagnostics"]

    def close(self) -> None:
        try:
            self.request("shutdown", {})
            self.notify("exit", {})
            self.proc.wait(timeout=TIMEOUT)
        finally:
            if self.proc.poll() is None:
                self.proc.kill()
