"""Scoring one tool's predictions on one database state (pure: execution is passed in).

Every prediction is executed — there is no shortcut for SQL whose text equals the gold, so the
reference tools prove the execution path, not string equality. The result is compared with the
stored gold result of the same state by ``scoring.compare``; every per-record metric of the
registry (``heron_pipeline.metrics``: Soft-F1, row F1, the exact-set match, Set-Recall@k…) is
recorded beside it.
A failed execution is classified (rejected, timeout, limit, error) and scores 0; only an exception
the sandbox does not classify — the server itself going away — stops the run, because that is the
harness failing, not the tool.

No score without a right answer (issue 33): two more verdicts are named here, where the comparator's
verdict becomes a score, and both are wrong answers whose rows were fetched:

* ``reads-no-data`` — the parsed prediction reads no table of the benchmark's schema (its FROM and
  JOIN clauses, CTE names removed, name none: ``SELECT 1 WHERE false``, a constant row). It cannot
  have found the answer in the data, so it is wrong whatever its rows; no gold is such a query
  (tests/harness). SQL sqlglot cannot parse is left to the comparator (nothing can be said of it).
* ``comparator-budget`` — the comparison ran past its work budget (``scoring.comparator.verdict``):
  counted wrong and listed with the question, never a stall.

Execution (EX) and VES timing are two passes: ``score_state`` executes and compares, several
predictions at once; ``time_records`` then times the correct ones, one query at a time. A caller
that scores several states at once (``bench.run``) runs every state's EX pass first and the VES
passes after, alone, since concurrent queries would time each other.
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, replace
from typing import Any, Callable, Iterable, Mapping

from heron_pipeline.harness.records import ScoreRecord
from heron_pipeline.harness.timing import time_pair
from heron_pipeline.metrics import Scored, record_values
from heron_pipeline.predictions.record import PredictionRecord
from heron_pipeline.scoring.comparator import BUDGET, MATCH, verdict

#: The error classes this module names for a prediction that ran (see the module docstring).
READS_NO_DATA = "reads-no-data"
COMPARATOR_BUDGET = BUDGET  # "comparator-budget"

#: Runs hostile SQL on the state; returns an object with ``.rows`` (a results.ResultSet) or raises.
Execute = Callable[[str], Any]
#: The failure class of an exception raised by Execute ("rejected", "timeout", "limit", "error"),
#: or None for an exception that is not the prediction's fault (re-raised).
Classify = Callable[[BaseException], str | None]


@dataclass(frozen=True)
class StateRun:
    """How to run SQL on one state: hostile predictions through the sandbox, trusted gold directly."""

    scale: str
    seed: int
    execute: Execute
    classify: Classify
    run_gold: Callable[[str], Any] | None = None  # for VES timing only
    #: (gold_sql, pred_sql) -> (gold seconds, prediction seconds), or None when timing failed;
    #: when unset, VES timing interleaves run_gold and execute (see harness.timing).
    time_pair: Callable[[str, str], tuple[float, float] | None] | None = None


def _value(tag: Any) -> str:
    return str(getattr(tag, "value", tag))


def _schema_domains() -> frozenset[str]:
    """The benchmark's domain schemas (the catalog, parsed once per process)."""
    global _DOMAINS
    if _DOMAINS is None:
        from heron_pipeline.catalog import load_catalog

        catalog = load_catalog()
        _DOMAINS = frozenset(d.lower() for d in [*catalog.domains, *catalog.type_schemas])
    return _DOMAINS


_DOMAINS: frozenset[str] | None = None


def reads_data(sql: str | None, domains: frozenset[str] | None = None) -> bool | None:
    """Whether ``sql`` reads a table of the benchmark's schema: a schema-qualified table whose
    schema is one of ``domains`` (default: the catalog's), anywhere in its FROM and JOIN clauses,
    subqueries included, CTE names removed (``sql_facts.tables_read``). None when there is no SQL or
    sqlglot cannot parse it. The sandbox's search_path holds no benchmark schema, so an unqualified
    name cannot be a benchmark table (``FROM pg_class`` reads the catalog, not the data)."""
    from heron_pipeline.diagnosis.causes import predicted_tables

    tables = predicted_tables(sql)
    if tables is None:
        return None
    domains = _schema_domains() if domains is None else domains
    return any("." in t and t.split(".", 1)[0] in domains for t in tables)


def score_prediction(tool: str, question: Any, prediction: PredictionRecord, gold_rows: list[tuple],
                     state: StateRun, *, mutant_answers: tuple[Any, ...] = ()) -> ScoreRecord:
    """Execute one prediction on ``state`` and score it against that state's gold rows.

    The comparator's rule is the same in both question modes: exactly the gold's number of columns
    (``scoring.compare``). A prediction that reads no benchmark table is wrong (``reads-no-data``),
    and so is one whose comparison overran the comparator's work budget (``comparator-budget``);
    both keep their rows, and the class names them in the record. ``mutant_answers`` are the question's stored trap mutant answers on this state
    (``mutants.answers``), read by the diagnosis to name a ``trap:<tag>`` cause; none are run here.
    """
    pred_rows: list[tuple] | None = None
    error_class = error = None
    if prediction.sql is None:
        error_class, error = prediction.error_class or "no_sql", prediction.error or "no SQL"
    else:
        try:
            pred_rows = list(state.execute(prediction.sql).rows)
        except Exception as exc:  # noqa: BLE001 — classified below, re-raised when not the tool's fault
            kind = state.classify(exc)
            if kind is None:
                raise
            error_class, error = kind, " ".join(str(exc).split())[:300] or type(exc).__name__
    correct = False
    if pred_rows is not None:
        if reads_data(prediction.sql) is False:
            error_class, error = READS_NO_DATA, "the prediction reads no table of the database"
        else:
            outcome = verdict(question.gold_sql, gold_rows, pred_rows)
            correct = outcome == MATCH
            if outcome == COMPARATOR_BUDGET:
                error_class, error = COMPARATOR_BUDGET, "the comparison ran past the comparator's work budget"
    return ScoreRecord(
        tool=tool, scale=state.scale, seed=state.seed, question_id=question.id, sample=prediction.sample,
        correct=correct, error_class=error_class, error=error,
        pred_row_count=None if pred_rows is None else len(pred_rows), gold_row_count=len(gold_rows),
        prompt_tokens=prediction.prompt_tokens, completion_tokens=prediction.completion_tokens,
        latency_s=prediction.latency_s, cached_prompt_tokens=prediction.cached_prompt_tokens,
        cost_usd=prediction.cost_usd,
        shape=_value(question.shape), retrieval=_value(question.retrieval),
        traps=tuple(_value(t) for t in question.traps),
        values=record_values(Scored(question, prediction, gold_rows, pred_rows, correct, error_class,
                                    tuple(mutant_answers))),
    )


def timed_pair(gold_sql: str, pred_sql: str | None, state: StateRun) -> tuple[float | None, float | None]:
    """VES timing of one correct prediction: (gold s, prediction s); (None, None) when it cannot be
    timed (no SQL, no way to run gold, or a run failed while timing)."""
    if pred_sql is None:
        return None, None
    if state.time_pair is not None:
        timed = state.time_pair(gold_sql, pred_sql)
        return timed if timed is not None else (None, None)
    if state.run_gold is not None:
        return time_pair(lambda: state.run_gold(gold_sql),  # type: ignore[misc]
                         lambda: state.execute(pred_sql))
    return None, None


def time_records(records: list[ScoreRecord], questions: Iterable[Any], predictions: Iterable[PredictionRecord],
                 state: StateRun) -> list[ScoreRecord]:
    """The VES pass over records ``score_state`` made without timing: each correct one gets its gold
    and prediction times, one query at a time in record order; the others are returned unchanged.

    The caller must run nothing else on the server meanwhile (the times would include the other
    queries' load): that is why this is a pass of its own."""
    gold_sql = {q.id: q.gold_sql for q in questions}
    sql_of = {(p.question_id, p.sample): p.sql for p in predictions}
    out = []
    for record in records:
        if record.correct:
            gold_time, pred_time = timed_pair(gold_sql[record.question_id],
                                              sql_of.get((record.question_id, record.sample)), state)
            record = replace(record, gold_time_s=gold_time, pred_time_s=pred_time)
        out.append(record)
    return out


def score_state(tool: str, questions: Iterable[Any], predictions: Iterable[PredictionRecord],
                gold_rows: Mapping[str, list[tuple]], state: StateRun, *, time_ves: bool = False,
                progress: Callable[[int], None] | None = None, workers: int = 3,
                mutant_answers: Mapping[str, tuple[Any, ...]] | None = None) -> list[ScoreRecord]:
    """Score every prediction of ``tool`` on one state, in (question, sample) order.

    Each question's entry of ``mutant_answers`` (question id -> the state's stored trap mutant
    answers, ``GoldResult.mutant_rows``; none given: no ``trap:<tag>`` cause can be named) is passed
    to its ``score_prediction``.
    A question without predictions is scored as a failed prediction (sample 0, ``no_sql``) so that
    a tool cannot improve its EX by skipping hard questions. A prediction for an unknown question
    id is an error in the predictions artifact (ValueError).
    """
    by_id = {q.id: q for q in questions}
    grouped: dict[str, list[PredictionRecord]] = {qid: [] for qid in by_id}
    for p in predictions:
        if p.question_id not in grouped:
            raise ValueError(f"prediction for unknown question {p.question_id!r}")
        grouped[p.question_id].append(p)
    jobs = []
    for qid, question in by_id.items():
        if qid not in gold_rows:
            raise ValueError(f"no gold result for {qid} on {state.scale}_{state.seed}")
        samples = sorted(grouped[qid], key=lambda p: p.sample) or [
            PredictionRecord(qid, 0, None, error="tool gave no prediction")]
        jobs.append((question, samples))

    def score_question(job: tuple[Any, list[PredictionRecord]]) -> list[ScoreRecord]:
        question, samples = job
        traps = (mutant_answers or {}).get(question.id, ())
        scored = [score_prediction(tool, question, p, gold_rows[question.id], state, mutant_answers=traps)
                  for p in samples]
        if progress:
            progress(1)
        return scored

    # Each prediction waits mostly on its own sandbox connection and the server, so a few run at
    # once; VES timing is a second pass, alone, since concurrent queries would time each other.
    workers = max(1, workers)
    if workers == 1:
        records = [record for job in jobs for record in score_question(job)]
    else:
        with ThreadPoolExecutor(max_workers=workers) as pool:
            records = [record for scored in pool.map(score_question, jobs) for record in scored]
    if not time_ves:
        return records
    return time_records(records, [question for question, _samples in jobs],
                        [p for _question, samples in jobs for p in samples], state)
