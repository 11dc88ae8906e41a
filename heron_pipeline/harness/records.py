"""One scored execution: a tool's prediction for one question, run on one database state.

Score records are self-contained (they repeat the question's tags and the prediction's usage) so
that the standings can be computed by DuckDB from the score artifacts alone, across whatever seeds
are present, without joining back to the questions or predictions.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

#: How a prediction failed: the tool produced no SQL (``no_sql``, or the prediction's own class —
#: provider_http, provider_timeout, budget… see heron_pipeline.llm.errors — kept apart, so an outage
#: is never filed as a model that answered without SQL), or one of the sandbox's four classes.
SANDBOX_CLASSES = ("rejected", "timeout", "limit", "error")
ERROR_CLASSES = ("no_sql", *SANDBOX_CLASSES)


@dataclass(frozen=True)
class ScoreRecord:
    tool: str
    scale: str
    seed: int
    question_id: str
    sample: int
    correct: bool
    soft_f1: float
    row_f1: float
    error_class: str | None  # one of ERROR_CLASSES or the prediction's own class; None when the SQL ran
    error: str | None
    pred_row_count: int | None
    gold_row_count: int
    exec_s: float | None  # wall time of the scored execution, fetch included
    gold_time_s: float | None = None  # VES timing (min of 5 after a warm-up), None when not timed
    pred_time_s: float | None = None
    exact_match: bool = False
    recall_5: float | None = None  # Set-Recall@k of the ranked retrieved tables; None = not exposed
    recall_10: float | None = None
    recall_20: float | None = None
    recall_all: float | None = None
    prompt_tokens: int | None = None
    completion_tokens: int | None = None
    latency_s: float | None = None  # the tool's own time to predict, not the execution
    cached_prompt_tokens: int | None = None  # part of prompt_tokens, billed at the cached price
    cost_usd: float | None = None  # the prediction's cost; None = unknown (never a guessed 0)
    shape: str = ""
    retrieval: str = ""
    traps: tuple[str, ...] = field(default_factory=tuple)

    def to_json(self) -> dict[str, Any]:
        doc = asdict(self)
        doc["traps"] = list(self.traps)
        return doc
