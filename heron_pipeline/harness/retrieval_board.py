"""The retrieval board: Set-Recall of tools whose output is a ranked table list, not SQL.

Offline retrievers (``bm25``, ``bm25-fk``) answer "which tables does this question need?" and
nothing else, so execution accuracy means nothing for them and they never appear on the EX board.
They are scored here, from their prediction records alone (no database): Set-Recall@5/10/20/all
of sample 0's ``retrieved_tables`` against each question's ``gold_tables``
(``heron_pipeline.scoring.set_recall_at_k``), as a mean over the questions in percent, overall and
per retrieval bucket (named, 1-hop, 2-hop+, lexical-gap). Any tool with ranked tables can be put
on this board (an LLM tool that records its retrieval, even ``gold``), which makes the figures of
retrieval-based SQL tools comparable to the offline ones.

A question the tool has no record for, or whose record has no tables (an error), counts as
recall 0: a retriever cannot improve its figure by failing on the hard questions.
"""

from __future__ import annotations

from typing import Any, Iterable, Mapping, Sequence

from heron_pipeline.predictions.record import PredictionRecord
from heron_pipeline.scoring import set_recall_at_k

#: The cut-offs of the board, as keyed in its entries ("all" = the whole list).
CUTOFFS: tuple[tuple[str, int | None], ...] = (("@5", 5), ("@10", 10), ("@20", 20), ("@all", None))


def _bucket(question: Any) -> str:
    value = getattr(question, "retrieval")
    return str(getattr(value, "value", value))


def _mean_percent(values: Sequence[float]) -> float | None:
    return 100 * sum(values) / len(values) if values else None


def question_recalls(records: Iterable[PredictionRecord], questions: Sequence[Any]) -> dict[str, dict[str, float]]:
    """question id → {"@5": recall, ...} in [0, 1] for sample 0 of ``records``."""
    first: dict[str, PredictionRecord] = {}
    for record in records:
        if record.sample == 0:
            first.setdefault(record.question_id, record)
    out = {}
    for q in questions:
        record = first.get(q.id)
        tables = list(record.retrieved_tables) if record is not None else []
        out[q.id] = {key: set_recall_at_k(tables, q.gold_tables, k) for key, k in CUTOFFS}
    return out


def tool_retrieval_standing(tool: str, records: Iterable[PredictionRecord], questions: Sequence[Any]) -> dict[str, Any]:
    """One entry of the board (see ``retrieval_standings``)."""
    records = list(records)
    recalls = question_recalls(records, questions)
    buckets: dict[str, list[str]] = {}
    for q in questions:
        buckets.setdefault(_bucket(q), []).append(q.id)
    errors = len({r.question_id for r in records if r.sample == 0 and r.error})
    return {
        "tool": tool,
        "questions": len(questions),
        "errors": errors,
        "set_recall": {key: _mean_percent([recalls[q.id][key] for q in questions]) for key, _ in CUTOFFS},
        "by_bucket": {bucket: {"questions": len(ids),
                               **{key: _mean_percent([recalls[i][key] for i in ids]) for key, _ in CUTOFFS}}
                      for bucket, ids in sorted(buckets.items())},
    }


def retrieval_standings(predictions_by_tool: Mapping[str, Sequence[PredictionRecord]], questions: Sequence[Any], *,
                        conditions: Mapping[str, Mapping[str, Any]] | None = None,
                        question_mode: str = "full", scale: str | None = None) -> list[dict[str, Any]]:
    """Per tool: ``{"tool", "set_recall": {"@5", "@10", "@20", "@all"}, "by_bucket": {bucket:
    {"questions", "@5", ...}}, "questions", "errors", "conditions"}``, figures in percent, ranked by
    Set-Recall@10 then @5 (then name). ``conditions`` (per tool) is copied into each entry together
    with the question mode and scale, so every figure carries what it was measured under."""
    questions = list(questions)
    if not questions:
        raise ValueError("the retrieval board needs at least one question")
    rows = []
    for tool, records in predictions_by_tool.items():
        row = tool_retrieval_standing(tool, records, questions)
        row["conditions"] = {**dict((conditions or {}).get(tool, {})), "question_mode": question_mode,
                             **({"scale": scale} if scale is not None else {})}
        rows.append(row)
    rows.sort(key=lambda r: (-(r["set_recall"]["@10"] or 0.0), -(r["set_recall"]["@5"] or 0.0), r["tool"]))
    return rows
