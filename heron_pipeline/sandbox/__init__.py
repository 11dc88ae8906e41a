"""The read-only sandbox for predicted SQL: parser guard, reader role, capped execution.

Pure core (no Dagster). ``prepare_sandbox`` checks the role as the administrator (changing it only
when it differs) and returns a ``Sandbox``; ``Sandbox.run`` runs one string within the sandbox's
concurrency slots and returns a ``ResultSet`` or raises ``Rejected``, ``Timeout``,
``LimitExceeded`` or ``ExecutionError`` — or ``SandboxUnavailable`` when heron itself cannot run it.
"""

from heron_pipeline.sandbox.errors import (ExecutionError, LimitExceeded, Rejected, SandboxError, SandboxUnavailable,
                                           Timeout)
from heron_pipeline.sandbox.execute import Sandbox, prepare_sandbox, reader_dsn, run_prediction
from heron_pipeline.sandbox.guard import check_sql
from heron_pipeline.sandbox.limits import Limits
from heron_pipeline.sandbox.roles import READER_ROLE

__all__ = ["READER_ROLE", "ExecutionError", "LimitExceeded", "Limits", "Rejected", "Sandbox", "SandboxError",
           "SandboxUnavailable", "Timeout", "check_sql", "prepare_sandbox", "reader_dsn", "run_prediction"]
