"""A small OpenAI-compatible chat-completions server on 127.0.0.1 for the LLM tests (real HTTP).

Scripted per request: replies pushed with ``push()`` are served first, in order; then a
``responder(body)`` function if one is set; then the behaviour of the path prefix (``/v1`` canned
SQL, ``/slow/v1`` sleeps past the client's timeout, ``/garbage/v1`` a body that is not JSON,
``/prose/v1`` a completion without SQL, ``/error/v1`` HTTP 500). Every request is recorded.

How it counts tokens (the figures the tests compare with heron's and the report quotes):
prompt tokens = ceil(characters of all message contents / 4), completion tokens = ceil(characters
of the reply / 4) — the usual ~4 characters per token of English and SQL under OpenAI's
tokenizers. Cached prompt tokens: when the first (system) message is byte-identical to one seen in
an earlier request, its tokens are reported as ``prompt_tokens_details.cached_tokens``, like a
provider's prefix cache. ``served_usage`` keeps every usage object the server sent.
"""

from __future__ import annotations

import json
import threading
from collections import deque
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Callable

CANNED_REPLY = "Here is the query:\n\n```sql\nSELECT count(*) AS n FROM tenancy.tenants;\n```\n"


def count_tokens(text: str) -> int:
    return (len(text) + 3) // 4


def prompt_tokens_of(body: dict) -> int:
    return count_tokens("".join(m.get("content") or "" for m in body.get("messages", [])))


@dataclass
class Reply:
    """One scripted answer: a completion with ``content``, an HTTP error ``status``, a ``raw`` body,
    after ``delay_s``; ``usage=False`` omits the usage object."""

    content: str | None = CANNED_REPLY
    status: int = 200
    headers: dict[str, str] = field(default_factory=dict)
    delay_s: float = 0.0
    raw: bytes | None = None
    usage: bool = True


class FakeOpenAI:
    def __init__(self, slow_seconds: float = 3.0):
        self.slow_seconds = slow_seconds
        self.requests: list[tuple[str, dict]] = []
        self.served_usage: list[dict] = []
        self.script: deque[Reply] = deque()
        self.responder: Callable[[dict], Reply | None] | None = None
        self.stopping = threading.Event()
        self._seen_system: set[str] = set()
        self._lock = threading.Lock()
        fake = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: object) -> None:  # keep test output clean
                pass

            def do_POST(self) -> None:  # noqa: N802
                length = int(self.headers.get("Content-Length") or 0)
                body = json.loads(self.rfile.read(length) or b"{}")
                with fake._lock:
                    fake.requests.append((self.path, body))
                    reply = fake.script.popleft() if fake.script else None
                if reply is None and fake.responder is not None:
                    reply = fake.responder(body)
                if reply is None:
                    reply = fake.default(self.path)
                if reply.delay_s:
                    fake.stopping.wait(reply.delay_s)
                if reply.raw is not None:
                    return self._raw(reply.status, reply.raw, "application/json", reply.headers)
                if reply.status != 200:
                    return self._json(reply.status, {"error": {"message": "scripted failure", "type": "server_error"}},
                                      reply.headers)
                return self._json(200, fake.completion(reply, body), reply.headers)

            def _json(self, status: int, doc: dict, headers: dict[str, str]) -> None:
                self._raw(status, json.dumps(doc).encode(), "application/json", headers)

            def _raw(self, status: int, payload: bytes, content_type: str, headers: dict[str, str]) -> None:
                try:
                    self.send_response(status)
                    self.send_header("Content-Type", content_type)
                    self.send_header("Content-Length", str(len(payload)))
                    for name, value in headers.items():
                        self.send_header(name, value)
                    self.end_headers()
                    self.wfile.write(payload)
                except (BrokenPipeError, ConnectionResetError):  # the client timed out and left
                    pass

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)

    def default(self, path: str) -> Reply:
        if path.startswith("/slow/"):
            return Reply(delay_s=self.slow_seconds)
        if path.startswith("/garbage/"):
            return Reply(raw=b"<html>502 upstream exploded")
        if path.startswith("/error/"):
            return Reply(status=500)
        if path.startswith("/prose/"):
            return Reply(content="I am not sure which table you mean.")
        return Reply()

    def push(self, *replies: Reply) -> None:
        with self._lock:
            self.script.extend(replies)

    def completion(self, reply: Reply, request: dict) -> dict:
        doc = {
            "id": "chatcmpl-test", "object": "chat.completion", "created": 0, "model": request.get("model", "m"),
            "choices": [{"index": 0, "finish_reason": "stop",
                         "message": {"role": "assistant", "content": reply.content}}],
        }
        if reply.usage:
            messages = request.get("messages") or [{}]
            system = messages[0].get("content") or ""
            with self._lock:
                cached = count_tokens(system) if system in self._seen_system else 0
                self._seen_system.add(system)
            prompt = prompt_tokens_of(request)
            completion = count_tokens(reply.content or "")
            usage = {"prompt_tokens": prompt, "completion_tokens": completion, "total_tokens": prompt + completion,
                     "prompt_tokens_details": {"cached_tokens": min(cached, prompt)}}
            with self._lock:
                self.served_usage.append(usage)
            doc["usage"] = usage
        return doc

    def url(self, prefix: str = "") -> str:
        host, port = self.httpd.server_address[:2]
        return f"http://{host}:{port}{prefix}/v1"

    def calls(self, prefix: str = "") -> int:
        return sum(1 for path, _ in self.requests if path.startswith(f"{prefix}/v1/"))

    def reset(self) -> None:
        with self._lock:
            self.requests.clear()
            self.served_usage.clear()
            self.script.clear()
            self._seen_system.clear()
        self.responder = None

    def __enter__(self) -> "FakeOpenAI":
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stopping.set()
        self.httpd.shutdown()
        self.httpd.server_close()
