"""Wiring the pure harness to a real state: the sandbox executes every prediction.

Thin adapters over the sandbox (``heron_pipeline.sandbox``), so that ``harness.scorer`` stays a pure
function of callables. VES timing runs only for predictions the sandbox has already executed and
judged correct; gold and prediction are then timed on ONE connection as the same reader role, in a
READ ONLY transaction rolled back after every run, with the same server-side cursor and capped
fetch as the sandbox: VES compares the two queries, not two connection paths, and twelve fresh
connections per question would time the fork of a backend rather than the query.
"""

from __future__ import annotations

import psycopg
from psycopg import sql as pgsql

from heron_pipeline.database.names import benchmark_database
from heron_pipeline.database.server import Server
from heron_pipeline.harness.scorer import StateRun
from heron_pipeline.harness.timing import time_pair
from heron_pipeline.results import ResultTooLarge, fetch_result
from heron_pipeline.sandbox.errors import SandboxError, SandboxUnavailable
from heron_pipeline.sandbox.execute import Sandbox, prepare_sandbox
from heron_pipeline.sandbox.limits import Limits, milliseconds


def classify_failure(exc: BaseException) -> str | None:
    """The sandbox's failure class of ``exc`` ("rejected", "timeout", "limit", "error"), or None when
    the exception is not the prediction's fault (the sandbox or the server is unavailable)."""
    if isinstance(exc, SandboxUnavailable) or not isinstance(exc, SandboxError):
        return None
    return exc.kind


def timer_of(sandbox: Sandbox):
    """(gold_sql, pred_sql) -> (gold s, prediction s) on one reader connection, or None on failure."""
    limits = sandbox.limits

    def run_on(conn: psycopg.Connection, text: str) -> None:
        with conn.transaction(force_rollback=True):
            conn.execute(pgsql.SQL("SET LOCAL statement_timeout = {}").format(
                pgsql.Literal(f"{milliseconds(limits.statement_timeout_s)}ms")))
            with conn.cursor(name="heron_timing") as cursor:
                cursor.execute(text.rstrip().rstrip(";"))
                fetch_result(cursor, max_rows=limits.max_rows, max_bytes=limits.max_bytes)

    def timed(gold_sql: str, pred_sql: str) -> tuple[float, float] | None:
        try:
            # One of the sandbox's slots, so timing counts against the same concurrency bound.
            with sandbox.connection() as conn:
                conn.read_only = True
                return time_pair(lambda: run_on(conn, gold_sql), lambda: run_on(conn, pred_sql))
        except (psycopg.Error, ResultTooLarge, ValueError, SandboxUnavailable):
            return None  # a run that fails while timing leaves the question untimed; VES is then not reported

    return timed


def state_run(server: Server, scale: str, seed: int, *, limits: Limits | None = None, parser: bool = True) -> StateRun:
    """A StateRun executing on ``heron_<scale>_<seed>`` through a prepared sandbox."""
    sandbox = prepare_sandbox(server, benchmark_database(scale, seed), limits=limits or Limits(), parser=parser)
    return StateRun(scale=scale, seed=seed, execute=sandbox.run, classify=classify_failure, run_gold=sandbox.run,
                    time_pair=timer_of(sandbox))
