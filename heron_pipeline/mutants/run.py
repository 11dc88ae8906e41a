"""Score near-miss mutants like predictions: which of them do one state, and all states, catch?

A mutant is *killed* on a state when its result differs from the gold's there (by the benchmark's
own comparator). Single-state kill uses the primary state only; multi-state kill any audited
state — the gap between the two is what extra seeds buy. Only mutants that execute on every state
count: a mutant that errors tells nothing about the comparator. A mutant whose result is larger
than the fetch cap is counted as executed and killed, since the gold's result is small.

A comparison that times out is retried once under the bound every prediction is scored under
(:data:`SCORING_BOUND_MS`, the sandbox's statement timeout). A mutant that runs past that bound on a
state is *killed there by the scoring bound*: submitted as a prediction it would be cancelled and
scored wrong on that state, exactly as a result past the fetch cap is. The report lists every such
kill by name. Only a mutant set aside as equivalent by contract stays *unjudged* when it times out
(its proof went unchecked): counted and listed, never silently dropped.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Mapping, Sequence

from heron_pipeline.mutants.generate import Mutant, mutants
from heron_pipeline.results import ResultSet, ResultTooLarge
from heron_pipeline.sandbox.limits import Limits
from heron_pipeline.scoring import compare

#: What executing SQL on a state gives: rows, or an exception (error, timeout, too large).
Execute = Callable[[str, str], list[tuple]]

#: A comparison that hits the first bound is retried once under this one: the statement timeout every
#: prediction is scored under (``Limits.statement_timeout_s``), so "ran past it" means what scoring
#: would make of the mutant, not what a busy moment made of it.
SCORING_BOUND_MS = int(Limits().statement_timeout_s * 1000)


class ComparisonTimedOut(Exception):
    """A mutant still ran past the longer bound of the retry."""

    def __init__(self, state: str, bounds_ms: Sequence[int]) -> None:
        self.state = state
        self.bounds_ms = tuple(bounds_ms)
        super().__init__(f"{state}: timed out at {' ms, then '.join(str(b) for b in self.bounds_ms)} ms")


@dataclass(frozen=True)
class MutantOutcome:
    question_id: str
    mutant: Mutant
    executed: bool
    killed_single: bool
    killed_multi: bool
    error: str | None = None
    #: True when a state timed out at the retry's bound (:class:`ComparisonTimedOut`, its text in
    #: ``error``): a kill there by the scoring bound, or, for an equivalent-by-contract mutant, no verdict.
    timed_out: bool = False


def evaluate(question_id: str, gold_sql: str, gold_rows: Mapping[str, Sequence[tuple]], execute: Execute,
             primary: str, catalog: object | None = None) -> list[MutantOutcome]:
    """Run every mutant of ``gold_sql`` on every state in ``gold_rows`` (state name → gold rows).

    With a ``catalog``, mutants equivalent by contract are marked (and still executed). The primary
    state runs first. A mutant that times out at the retry's bound is killed on that state and not
    run on the states left (each would cost the whole bound again; the verdicts are decided), unless
    it is equivalent by contract: then it is unjudged.
    """
    if primary not in gold_rows:
        raise ValueError(f"primary state {primary!r} has no gold result")
    order = [primary] + [state for state in gold_rows if state != primary]
    outcomes = []
    for mutant in mutants(gold_sql, catalog):
        killed: dict[str, bool] = {}
        error = timeout = None
        for state in order:
            try:
                predicted = execute(state, mutant.sql)
            except ResultTooLarge:
                killed[state] = True
                continue
            except ComparisonTimedOut as err:
                timeout = str(err)
                if mutant.equivalent is not None:
                    error = timeout
                else:
                    killed[state] = True
                break
            except Exception as err:  # noqa: BLE001 - any failure means "did not execute"
                error = f"{state}: {str(err).strip().splitlines()[0] if str(err).strip() else type(err).__name__}"
                break
            killed[state] = not compare(gold_sql, list(gold_rows[state]), list(predicted))
        if error is not None:
            outcomes.append(MutantOutcome(question_id, mutant, False, False, False, error, timeout is not None))
        else:
            outcomes.append(MutantOutcome(question_id, mutant, True, killed[primary], any(killed.values()),
                                          timeout, timeout is not None))
    return outcomes


@dataclass
class KillSummary:
    """Counts over mutants; kill rates exclude mutants that are equivalent by contract."""

    generated: int = 0
    executed: int = 0
    killed_single: int = 0
    killed_multi: int = 0
    equivalent: int = 0
    #: Equivalent-by-contract mutants that timed out at the retry's bound: their proof went unchecked.
    unjudged: list[MutantOutcome] = field(default_factory=list)
    #: Mutants killed on a state by running past the scoring bound there (counted in the kills too).
    killed_by_bound: list[MutantOutcome] = field(default_factory=list)
    survivors: list[MutantOutcome] = field(default_factory=list)
    #: "Proven" equivalents that some state killed: the proof is wrong, report it loudly.
    contradicted: list[MutantOutcome] = field(default_factory=list)

    @property
    def single_rate(self) -> float | None:
        return 100.0 * self.killed_single / self.executed if self.executed else None

    @property
    def multi_rate(self) -> float | None:
        return 100.0 * self.killed_multi / self.executed if self.executed else None


def summarize(outcomes: Sequence[MutantOutcome]) -> tuple[KillSummary, dict[str, KillSummary]]:
    """Overall and per-question kill counts; survivors are executed, non-equivalent mutants no state
    killed. ``executed`` counts only mutants that are not equivalent by contract; ``killed_by_bound``
    lists those of them that ran past the scoring bound somewhere (kills), ``unjudged`` the
    equivalent ones that did (their proof went unchecked)."""
    overall = KillSummary()
    per_question: dict[str, KillSummary] = {}
    for outcome in outcomes:
        for summary in (overall, per_question.setdefault(outcome.question_id, KillSummary())):
            summary.generated += 1
            if outcome.timed_out and not outcome.executed:
                summary.unjudged.append(outcome)
            elif outcome.executed and outcome.mutant.equivalent is not None:
                summary.equivalent += 1
                if outcome.killed_multi:
                    summary.contradicted.append(outcome)
            elif outcome.executed:
                summary.executed += 1
                summary.killed_single += outcome.killed_single
                summary.killed_multi += outcome.killed_multi
                if outcome.timed_out:
                    summary.killed_by_bound.append(outcome)
                if not outcome.killed_multi:
                    summary.survivors.append(outcome)
    return overall, per_question


def database_executor(connections: Mapping[str, object], *, timeout_ms: int = 5_000,
                      max_rows: int = 100_000, retry_ms: int = SCORING_BOUND_MS) -> Execute:
    """An :data:`Execute` over open psycopg connections (state → connection), read only.

    Mutants are trusted code (we wrote them) but can be slow — a flipped join condition is a near
    cartesian product — so each runs under a statement timeout and a row cap, in a READ ONLY
    transaction that is rolled back. A run the timeout cancels is retried once under ``retry_ms``
    (by default the scoring bound; never shorter than the first bound): a busy moment is the usual
    cause of the first. A second timeout raises :class:`ComparisonTimedOut`, which :func:`evaluate`
    takes as a kill by the scoring bound (or, for an equivalent mutant, as unjudged).
    """
    from psycopg.errors import QueryCanceled

    bounds = (int(timeout_ms), max(int(timeout_ms), int(retry_ms)))

    def execute(state: str, sql: str) -> list[tuple]:
        conn = connections[state]
        for bound_ms in bounds:
            try:
                return run_trusted(conn, sql, timeout_ms=bound_ms, max_rows=max_rows).rows
            except QueryCanceled:
                continue
        raise ComparisonTimedOut(state, bounds)

    return execute


def run_trusted(conn: object, sql: str, *, timeout_ms: int = 5_000, max_rows: int = 100_000) -> ResultSet:
    """One mutant on an open psycopg connection: read only, under a statement timeout and a row cap
    (``ResultTooLarge`` past it), rolled back; the typed result (what ``database_executor`` runs and
    what the stored mutant answers, :mod:`.answers`, are encoded from)."""
    from heron_pipeline.results import fetch_result

    _back_to_idle(conn)
    conn.read_only = True
    with conn.transaction(force_rollback=True), conn.cursor() as cursor:
        cursor.execute(f"SET LOCAL statement_timeout = {int(timeout_ms)}")
        cursor.execute(sql)
        return fetch_result(cursor, max_rows=max_rows)


def _back_to_idle(conn) -> None:
    """Roll back whatever a previous mutant left open.

    A statement timeout can land while the forced rollback itself runs; psycopg then only logs
    it and the connection stays in a failed transaction, so every later mutant on that state
    would "fail to execute" (on small, 1,187 of 1,234 once did) and drop out of the kill rate.
    """
    from psycopg.pq import TransactionStatus

    if conn.info.transaction_status != TransactionStatus.IDLE:
        conn.rollback()
