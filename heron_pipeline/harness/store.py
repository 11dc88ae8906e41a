"""Where score and standings artifacts live: one content-hashed file per tool × state / scale."""

from __future__ import annotations

from pathlib import Path
from typing import Iterable

from heron_pipeline.harness.records import ScoreRecord
from heron_pipeline.predictions.artifact import latest_artifact, write_artifact, write_jsonl_artifact


def scores_dir(artifacts: Path, tool: str, scale: str, seed: int) -> Path:
    return Path(artifacts) / "scores" / tool / f"{scale}_{seed}"


def store_scores(artifacts: Path, tool: str, scale: str, seed: int, records: Iterable[ScoreRecord]) -> tuple[Path, str]:
    """``artifacts/scores/<tool>/<scale>_<seed>/<sha256>.jsonl``; (path, digest)."""
    return write_jsonl_artifact(scores_dir(artifacts, tool, scale, seed), (r.to_json() for r in records))


def latest_score_paths(artifacts: Path, scale: str, tools: Iterable[str] | None = None,
                       seeds: Iterable[int] | None = None) -> list[Path]:
    """The newest score artifact of every tool × seed of ``scale`` present (optionally filtered)."""
    root = Path(artifacts) / "scores"
    wanted_tools = set(tools) if tools is not None else None
    wanted_seeds = {int(s) for s in seeds} if seeds is not None else None
    paths = []
    for tool_dir in sorted(p for p in root.glob("*") if p.is_dir()):
        if wanted_tools is not None and tool_dir.name not in wanted_tools:
            continue
        for state_dir in sorted(tool_dir.glob(f"{scale}_*")):
            seed = state_dir.name.rsplit("_", 1)[1]
            if not seed.isdigit() or (wanted_seeds is not None and int(seed) not in wanted_seeds):
                continue
            latest = latest_artifact(state_dir)
            if latest is not None:
                paths.append(latest)
    return paths


def store_standings(artifacts: Path, scale: str, payload: bytes) -> tuple[Path, str]:
    """``artifacts/standings/<scale>/<sha256>.json``; (path, digest)."""
    return write_artifact(Path(artifacts) / "standings" / scale, payload, suffix=".json")
