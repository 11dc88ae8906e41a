"""How a prediction can fail, as four exception classes with one-line messages.

The scorer and ``heron query`` need to tell apart "the sandbox refused it" (rejected), "it ran too
long" (timeout), "it produced or needed too much" (limit) and "PostgreSQL raised an error" (error):
they are reported separately, and only the last one is the prediction's own fault in the usual
sense. A fifth, "unavailable", is heron's own failure (the server or the sandbox role could not be
used): it is never a prediction's result, so a run that meets it stops instead of scoring zeros.
Each carries a single line so it fits a log row and the CLI's stderr contract.
"""

from __future__ import annotations


class SandboxError(Exception):
    """Base class: ``kind`` is the CLI prefix, ``message`` one line without it."""

    kind = "error"

    def __init__(self, message: str) -> None:
        # Newlines would break the one-line contract (PostgreSQL messages carry DETAIL/HINT lines).
        self.message = " ".join(str(message).split())
        super().__init__(self.message)

    def line(self) -> str:
        return f"{self.kind}: {self.message}"


class Rejected(SandboxError):
    """The SQL is not one read-only query, or the role / read-only transaction refused it."""

    kind = "rejected"


class Timeout(SandboxError):
    """The statement, lock wait or the client-side watchdog ran out of time."""

    kind = "timeout"


class LimitExceeded(SandboxError):
    """Too many rows or bytes fetched, or a server resource limit (temp files, memory) was hit."""

    kind = "limit"


class ExecutionError(SandboxError):
    """PostgreSQL raised an ordinary error (syntax, unknown column, division by zero…)."""

    kind = "error"


class SandboxUnavailable(SandboxError):
    """The sandbox itself could not run (server down, role setup failed, no free slot in time): not
    the prediction's fault, so it is not an ``ExecutionError`` and callers stop rather than score it."""

    kind = "unavailable"
