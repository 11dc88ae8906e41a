"""The two reference tools: ``gold`` answers with the gold SQL, ``alt`` with the independent alt SQL.

Both must score 100 % on every state. ``gold`` proves the harness executes and compares correctly;
``alt`` — written by a second author from the English alone — proves the comparator accepts
genuinely different SQL with the same answer (different joins, CTEs, column order). Neither is
scored by text: the harness executes their SQL like any other tool's.
"""

from __future__ import annotations

from typing import Any

from heron_pipeline.adapters.base import PredictionContext
from heron_pipeline.predictions.record import PredictionRecord


class _Reference:
    name = ""
    field = ""

    def predict(self, question: Any, context: PredictionContext) -> list[PredictionRecord]:
        sql = getattr(question, self.field, None)
        error = None if sql else f"question {question.id} has no {self.field}"
        tables = tuple(question.gold_tables) if self.field == "gold_sql" else ()
        return [
            PredictionRecord(question_id=question.id, sample=i, sql=sql or None, retrieved_tables=tables,
                             latency_s=0.0, error=error, error_class="reference_missing" if error else None,
                             cost_usd=0.0)
            for i in range(context.n)
        ]

    def conditions(self) -> dict[str, Any]:
        return {"model": f"reference:{self.name}", "temperature": None}


class GoldAdapter(_Reference):
    """Returns each question's ``gold_sql`` (and its ``gold_tables`` as the retrieval)."""

    name = "gold"
    field = "gold_sql"


class AltAdapter(_Reference):
    """Returns each question's ``alt_sql``, the independently written equivalent."""

    name = "alt"
    field = "alt_sql"
