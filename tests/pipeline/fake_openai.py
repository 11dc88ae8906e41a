"""A tiny OpenAI-compatible chat-completions server for the llm adapter's tests.

Routes by path prefix, so one server offers every behaviour: ``/v1`` answers with canned SQL and
billed usage, ``/slow/v1`` sleeps past the client's timeout, ``/garbage/v1`` returns a body that is
not JSON, ``/prose/v1`` a valid completion without SQL, ``/error/v1`` an HTTP 500.
"""

from __future__ import annotations

import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

CANNED_REPLY = "Here is the query:\n\n```sql\nSELECT count(*) AS n FROM tenancy.tenants;\n```\n"
USAGE = {"prompt_tokens": 1234, "completion_tokens": 56, "total_tokens": 1290}


class FakeOpenAI:
    def __init__(self, slow_seconds: float = 3.0):
        self.slow_seconds = slow_seconds
        self.requests: list[tuple[str, dict]] = []
        fake = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: object) -> None:  # keep test output clean
                pass

            def do_POST(self) -> None:  # noqa: N802
                length = int(self.headers.get("Content-Length") or 0)
                body = json.loads(self.rfile.read(length) or b"{}")
                fake.requests.append((self.path, body))
                if self.path.startswith("/slow/"):
                    time.sleep(fake.slow_seconds)
                    return self._json(200, fake.completion(CANNED_REPLY, body))
                if self.path.startswith("/garbage/"):
                    return self._raw(200, b"<html>502 upstream exploded", "application/json")
                if self.path.startswith("/error/"):
                    return self._json(500, {"error": {"message": "boom", "type": "server_error"}})
                if self.path.startswith("/prose/"):
                    return self._json(200, fake.completion("I am not sure which table you mean.", body))
                return self._json(200, fake.completion(CANNED_REPLY, body))

            def _json(self, status: int, doc: dict) -> None:
                self._raw(status, json.dumps(doc).encode(), "application/json")

            def _raw(self, status: int, payload: bytes, content_type: str) -> None:
                try:
                    self.send_response(status)
                    self.send_header("Content-Type", content_type)
                    self.send_header("Content-Length", str(len(payload)))
                    self.end_headers()
                    self.wfile.write(payload)
                except (BrokenPipeError, ConnectionResetError):  # the client timed out and left
                    pass

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)

    @staticmethod
    def completion(content: str, request: dict) -> dict:
        return {
            "id": "chatcmpl-test", "object": "chat.completion", "created": 0, "model": request.get("model", "m"),
            "choices": [{"index": 0, "finish_reason": "stop", "message": {"role": "assistant", "content": content}}],
            "usage": USAGE,
        }

    def url(self, prefix: str = "") -> str:
        host, port = self.httpd.server_address[:2]
        return f"http://{host}:{port}{prefix}/v1"

    def calls(self, prefix: str = "") -> int:
        return sum(1 for path, _ in self.requests if path.startswith(f"{prefix}/v1/"))

    def __enter__(self) -> "FakeOpenAI":
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()
