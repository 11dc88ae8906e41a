"""Score artifacts: one content-hashed JSON-lines file per tool × state (the bench core names the folder)."""

from __future__ import annotations

from pathlib import Path
from typing import Iterable

from heron_pipeline.artifacts.ref import write_jsonl_artifact
from heron_pipeline.harness.records import ScoreRecord


def store_scores_in(directory: Path, records: Iterable[ScoreRecord]) -> tuple[Path, str]:
    """``directory/<sha256>.jsonl`` of the score records; (path, digest)."""
    return write_jsonl_artifact(Path(directory), (r.to_json() for r in records))
