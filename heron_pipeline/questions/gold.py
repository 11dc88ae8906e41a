"""Gold answers of one database state: run every question, time it, store the results once.

Each question's gold runs twice (the determinism rule compares the two), its alt once, and — when
the outermost query is ordered — a *tie probe*: the gold with every sort key visible and, under a
LIMIT, one row more, so the audit can see ties among returned rows and ties that a LIMIT cuts
through. All of it is trusted SQL run with the codec's ``execute_readonly`` (READ ONLY, rolled
back). The stored artifact is one immutable JSON file named by the sha256 of its canonical text.

The artifact holds what is reproducible and nothing else: each gold's rows, in the canonical order
wherever the query leaves the order open (``scoring.row_order.canonical_rows``: a query without
ORDER BY returns its rows in plan order, which a VACUUM or ANALYZE can change), or its error. The
latencies are a measurement of the run, not of the state: they stay beside the artifact (in the
bench core's ``GoldResult``), so two clean runs of one state store the same bytes under one digest.
"""

from __future__ import annotations

import json
import statistics
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterable, MutableMapping

from heron_pipeline.questions import sql_facts
from heron_pipeline.questions.model import Question
from heron_pipeline.results import ResultSet, decode, encode, execute_readonly

#: Far above the 2 s latency limit: a runaway query is an error, not a hang.
STATEMENT_TIMEOUT_MS = 60_000


@dataclass(frozen=True)
class Execution:
    """One query run: its result or its error, and its wall time."""

    result: ResultSet | None
    error: str | None
    seconds: float

    @property
    def ok(self) -> bool:
        return self.error is None


@dataclass(frozen=True)
class TieProbe:
    """Rows of the gold with its sort keys visible (and limit + 1 rows under a LIMIT).

    key_columns index the probe's rows; ``limit`` is the gold's own LIMIT (None without one).
    ``unavailable`` says why no probe could be built (DISTINCT / set operation with a sort key that
    is not an output column)."""

    rows: list[tuple] = field(default_factory=list)
    key_columns: tuple[int, ...] = ()
    limit: int | None = None
    error: str | None = None
    unavailable: str | None = None


@dataclass(frozen=True)
class QuestionRun:
    """Everything executed for one question on one state."""

    gold: Execution
    gold_repeat: Execution | None = None
    alt: Execution | None = None
    probe: TieProbe | None = None

    @property
    def latency_seconds(self) -> float:
        """The gold's latency: the faster of its two runs (the second has a warm cache)."""
        runs = [e.seconds for e in (self.gold, self.gold_repeat) if e is not None and e.ok]
        return min(runs) if runs else self.gold.seconds


def execute_timed(conn: Any, sql: str) -> Execution:
    """Run trusted SQL read-only; an error becomes part of the Execution, never an exception."""
    started = time.perf_counter()
    try:
        result = execute_readonly(conn, sql)
    except Exception as err:  # noqa: BLE001 - any database error is an audit finding
        return Execution(None, f"{type(err).__name__}: {str(err).strip().splitlines()[0] if str(err).strip() else ''}",
                         time.perf_counter() - started)
    return Execution(result, None, time.perf_counter() - started)


def tie_probe(conn: Any, gold_sql: str) -> TieProbe | None:
    """The tie probe of an ordered gold, or None for an unordered one."""
    try:
        if not sql_facts.order_of(gold_sql).ordered:
            return None
        limit = sql_facts.limit_of(gold_sql)
        built = sql_facts.sort_key_query(gold_sql)
    except sql_facts.SQLParseError as err:
        return TieProbe(error=str(err))
    if built is None:
        return TieProbe(limit=limit, unavailable="a sort key is not an output column and cannot be appended "
                                                 "(DISTINCT, set operation or *)")
    query, keys, _width = built
    if limit is not None:
        query = sql_facts.with_limit(query, limit + 1)
    run = execute_timed(conn, query)
    if not run.ok:
        return TieProbe(key_columns=keys, limit=limit, error=run.error)
    return TieProbe(rows=list(run.result.rows), key_columns=keys, limit=limit)


def in_canonical_order(run: Execution, gold_sql: str) -> Execution:
    """``run`` with its rows in canonical order where ``gold_sql`` leaves the order open: every row
    of an unordered query, each tie group of one ordered by output columns
    (``scoring.row_order.canonical_rows``). Every comparison heron makes ignores that order, so the
    answer is the same; only its stored bytes stop depending on the plan."""
    from heron_pipeline.scoring.order_spec import order_spec
    from heron_pipeline.scoring.row_order import canonical_rows

    if not run.ok:
        return run
    rows = canonical_rows(run.result.rows, order_spec(gold_sql))
    return Execution(ResultSet(run.result.columns, rows), None, run.seconds)


def run_question(conn: Any, question: Question, *, audit: bool = True) -> QuestionRun:
    """Run one question's gold on `conn` (its rows in canonical order, ``in_canonical_order``); with
    `audit`, also a second gold run, the alt and the tie probe that the audit rules need (scoring
    needs the gold alone)."""
    gold = in_canonical_order(execute_timed(conn, question.gold_sql), question.gold_sql)
    if not audit:
        return QuestionRun(gold=gold)
    again = execute_timed(conn, question.gold_sql) if gold.ok else None
    alternative = execute_timed(conn, question.alt_sql) if question.alt_sql else None
    probe = tie_probe(conn, question.gold_sql) if gold.ok else None
    return QuestionRun(gold=gold, gold_repeat=again, alt=alternative, probe=probe)


def run_state(conn: Any, questions: Iterable[Question], *, audit: bool = True,
              progress: Callable[[Question, QuestionRun], None] | None = None,
              reuse: MutableMapping[tuple[str, str | None, bool], QuestionRun] | None = None) -> dict[str, QuestionRun]:
    """Run every question on one state's connection (autocommit); question id -> QuestionRun.
    ``reuse`` ((gold SQL, alt SQL, audit) -> the QuestionRun of this state) is read before a question runs and
    filled after: an audit loop that redraws a few questions runs only theirs again."""
    conn.execute(f"SET statement_timeout = {STATEMENT_TIMEOUT_MS}")
    runs = {}
    for question in questions:
        key = (question.gold_sql, question.alt_sql, audit)
        known = reuse.get(key) if reuse is not None else None
        runs[question.id] = known if known is not None else run_question(conn, question, audit=audit)
        if reuse is not None and known is None:
            reuse[key] = runs[question.id]
        if progress is not None:
            progress(question, runs[question.id])
    return runs


# -- the artifact -----------------------------------------------------------------------------------


def gold_document(runs: dict[str, QuestionRun]) -> dict:
    """The stored form: question id -> {"result": encoded ResultSet} or {"error"}; no timing (a
    latency differs between two runs of the same state, the answer does not)."""
    return {qid: {"result": encode(runs[qid].gold.result)} if runs[qid].gold.ok else {"error": runs[qid].gold.error}
            for qid in sorted(runs)}


def canonical_json(document: dict) -> str:
    return json.dumps(document, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def write_gold_artifact(artifacts: Path, scale: str, seed: int, runs: dict[str, QuestionRun]) -> tuple[Path, str]:
    """Store one state's gold results as ``<artifacts>/gold/<scale>_<seed>/<sha256>.json``.

    The name is the content hash, so the file is never rewritten in place: equal results land on
    the same file, different results on a new one. Returns (path, sha256)."""
    from heron_pipeline.artifacts import ArtifactLayout, write_content_addressed

    return write_content_addressed(ArtifactLayout.of(artifacts).gold(scale, seed),
                                   canonical_json(gold_document(runs)).encode("utf-8"), suffix=".json")


def read_gold_artifact(path: Path) -> dict[str, tuple[ResultSet | None, str | None]]:
    """A stored gold artifact: question id -> (result, error)."""
    document = json.loads(Path(path).read_text(encoding="utf-8"))
    return {qid: (decode(e["result"]) if "result" in e else None, e.get("error")) for qid, e in document.items()}


def gold_latencies_ms(runs: dict[str, QuestionRun]) -> dict[str, float]:
    """question id -> gold latency in ms (``QuestionRun.latency_seconds``) of every gold that ran."""
    return {qid: round(run.latency_seconds * 1000, 3) for qid, run in sorted(runs.items()) if run.gold.ok}


def latency_summary(runs: dict[str, QuestionRun]) -> dict[str, float]:
    """Median, max and total gold latency of one state, in milliseconds."""
    times = [r.latency_seconds * 1000 for r in runs.values() if r.gold.ok]
    if not times:
        return {"median_ms": 0.0, "max_ms": 0.0, "total_ms": 0.0}
    return {"median_ms": round(statistics.median(times), 2), "max_ms": round(max(times), 2),
            "total_ms": round(sum(times), 2)}


def gold_rows(path: Path, questions: Iterable[Any]) -> dict[str, list[tuple]]:
    """question id -> gold rows for every question of a gold artifact; ValueError naming those
    missing or failed (scoring against a broken gold would silently count a prediction wrong)."""
    stored = read_gold_artifact(Path(path))
    rows, problems = {}, []
    for q in questions:
        result, error = stored.get(q.id, (None, "not in the gold artifact"))
        if result is None:
            problems.append(f"{q.id}: {error}")
        else:
            rows[q.id] = list(result.rows)
    if problems:
        raise ValueError(f"gold results {Path(path).name} unusable for: " + "; ".join(problems[:10]))
    return rows
