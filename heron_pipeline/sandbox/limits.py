"""The caps a prediction runs under, in one frozen dataclass with the defaults heron uses.

The server-side ones (timeouts, ``work_mem``, ``temp_file_limit``) are set on the reader role by the
administrator, so hostile SQL cannot raise them (``temp_file_limit`` is superuser-only, the
others are re-applied per transaction); the client-side ones (rows, bytes, watchdog) bound what
the scorer's own process holds and how long it waits.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Limits:
    statement_timeout_s: float = 30.0
    lock_timeout_s: float = 5.0
    #: Kills a reader session left idle inside a transaction (a crashed scorer must not hold locks).
    idle_in_transaction_timeout_s: float = 60.0
    max_rows: int = 1_000_000
    max_bytes: int = 256 * 1024 * 1024
    work_mem: str = "64MB"
    temp_file_limit: str = "1GB"
    #: The watchdog cancels from the client this long after the statement timeout should have fired:
    #: it only matters when the server-side timeout was disabled or evaded.
    watchdog_grace_s: float = 5.0
    connect_timeout_s: int = 10

    def __post_init__(self) -> None:
        if self.statement_timeout_s <= 0 or self.lock_timeout_s <= 0:
            raise ValueError("timeouts must be positive")
        if self.max_rows < 0 or self.max_bytes < 0:
            raise ValueError("row and byte caps must be non-negative")

    @property
    def wall_clock_s(self) -> float:
        """Total time a prediction may take, execute and fetch together, before the watchdog acts."""
        return self.statement_timeout_s + self.watchdog_grace_s


def milliseconds(seconds: float) -> int:
    """PostgreSQL timeouts in whole milliseconds, never 0 (0 would mean "no timeout")."""
    return max(1, round(seconds * 1000))
