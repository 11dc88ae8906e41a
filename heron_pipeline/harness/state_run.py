"""Wiring the pure harness to a real state: the sandbox executes every prediction.

Thin adapters over the sandbox (``heron_pipeline.sandbox``), so that ``harness.scorer`` stays a pure
function of callables.

VES timing (issue 33: "VES cannot see the stopwatch"). A prediction gated on being timed — e.g.
``… WHERE NOT EXISTS (SELECT 1 FROM pg_cursors WHERE name = '<the timing cursor>')`` — used to
answer nothing, fast, in the timed runs while answering right in the scored one. Two defences:

1. **The timed run is the scored run.** Every timed run of gold and prediction goes through
   ``Sandbox.run`` — literally the function that produced the scored answer — on a fresh reader
   connection, with the same session options, the same ``SET LOCAL`` bounds, the same ``BEGIN READ
   ONLY`` transaction, the same Parse/Describe of the unnamed statement, the same server-side cap
   wrapper, the same cursor name (``heron_prediction``), the same fetches and the same ROLLBACK.
   The only difference is a client-side stopwatch (``run_prediction(stopwatch=…)``) around the
   DECLARE and the fetch (the connection's fork and setup stay outside the timed region, as
   before). Nothing in ``pg_cursors``, ``pg_settings``/``current_setting``, ``pg_stat_activity``
   (application name, query text, backend start), prepared statements or temp objects differs.
   One connection per run, not one per question, because a reused backend would itself be a trace
   (``backend_start`` long before ``xact_start``; a warm session).
2. **The timed rows are checked.** What a query can still see — the clock, the server's cumulative
   statistics counters, its own backend pid — differs between *any* two runs, so indistinguishable
   cannot be proved; every timed run's rows (the warm-up included) are therefore compared with the
   scored run's answer by the comparator that decides EX (``scoring.compare``, the scored rows in
   gold's place: gold's order rule, the float tolerance). A prediction whose timed answer differs,
   or that fails when timed, is ``timing-divergent``: its VES and R-VES are 0 on that state and the
   score record names it (``ScoreRecord.timing_verdict``). Gold is checked against its stored rows
   the same way; a gold that diverges is a heron bug and raises ``GoldTimingDivergence``.
"""

from __future__ import annotations

import hashlib
import logging
import threading
from dataclasses import dataclass, replace
from decimal import Decimal
from typing import Any, Iterable, Mapping

from heron_pipeline.database.names import benchmark_database
from heron_pipeline.database.server import Server
from heron_pipeline.harness.scorer import StateRun, time_records
from heron_pipeline.harness.timing import time_runs
from heron_pipeline.sandbox.errors import SandboxError, SandboxUnavailable
from heron_pipeline.sandbox.execute import Sandbox, prepare_sandbox
from heron_pipeline.sandbox.limits import Limits
from heron_pipeline.scoring import compare
from heron_pipeline.scoring.comparator import value_key

log = logging.getLogger(__name__)

#: The verdict of a prediction whose timed runs did not give its scored answer (VES 0, named).
TIMING_DIVERGENT = "timing-divergent"
#: Scored answers up to this many rows are kept whole for the check; a larger one is kept as an
#: order-free multiset digest (floats to 9 significant digits), so the EX pass holds little memory.
KEEP_ROWS = 100_000


class GoldTimingDivergence(RuntimeError):
    """Gold answered differently when timed than its stored rows: a heron bug, never a tool's."""


def classify_failure(exc: BaseException) -> str | None:
    """The sandbox's failure class of ``exc`` ("rejected", "timeout", "limit", "error"), or None when
    the exception is not the prediction's fault (the sandbox or the server is unavailable)."""
    if isinstance(exc, SandboxUnavailable) or not isinstance(exc, SandboxError):
        return None
    return exc.kind


def _canonical(value: Any) -> str:
    if isinstance(value, float) or (isinstance(value, Decimal) and value == value and value != value.to_integral_value()):
        return format(float(value), ".9g")
    return repr(value_key(value))


def _multiset_digest(rows: Iterable[tuple]) -> str:
    lines = sorted("\x1f".join(_canonical(v) for v in row) for row in rows)
    return hashlib.sha256("\x1e".join(lines).encode("utf-8", "surrogatepass")).hexdigest()


@dataclass(frozen=True)
class Answer:
    """The scored run's answer to one SQL text: its rows, or (over ``KEEP_ROWS``) their digest."""

    count: int
    rows: list[tuple] | None
    digest: str | None = None

    @classmethod
    def of(cls, rows: Iterable[tuple]) -> "Answer":
        rows = list(rows)
        if len(rows) <= KEEP_ROWS:
            return cls(len(rows), rows)
        return cls(len(rows), None, _multiset_digest(rows))

    def matches(self, gold_sql: str, rows: list[tuple]) -> bool:
        """``rows`` is this answer by the comparator that decides EX (this answer in gold's place)."""
        if self.rows is not None:
            return compare(gold_sql, self.rows, rows)
        return len(rows) == self.count and _multiset_digest(rows) == self.digest


class ScoredExecute:
    """``StateRun.execute``: the sandbox's run, remembering each SQL text's scored answer (the first
    one, if a text is run twice) for the VES pass's check."""

    def __init__(self, sandbox: Sandbox) -> None:
        self.sandbox = sandbox
        self._answers: dict[str, Answer] = {}
        self._lock = threading.Lock()

    def __call__(self, sql_text: str) -> Any:
        result = self.sandbox.run(sql_text)
        answer = Answer.of(result.rows)
        with self._lock:
            self._answers.setdefault(sql_text, answer)
        return result

    def answer(self, sql_text: str) -> Answer | None:
        with self._lock:
            return self._answers.get(sql_text)

    def keep_only(self, sql_texts: Iterable[str]) -> None:
        """Forget the answers of every other SQL text (those the VES pass will not time)."""
        keep = set(sql_texts)
        with self._lock:
            self._answers = {k: v for k, v in self._answers.items() if k in keep}


class Timer:
    """``StateRun.time_pair``: (gold_sql, pred_sql) -> (gold s, prediction s), or None when the pair
    cannot be timed (the server went away, or gold failed). See the module docstring: every run is
    ``Sandbox.run`` with a stopwatch, and every run's rows are checked. A prediction whose timed
    answer differs is timed to the end all the same (its times are kept but never rewarded) and
    its verdict is left in ``verdicts`` under (gold_sql, pred_sql) — ``time_checked`` writes it
    into the score record."""

    def __init__(self, sandbox: Sandbox, scored: ScoredExecute) -> None:
        self.sandbox, self.scored = sandbox, scored
        self.gold: dict[str, Answer] = {}  # gold_sql -> its stored rows (``time_checked`` fills it)
        self.verdicts: dict[tuple[str, str], str] = {}

    def __call__(self, gold_sql: str, pred_sql: str) -> tuple[float, float] | None:
        gold_ref = self.gold.get(gold_sql)
        pred_ref = self.scored.answer(pred_sql)
        divergent: list[str] = []

        def run_gold() -> float:
            nonlocal gold_ref
            stopwatch: list[float] = []
            rows = list(self.sandbox.run(gold_sql, stopwatch=stopwatch).rows)
            if gold_ref is None:  # no stored rows given: gold must at least agree with itself
                gold_ref = Answer.of(rows)
            elif not gold_ref.matches(gold_sql, rows):
                raise GoldTimingDivergence(
                    f"gold answered differently when timed ({len(rows)} rows, stored {gold_ref.count}); this is a "
                    f"heron bug (a non-deterministic gold, or a timed path that differs): {gold_sql[:200]}")
            return stopwatch[0]

        def run_pred() -> float:
            nonlocal pred_ref
            stopwatch: list[float] = []
            try:
                rows = list(self.sandbox.run(pred_sql, stopwatch=stopwatch).rows)
            except SandboxError as exc:
                if classify_failure(exc) is None:
                    raise
                divergent.append(f"failed when timed ({exc.kind}), not when scored")
                return float("inf")
            if pred_ref is None:  # not scored through this run (a caller's own execute): self-consistency
                pred_ref = Answer.of(rows)
            elif not pred_ref.matches(gold_sql, rows):
                divergent.append(f"{len(rows)} rows when timed, {pred_ref.count} when scored, not the same answer")
            return stopwatch[0]

        try:
            gold_s, pred_s = time_runs(run_gold, run_pred)
        except SandboxError:
            return None  # gold failed or the server went away while timing: the pair stays untimed
        if divergent:
            self.verdicts[(gold_sql, pred_sql)] = TIMING_DIVERGENT
            log.warning("timing-divergent prediction (VES 0): %s: %s", divergent[0], " ".join(pred_sql.split())[:200])
            if pred_s == float("inf"):  # every timed run failed: a time for the record all the same
                pred_s = gold_s
        return gold_s, pred_s


def time_checked(records: list[Any], questions: Iterable[Any], predictions: Iterable[Any], run: StateRun,
                 gold_rows: Mapping[str, list[tuple]] | None = None) -> list[Any]:
    """The VES pass over ``run``'s records (``scorer.time_records``) with the timed answers checked:
    gold against ``gold_rows`` (question id -> stored rows), each prediction against its scored
    answer; a divergent prediction's record gets ``timing_verdict = "timing-divergent"``."""
    questions, predictions = list(questions), list(predictions)
    timer = run.time_pair if isinstance(run.time_pair, Timer) else None
    gold_sql = {q.id: q.gold_sql for q in questions}
    if timer is not None:
        for qid, rows in (gold_rows or {}).items():
            if qid in gold_sql:
                timer.gold.setdefault(gold_sql[qid], Answer.of(rows))
    timed = time_records(records, questions, predictions, run)
    if timer is None or not timer.verdicts:
        return timed
    sql_of = {(p.question_id, p.sample): p.sql for p in predictions}
    out = []
    for record in timed:
        verdict = timer.verdicts.get((gold_sql.get(record.question_id), sql_of.get((record.question_id, record.sample))))
        out.append(replace(record, timing_verdict=verdict) if record.correct and verdict else record)
    return out


def keep_timed_answers(run: StateRun, records: Iterable[Any], predictions: Iterable[Any]) -> None:
    """After the EX pass: keep only the scored answers of correct predictions (the ones VES times)."""
    if isinstance(run.execute, ScoredExecute):
        sql_of = {(p.question_id, p.sample): p.sql for p in predictions}
        run.execute.keep_only(sql_of.get((r.question_id, r.sample)) for r in records if r.correct)


def state_run(server: Server, scale: str, seed: int, *, limits: Limits | None = None, parser: bool = True) -> StateRun:
    """A StateRun executing on ``heron_<scale>_<seed>`` through a prepared sandbox."""
    sandbox = prepare_sandbox(server, benchmark_database(scale, seed), limits=limits or Limits(), parser=parser)
    scored = ScoredExecute(sandbox)
    return StateRun(scale=scale, seed=seed, execute=scored, classify=classify_failure, run_gold=sandbox.run,
                    time_pair=Timer(sandbox, scored))
