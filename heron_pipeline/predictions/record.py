"""One predicted SQL string and what it cost to make.

A tool's predictions depend on the question, the schema and (for tools that look at data) the
primary state only, so they are made once per tool and scale and then executed on every seeded
state. The record keeps everything the standings need that is not about execution: the ranked
tables the tool retrieved (Set-Recall), billed tokens and their cost, latency, the error that
stopped it from producing SQL (with its class, ``heron_pipeline.llm.errors``), and for multi-step
tools one line per step saying what happened (a fallback is recorded, never silent).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any


@dataclass(frozen=True)
class PredictionRecord:
    """Sample ``sample`` (0-based) of a tool's answer to question ``question_id``.

    ``sql`` is None when the tool failed to answer; ``error`` then says why in one line and
    ``error_class`` names the class. ``retrieved_tables`` is in rank order (best first) and empty
    for tools that do not retrieve. Token counts are the provider's billed usage summed over the
    calls made for this sample, never an estimate; None when not exposed. ``cost_usd`` is None when
    the price is unknown (never a guessed 0).
    """

    question_id: str
    sample: int
    sql: str | None
    retrieved_tables: tuple[str, ...] = field(default_factory=tuple)
    prompt_tokens: int | None = None
    completion_tokens: int | None = None
    latency_s: float | None = None
    error: str | None = None
    error_class: str | None = None
    cached_prompt_tokens: int | None = None
    cost_usd: float | None = None
    steps: tuple[str, ...] = field(default_factory=tuple)

    def to_json(self) -> dict[str, Any]:
        doc = asdict(self)
        doc["retrieved_tables"] = list(self.retrieved_tables)
        doc["steps"] = list(self.steps)
        return dict(sorted(doc.items()))

    @classmethod
    def from_json(cls, doc: dict[str, Any]) -> "PredictionRecord":
        return cls(
            question_id=str(doc["question_id"]),
            sample=int(doc["sample"]),
            sql=doc.get("sql"),
            retrieved_tables=tuple(doc.get("retrieved_tables") or ()),
            prompt_tokens=doc.get("prompt_tokens"),
            completion_tokens=doc.get("completion_tokens"),
            latency_s=doc.get("latency_s"),
            error=doc.get("error"),
            error_class=doc.get("error_class"),
            cached_prompt_tokens=doc.get("cached_prompt_tokens"),
            cost_usd=doc.get("cost_usd"),
            steps=tuple(doc.get("steps") or ()),
        )
