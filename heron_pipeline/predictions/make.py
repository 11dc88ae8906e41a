"""Making a tool's predictions once per scale, and storing them as an immutable artifact.

Predictions never depend on which state they will be scored on — only on the question, the schema
and (for tools that look at data) the primary state — so they are made once and the same SQL is
executed on every seed. Storing them by content hash means an LLM tool's answers, once made, are
a fixed input to every later scoring run.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterable, Sequence

from heron_pipeline.adapters.base import Adapter, PredictionContext
from heron_pipeline.predictions.artifact import read_jsonl, write_jsonl_artifact
from heron_pipeline.predictions.record import PredictionRecord

#: The state tools may look at while predicting, unless configured otherwise.
PRIMARY_SEED = 42


def predictions_dir(artifacts: Path, tool: str, scale: str) -> Path:
    return Path(artifacts) / "predictions" / tool / scale


def make_predictions(adapter: Adapter, questions: Iterable[Any], context: PredictionContext,
                     progress: Callable[[int], None] | None = None) -> list[PredictionRecord]:
    """``context.n`` records per question, in question order; checks the adapter kept the contract."""
    records: list[PredictionRecord] = []
    for question in questions:
        made = adapter.predict(question, context)
        samples = sorted(r.sample for r in made)
        if samples != list(range(context.n)) or any(r.question_id != question.id for r in made):
            raise ValueError(f"adapter {adapter.name!r} returned samples {samples} for {question.id}, "
                             f"expected 0..{context.n - 1}")
        records.extend(sorted(made, key=lambda r: r.sample))
        if progress:
            progress(1)
    return records


def store_predictions(artifacts: Path, tool: str, scale: str, records: Iterable[PredictionRecord]) -> tuple[Path, str]:
    """Write the records under ``artifacts/predictions/<tool>/<scale>/<sha256>.jsonl``; (path, digest)."""
    return write_jsonl_artifact(predictions_dir(artifacts, tool, scale), (r.to_json() for r in records))


def load_predictions(path: Path) -> list[PredictionRecord]:
    return [PredictionRecord.from_json(doc) for doc in read_jsonl(Path(path))]


@dataclass(frozen=True)
class PredictOptions:
    """How predictions are made (see the bench core's BenchOptions, which fills it)."""

    n: int = 1
    question_mode: str = "full"
    retry_failed: bool = False
    offline: bool = False
    cli_command: str | None = None
    cli_name: str | None = None
    llm: Any = None
    cache_dir: Path | None = None


@dataclass(frozen=True)
class ToolPredictions:
    """One tool's predictions and how they were made."""

    tool: str
    kind: str
    status: str
    reason: str | None
    records: list[PredictionRecord]
    conditions: dict[str, Any]
    summary: dict[str, Any] = field(default_factory=dict)


def predict_tool(tool: str, questions: Sequence[Any], context: PredictionContext, options: PredictOptions,
                 progress: Callable[[dict], None] | None = None) -> ToolPredictions:
    """The reference tools' predictions (gold, alt); any other tool is skipped until its adapter exists."""
    from heron_pipeline.adapters.registry import create_adapter

    if tool not in ("gold", "alt"):
        return ToolPredictions(tool, "sql", "skipped", f"{tool}: adapter not available here", [], {})
    adapter = create_adapter(tool)
    records = make_predictions(adapter, questions, PredictionContext(
        scale=context.scale, n=options.n, catalog=context.catalog, primary_dsn=context.primary_dsn))
    return ToolPredictions(tool, "reference", "complete", None, records, adapter.conditions(),
                           {"requests": 0, "errors_by_class": {}})
