"""Stopping child processes that may not stop when asked.

A process inherits an ignored or blocked SIGTERM across fork and exec, so a child started under a
parent in that state (a pytest worker after some tests, a supervisor) ignores ``terminate()``; one
that idles never notices why it should end. Whoever stops children therefore asks first and kills
after a grace period: the Dagster stage processes (defs/automation/pipeline.py) and a failed
build's row-digest process (database/fingerprint.py).
"""

from __future__ import annotations

import time
from typing import Sequence


def stop_processes(processes: Sequence, grace_s: float) -> None:
    """SIGTERM to every live process of ``processes`` (``multiprocessing.Process``), then SIGKILL to
    those still alive ``grace_s`` seconds later; each is joined (at most 5 s after its SIGKILL)."""
    for process in processes:
        if process.is_alive():
            process.terminate()
    deadline = time.monotonic() + grace_s
    for process in processes:
        process.join(max(0.0, deadline - time.monotonic()))
        if process.is_alive():
            process.kill()
            process.join(5)
