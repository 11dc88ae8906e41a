"""One scored execution: a tool's prediction for one question, run on one database state.

Score records are self-contained (they repeat the question's tags and the prediction's usage) so
that the standings can be computed by DuckDB from the score artifacts alone, across whatever seeds
are present, without joining back to the questions or predictions. The record holds the facts of
the execution (declared here) and the values of every per-record metric (declared in the metric
registry, ``heron_pipeline.metrics``), so a new per-record metric needs no change here.

A record holds no wall time of its own execution: the score artifacts of two runs over the same
predictions and states are then the same bytes, so the standings (whose provenance names them by
digest) can be compared across runs, machines and executors by digest. The only times a record
carries are measurements asked for: the VES pass's (``--ves``) and the tool's own prediction latency.
"""

from __future__ import annotations

from dataclasses import MISSING, dataclass, field, fields
from typing import Any, Mapping

from heron_pipeline.metrics import record_fields

#: How a prediction failed: the tool produced no SQL (``no_sql``, or the prediction's own class —
#: provider_http, provider_timeout, budget… see heron_pipeline.llm.errors — kept apart, so an outage
#: is never filed as a model that answered without SQL), or one of the sandbox's four classes.
SANDBOX_CLASSES = ("rejected", "timeout", "limit", "error")
ERROR_CLASSES = ("no_sql", *SANDBOX_CLASSES)

#: DuckDB types of the facts (the per-record metrics' fields come from the registry).
FACT_TYPES = {
    "tool": "VARCHAR", "scale": "VARCHAR", "seed": "BIGINT", "question_id": "VARCHAR", "sample": "BIGINT",
    "correct": "BOOLEAN", "error_class": "VARCHAR", "error": "VARCHAR", "pred_row_count": "BIGINT",
    "gold_row_count": "BIGINT", "gold_time_s": "DOUBLE", "pred_time_s": "DOUBLE",
    "prompt_tokens": "BIGINT", "completion_tokens": "BIGINT", "latency_s": "DOUBLE", "cached_prompt_tokens": "BIGINT",
    "cost_usd": "DOUBLE", "shape": "VARCHAR", "retrieval": "VARCHAR", "traps": "VARCHAR[]",
    "timing_verdict": "VARCHAR",
}


def score_columns() -> dict[str, str]:
    """Every column of a score record with its DuckDB type: the facts, then the metrics' fields."""
    return {**FACT_TYPES, **{f.name: f.sql_type for f in record_fields()}}


@dataclass(frozen=True, init=False)
class ScoreRecord:
    """The facts as fields; each registered per-record metric's value by its field name, read as an
    attribute too. Built with keywords, facts and metric fields alike; a keyword that is neither is
    a TypeError (a typo must not become a silently stored value)."""

    tool: str
    scale: str
    seed: int
    question_id: str
    sample: int
    correct: bool
    error_class: str | None  # ERROR_CLASSES, the prediction's own class, or a verdict the scorer names (reads-no-data, comparator-budget); None: ran and judged
    error: str | None
    pred_row_count: int | None
    gold_row_count: int
    gold_time_s: float | None = None  # VES timing (min of 5 after a warm-up), None when not timed
    pred_time_s: float | None = None
    prompt_tokens: int | None = None
    completion_tokens: int | None = None
    latency_s: float | None = None  # the tool's own time to predict, not the execution
    cached_prompt_tokens: int | None = None  # part of prompt_tokens, billed at the cached price
    cost_usd: float | None = None  # the prediction's cost; None = unknown (never a guessed 0)
    shape: str = ""
    retrieval: str = ""
    traps: tuple[str, ...] = ()
    #: the VES pass's verdict (issue 33): "timing-divergent" when a timed run of this correct
    #: prediction did not give its scored answer (VES and R-VES 0 for it); None otherwise. Written
    #: only when set, so the artifacts of runs without a divergent prediction keep their bytes.
    timing_verdict: str | None = None
    values: Mapping[str, Any] = field(default_factory=dict)  # per-record metric field -> value

    def __init__(self, *, values: Mapping[str, Any] | None = None, **given: Any) -> None:
        for f in fields(self):
            if f.name == "values":
                continue
            if f.name in given:
                value = given.pop(f.name)
            elif f.default is not MISSING:
                value = f.default
            else:
                raise TypeError(f"ScoreRecord needs {f.name}")
            object.__setattr__(self, f.name, tuple(value) if f.name == "traps" else value)
        declared = {f.name for f in record_fields()}
        unknown = sorted(set(given) - declared)
        if unknown:
            raise TypeError(f"ScoreRecord has no field {', '.join(unknown)} (neither a fact nor a registered "
                            f"metric's field)")
        object.__setattr__(self, "values", {**(values or {}), **given})

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__") or name == "values":
            raise AttributeError(name)
        values = self.__dict__.get("values") or {}
        if name in values:
            return values[name]
        for f in record_fields():
            if f.name == name:
                return f.default
        raise AttributeError(f"ScoreRecord has no field {name!r}")

    def to_json(self) -> dict[str, Any]:
        doc = {f.name: getattr(self, f.name) for f in fields(self) if f.name != "values"}
        doc["traps"] = list(self.traps)
        if doc["timing_verdict"] is None:
            del doc["timing_verdict"]
        doc.update({f.name: f.default for f in record_fields()})
        doc.update(self.values)
        return doc
