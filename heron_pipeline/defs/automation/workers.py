"""Celery workers that can be lost without hanging a run (issue 34).

dagster-celery's loop waits for each step's Celery result until it is ready; a worker killed while it runs
a step never reports one, so the run stayed in progress until killed from outside (174 s observed, then
forever). heron changes three things:

* **Tasks are acknowledged late** (``WORKER_SETTINGS``: ``task_acks_late``, ``task_reject_on_worker_lost``,
  ``task_track_started``, one task prefetched at a time). A pool process that dies mid-step is seen by its
  worker, which puts the task back on the queue: Celery itself retries it on any worker.
* **A lost worker is a failed step within a stated time** (``WatchedTask``). The run's loop pings the
  worker that started a step every ``PING_EVERY_S`` seconds; a worker silent for ``lost_after_s``
  (default ``LOST_AFTER_S`` = 30 s) is lost. Its task is revoked and the step is sent once more (attempt 2
  of ``MAX_ATTEMPTS``), so the other worker takes it; a step that loses its worker on every attempt (or is
  started more than ``MAX_ATTEMPTS`` times by Celery's own redelivery) fails, its error naming the step
  and the worker, and the run fails with it. Worst case: ``MAX_ATTEMPTS`` × (``lost_after_s`` +
  ``PING_EVERY_S`` + the ping's timeout) after the last start, about 80 s with the defaults.
* **Nothing is left running.** A stopped run (SIGTERM/SIGINT to its process, or Terminate in the UI)
  revokes its tasks with ``terminate`` and stops waiting for them; a worker's pool processes die with
  their worker (``PR_SET_PDEATHSIG``, set when the worker imports this module: it is in the workers'
  ``include``), and a pool process asked to stop raises ``SystemExit``, so a tool's process group it started is
  killed on the way out (``adapters.command``).
"""

from __future__ import annotations

import signal
import time
from typing import Any, Callable

#: Celery settings every heron worker and every run's app use (the workers read them from their
#: executor block's ``config_source``: ``worker_executor_config``).
WORKER_SETTINGS = {
    "task_acks_late": True,  # a task is acknowledged when it ends, so a lost pool process's task is not lost
    "task_reject_on_worker_lost": True,  # ... and is put back on the queue by its worker
    "task_track_started": True,  # the result says which worker started the step (what the watch pings)
    "worker_prefetch_multiplier": 1,  # a worker holds no task it has not started
}

#: The module every worker imports (``include``): pool processes that die with their worker.
WORKER_MODULE = __name__

#: A worker that started a step and has answered no ping for this many seconds is lost.
LOST_AFTER_S = 30.0
#: How often the run's loop pings the worker of each started step.
PING_EVERY_S = 5.0
#: Starts of one step (a first one and one retry) before a lost worker fails it.
MAX_ATTEMPTS = 2


#: How long a run waits for its broker to answer before it fails, naming the broker.
BROKER_TIMEOUT_S = 5.0


def shown_url(url: str) -> str:
    """``url`` with its password replaced by ``***`` (a broker URL may carry one; messages must not)."""
    from urllib.parse import urlsplit, urlunsplit

    parts = urlsplit(url)
    if not parts.password:
        return url
    host = parts.hostname or ""
    netloc = f"{parts.username or ''}:***@{host}" + (f":{parts.port}" if parts.port else "")
    return urlunsplit(parts._replace(netloc=netloc))


def broker_problem(url: str, timeout_s: float = BROKER_TIMEOUT_S) -> str | None:
    """None when the Celery broker at ``url`` answers within ``timeout_s``; else one line naming it, the
    run-config field that sets it, and the fix. Checked before a run submits its first step: a broker that
    is down would otherwise make the run retry its connection for minutes with a message that names
    neither the broker nor the field (issue 34)."""
    from kombu import Connection

    try:
        with Connection(url, connect_timeout=timeout_s) as connection:
            connection.ensure_connection(max_retries=1, timeout=timeout_s)
    except Exception as err:  # noqa: BLE001 — every transport's refusal is the same answer to the user
        reason = " ".join(str(err).split())[:160] or type(err).__name__
        return (f"the Celery broker {shown_url(url)} (run config execution.config.celery.broker) does not answer: "
                f"{reason} — start it (e.g. redis-server) or fix the URL")
    return None


class LostWorker(RuntimeError):
    """A step whose Celery worker was lost on every attempt: the step's failure, one line."""


def worker_executor_config(broker: str, backend: str | None = None) -> dict:
    """dagster-celery's executor block for ``dagster-celery worker start -y``: heron's worker settings
    and module included (a run's ``execution.config.celery`` adds them itself)."""
    return {"broker": broker, "backend": backend or broker, "include": [WORKER_MODULE],
            "config_source": dict(WORKER_SETTINGS)}


class WatchedTask:
    """A step's Celery result that also becomes ready when the worker running it is lost.

    Stands in for ``celery.result.AsyncResult`` in dagster-celery's loop, which calls ``ready()`` once a
    second, then ``get()``, and ``revoke()`` when the run is stopped."""

    def __init__(self, app: Any, step_key: str, submit: Callable[[], Any], log: Callable[[str], None],
                 lost_after_s: float = LOST_AFTER_S, clock: Callable[[], float] = time.monotonic) -> None:
        self.app, self.step_key, self.submit, self.log = app, step_key, submit, log
        self.lost_after_s, self.clock = lost_after_s, clock
        self.result = submit()
        self.attempts = 1
        self.starts: set[tuple[str, int]] = set()  # (worker, pool pid) of every start seen
        self.silent_since: float | None = None
        self.next_ping = 0.0
        self.failure: BaseException | None = None

    def ready(self) -> bool:
        if self.failure is not None or self.result.ready():
            return True
        now = self.clock()
        if now < self.next_ping:
            return False
        self.next_ping = now + PING_EVERY_S
        started = self.started_by()
        if started is None:  # queued: waiting for a free worker is not a loss
            self.silent_since = None
            return False
        self.starts.add(started)
        if len(self.starts) > MAX_ATTEMPTS:  # Celery put it back after its pool process died, again and again
            return self._fail(f"step {self.step_key}: started {len(self.starts)} times, its Celery pool process "
                              f"died each time (last on worker {started[0]}): the step failed")
        if self.answers(started[0]):
            self.silent_since = None
            return False
        if self.silent_since is None:
            self.silent_since = now
        if now - self.silent_since < self.lost_after_s:
            return False
        return self._lost(started[0])

    def _lost(self, worker: str) -> bool:
        silent = f"Celery worker {worker} has not answered for {self.lost_after_s:g} s while running step " \
                 f"{self.step_key} (lost)"
        self.result.revoke()  # should the broker hand its message back later, live workers discard it
        if self.attempts >= MAX_ATTEMPTS:
            return self._fail(f"step {self.step_key}: {silent} on attempt {self.attempts} of {MAX_ATTEMPTS}: "
                              f"the step failed; check the workers (celery inspect ping) and rerun")
        self.attempts += 1
        self.log(f"{silent}: sent again to the queue, attempt {self.attempts} of {MAX_ATTEMPTS}")
        self.result, self.silent_since, self.next_ping = self.submit(), None, 0.0
        return False

    def _fail(self, message: str) -> bool:
        self.failure = LostWorker(message)
        return True

    def started_by(self) -> tuple[str, int] | None:
        """(worker name, pool pid) of the worker running the step, or None while it waits in the queue."""
        if self.result.state != "STARTED":
            return None
        info = self.result.info if isinstance(self.result.info, dict) else {}
        return (str(info.get("hostname") or ""), int(info.get("pid") or 0)) if info.get("hostname") else None

    def answers(self, worker: str) -> bool:
        try:
            return bool(self.app.control.ping(destination=[worker], timeout=1.0))
        except Exception:  # the broker itself is away: not evidence against the worker
            return True

    def get(self, *args: Any, **kwargs: Any) -> Any:
        if self.failure is not None:
            raise self.failure
        return self.result.get(*args, **kwargs)

    def revoke(self, *args: Any, **kwargs: Any) -> None:
        """The run is stopping: the step is ended on its worker and the loop stops waiting for it."""
        from celery.exceptions import TaskRevokedError

        self.result.revoke(terminate=True, signal="SIGTERM")
        self.failure = TaskRevokedError(f"step {self.step_key}: revoked, the run was stopped")


def _die_with_the_worker(**_: Any) -> None:
    """In a worker's pool process: die when the worker process does, and leave on SIGTERM through
    ``SystemExit`` (so ``finally`` blocks and a tool's process group are cleaned up)."""
    import ctypes
    import sys

    if sys.platform.startswith("linux"):
        PR_SET_PDEATHSIG = 1
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, int(signal.SIGTERM))

    def leave(signum: int, _frame: Any) -> None:
        raise SystemExit(128 + signum)

    signal.signal(signal.SIGTERM, leave)


def _connect_worker_signals() -> None:
    try:
        from celery.signals import worker_process_init
    except ImportError:  # imported without the distributed extra: nothing to connect
        return
    worker_process_init.connect(_die_with_the_worker, weak=False)


_connect_worker_signals()
