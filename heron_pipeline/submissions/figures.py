"""The retrieval class's figures: Set-Recall@k of a retriever's ranked tables, over every question.

A retriever returns ranked tables and no SQL, so it has no EX; its board figure is Set-Recall@k
(``heron_pipeline.scoring.set_recall_at_k``) averaged over the questions, sample 0. A question the
retriever gave no tables for counts as recall 0 — skipping a question must never raise the mean.
Per retrieval bucket too, so the board can show where retrieval fails.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any, Iterable

from heron_pipeline.metrics import RECALL_KS, recall_label
from heron_pipeline.scoring import set_recall_at_k


def _key(k: int | None) -> str:
    """The figure's key, which is also its claim key (the Set-Recall metric's retrieval claims)."""
    return f"set_recall@{recall_label(k)}"


def _per_question(records: Iterable[Any], questions: list[Any]) -> dict[str, dict[str, float]]:
    first = {r.question_id: r for r in records if r.sample == 0}
    out = {}
    for q in questions:
        retrieved = list(first[q.id].retrieved_tables) if q.id in first else []
        out[q.id] = {_key(k): 100.0 * set_recall_at_k(retrieved, q.gold_tables, k) for k in RECALL_KS}
    return out


def retrieval_figures(records: Iterable[Any], questions: list[Any]) -> dict[str, float]:
    """``set_recall@5/10/20/all`` (percent) over every question, sample 0."""
    per = _per_question(records, questions)
    return {_key(k): sum(v[_key(k)] for v in per.values()) / len(per) for k in RECALL_KS} if per else {}


def retrieval_breakdown(records: Iterable[Any], questions: list[Any]) -> dict[str, dict[str, float]]:
    """retrieval bucket -> {n, set_recall@10}: where the retriever misses tables."""
    per = _per_question(records, questions)
    buckets: dict[str, list[float]] = defaultdict(list)
    for q in questions:
        buckets[str(getattr(q.retrieval, "value", q.retrieval))].append(per[q.id]["set_recall@10"])
    return {b: {"n": len(v), "set_recall@10": sum(v) / len(v)} for b, v in sorted(buckets.items())}
