"""Making a tool's predictions once per scale, and storing them as an immutable artifact.

Predictions never depend on which state they will be scored on — only on the question, the schema
and (for tools that look at data) the primary state — so they are made once and the same SQL is
executed on every seed. Storing them by content hash means an LLM tool's answers, once made, are
a fixed input to every later scoring run.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Callable, Iterable

from heron_pipeline.adapters.base import Adapter, PredictionContext
from heron_pipeline.predictions.artifact import latest_artifact, read_jsonl, write_jsonl_artifact
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


def latest_predictions(artifacts: Path, tool: str, scale: str) -> Path | None:
    """The newest predictions artifact of (tool, scale), or None."""
    return latest_artifact(predictions_dir(artifacts, tool, scale))
