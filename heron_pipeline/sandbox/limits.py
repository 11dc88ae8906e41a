"""The caps a prediction runs under, in one frozen dataclass with the defaults heron uses.

The server-side ones (timeouts, ``work_mem``, ``temp_file_limit``, no parallel workers, the role's
connection limit) are set on the reader role by the administrator, so hostile SQL cannot raise them
(``temp_file_limit`` is superuser-only, the others are re-applied per transaction or unreachable
without ``SET``); the client-side ones (rows, bytes, one value's bytes, the parser's input bounds,
the watchdog) bound what the scorer's own process holds and how long it waits.

``max_concurrent`` bounds how many predictions run at once: within one ``Sandbox`` by a semaphore,
across every process on the server by the reader role's ``CONNECTION LIMIT`` (a prediction that
finds every slot taken waits for one, up to ``queue_timeout_s``). PostgreSQL has no per-backend
memory limit, so this count is what keeps the server's worst case inside the machine: see
``default_concurrency`` and docs/METHODOLOGY.md.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field

#: The memory heron budgets for one prediction on the server when it sizes ``max_concurrent``: one
#: value of PostgreSQL's largest size (1 GB, what ``repeat('x', 900000000)`` needs) plus a few
#: ``work_mem`` sorts and hashes. It is a planning figure, not a bound PostgreSQL enforces.
PER_PREDICTION_BUDGET = 1536 * 1024 * 1024


def default_concurrency(memory_bytes: int | None = None, cores: int | None = None) -> int:
    """How many predictions may run at once on this machine: half its memory in per-prediction
    budgets, at least 2 and at most four per core (past that they only queue for the CPU).

    Memory decides because it is what PostgreSQL does not bound; CPU is shared fairly by the
    operating system, and a short benign query beside long hostile ones needs a free slot more
    than it needs a whole core.

    It reads this machine, which is the server's for the embedded server; an external server's
    operator should check it against that server (docs/METHODOLOGY.md)."""
    if memory_bytes is None:
        try:
            memory_bytes = os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
        except (ValueError, OSError, AttributeError):
            memory_bytes = 8 * 1024 ** 3
    cores = cores or os.cpu_count() or 1
    return max(2, min(4 * cores, (memory_bytes // 2) // PER_PREDICTION_BUDGET))


@dataclass(frozen=True)
class Limits:
    statement_timeout_s: float = 30.0
    lock_timeout_s: float = 5.0
    #: Kills a reader session left idle inside a transaction (a crashed scorer must not hold locks).
    idle_in_transaction_timeout_s: float = 60.0
    max_rows: int = 1_000_000
    max_bytes: int = 256 * 1024 * 1024
    #: One value's bytes as sent (text format); checked before the value is copied into Python.
    #: Applied as ``min(max_value_bytes, max_bytes)``.
    max_value_bytes: int = 64 * 1024 * 1024
    work_mem: str = "64MB"
    temp_file_limit: str = "1GB"
    #: The watchdog cancels from the client this long after the statement timeout should have fired:
    #: it only matters when the server-side timeout was disabled or evaded.
    watchdog_grace_s: float = 5.0
    connect_timeout_s: int = 10
    #: Predictions running at once on the server (see the module docstring).
    max_concurrent: int = field(default_factory=default_concurrency)
    #: How long a prediction waits for a free slot before the sandbox reports itself unavailable.
    queue_timeout_s: float = 600.0
    #: The parser's input bounds: sqlglot's time grows with the tokens (≈ 20-50 µs each on a busy
    #: core), and its recursion with the nesting; the audited gold SQL is at most ~1,200
    #: characters, 240 tokens and 4 brackets deep. Over a bound the prediction is a ``limit``
    #: result, never parsed.
    max_sql_chars: int = 100_000
    max_sql_tokens: int = 10_000
    max_sql_depth: int = 32

    def __post_init__(self) -> None:
        if self.statement_timeout_s <= 0 or self.lock_timeout_s <= 0:
            raise ValueError("timeouts must be positive")
        if self.max_rows < 0 or self.max_bytes < 0 or self.max_value_bytes < 0:
            raise ValueError("row and byte caps must be non-negative")
        if self.max_concurrent < 1:
            raise ValueError("max_concurrent must be at least 1")

    @property
    def wall_clock_s(self) -> float:
        """Total time a prediction may take, execute and fetch together, before the watchdog acts."""
        return self.statement_timeout_s + self.watchdog_grace_s

    @property
    def value_cap(self) -> int:
        return min(self.max_value_bytes, self.max_bytes)


def milliseconds(seconds: float) -> int:
    """PostgreSQL timeouts in whole milliseconds, never 0 (0 would mean "no timeout")."""
    return max(1, round(seconds * 1000))


def session_bounds(limits: Limits, server_version: int | None = None) -> dict[str, str]:
    """Every bound the sandbox sets itself on each reader session (issue 33), never trusting the
    role's defaults: a role may give itself defaults per database (``ALTER ROLE CURRENT_USER IN
    DATABASE d SET work_mem = '2GB'``), and a session's startup options take precedence over them.
    ``temp_file_limit`` is superuser-only, so it cannot be a session option of the reader: it stays on
    the role, where the reader cannot change it. ``transaction_timeout`` exists from PostgreSQL 17."""
    bounds = {
        "statement_timeout": f"{milliseconds(limits.statement_timeout_s)}ms",
        "lock_timeout": f"{milliseconds(limits.lock_timeout_s)}ms",
        "idle_in_transaction_session_timeout": f"{milliseconds(limits.idle_in_transaction_timeout_s)}ms",
        "work_mem": limits.work_mem,
        "hash_mem_multiplier": "2",
        "max_parallel_workers_per_gather": "0",
        "default_transaction_read_only": "on",
        "search_path": '"$user",public',
    }
    if server_version is not None and server_version >= 170000:
        bounds["transaction_timeout"] = f"{milliseconds(limits.wall_clock_s)}ms"
    return bounds


def startup_options(bounds: dict[str, str]) -> str:
    """``bounds`` as libpq ``options`` (``-c name=value``; spaces and backslashes escaped)."""
    def escape(text: str) -> str:
        return text.replace("\\", "\\\\").replace(" ", "\\ ")
    return " ".join(f"-c {name}={escape(value)}" for name, value in bounds.items())
