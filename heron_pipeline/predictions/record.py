"""One predicted SQL string and what it cost to make.

A tool's predictions depend on the question, the schema and (for tools that look at data) the
primary state only, so they are made once per tool and scale and then executed on every seeded
state. The record keeps everything the standings need that is not about execution: the ranked
tables the tool retrieved (Set-Recall), billed tokens (cost, token economy), latency and the error
that stopped it from producing SQL at all.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any


@dataclass(frozen=True)
class PredictionRecord:
    """Sample ``sample`` (0-based) of a tool's answer to question ``question_id``.

    ``sql`` is None when the tool failed to answer; ``error`` then says why in one line.
    ``retrieved_tables`` is in rank order (best first) and empty for tools that do not retrieve.
    Token counts are the provider's billed usage, never an estimate; None when not exposed.
    """

    question_id: str
    sample: int
    sql: str | None
    retrieved_tables: tuple[str, ...] = field(default_factory=tuple)
    prompt_tokens: int | None = None
    completion_tokens: int | None = None
    latency_s: float | None = None
    error: str | None = None

    def to_json(self) -> dict[str, Any]:
        doc = asdict(self)
        doc["retrieved_tables"] = list(self.retrieved_tables)
        return doc

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
        )
