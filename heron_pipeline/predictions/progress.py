"""Showing a long predict step while it runs: a live bar on a terminal, plain lines elsewhere.

``ConsoleProgress()`` is a ``progress`` callback for ``predict_tool``: per tool, questions done of
total, requests sent and answered from the cache, tokens and cost so far, errors by class. On a
terminal it is a ``rich`` live bar; when the stream is not a terminal (CI, Dagster logs) it prints
one plain line per tool every ``interval_s`` seconds and a last line when the tool finishes, so a
log is readable and not flooded.
"""

from __future__ import annotations

import sys
import time
from typing import Any, TextIO


def progress_line(event: dict[str, Any]) -> str:
    """One line describing a progress event (the plain-text form)."""
    cost = event.get("cost_usd")
    tokens = (event.get("prompt_tokens") or 0) + (event.get("completion_tokens") or 0)
    errors = ", ".join(f"{k} {v}" for k, v in (event.get("errors_by_class") or {}).items()) or "none"
    return (f"{event['tool']}: {event['done']}/{event['total']} questions, {event.get('requests', 0)} requests, "
            f"{event.get('cache_hits', 0)} from cache, {event.get('retries', 0)} retries, {tokens} tokens, "
            f"cost {'unknown' if cost is None else f'${cost:.4f}'}, errors: {errors}")


class ConsoleProgress:
    """A ``predict_tool`` progress callback (see module docstring)."""

    def __init__(self, stream: TextIO | None = None, *, interval_s: float = 5.0, live: bool | None = None):
        self.stream = stream or sys.stderr
        self.interval_s = interval_s
        self.live = self.stream.isatty() if live is None else live
        self._last: dict[str, float] = {}
        self._bar: Any = None
        self._tasks: dict[str, Any] = {}

    def __call__(self, event: dict[str, Any]) -> None:
        if self.live:
            self._live(event)
            return
        now = time.monotonic()
        tool = event["tool"]
        if event.get("final") or now - self._last.get(tool, -1e9) >= self.interval_s:
            self._last[tool] = now
            print(progress_line(event), file=self.stream, flush=True)

    def _live(self, event: dict[str, Any]) -> None:
        from rich.console import Console
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
        from rich.table import Column

        if self._bar is None:
            # the counts first: on a narrow terminal the info text is cut, never the figures
            info = TextColumn("{task.fields[info]}", table_column=Column(ratio=1, no_wrap=True, overflow="ellipsis"))
            self._bar = Progress(TextColumn("{task.fields[tool]}"), MofNCompleteColumn(), BarColumn(bar_width=20),
                                 TimeElapsedColumn(), info, console=Console(file=self.stream), transient=False,
                                 expand=True)
            self._bar.start()
        tool = event["tool"]
        info = progress_line(event).split(": ", 1)[1].split(", ", 1)[1]
        if tool not in self._tasks:
            self._tasks[tool] = self._bar.add_task(tool, total=event["total"], tool=tool, info=info)
        self._bar.update(self._tasks[tool], completed=event["done"], info=info)
        if event.get("final"):
            self._tasks.pop(tool)
            if not self._tasks:
                self._bar.stop()
                self._bar = None
