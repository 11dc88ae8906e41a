"""Gold rows per state for the harness, read from the gold-results artifacts of ``questions.gold``.

A thin adapter: the questions package owns running and storing the gold; the harness only needs
question id → rows, and must refuse to score against a gold that is missing or failed (scoring a
prediction against a broken gold would silently count it wrong).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Iterable


def gold_rows_from_artifact(path: Path, questions: Iterable[Any]) -> dict[str, list[tuple]]:
    """question id → gold rows for every question; ValueError naming those missing or failed."""
    from heron_pipeline.questions.gold import read_gold_artifact

    stored = read_gold_artifact(Path(path))
    rows, problems = {}, []
    for q in questions:
        result, _latency, error = stored.get(q.id, (None, None, "not in the gold artifact"))
        if result is None:
            problems.append(f"{q.id}: {error}")
        else:
            rows[q.id] = list(result.rows)
    if problems:
        raise ValueError(f"gold results {Path(path).name} unusable for: " + "; ".join(problems[:10]))
    return rows


def build_gold_artifact(server: Any, artifacts: Path, scale: str, seed: int, questions: list[Any]) -> tuple[Path, str]:
    """Run the gold of every question on one state (via ``questions.gold``) and store it; (path, digest).

    Only the gold runs: the alt, the repeat run and the tie probe are the audit's business."""
    from heron_pipeline.database.names import benchmark_database
    from heron_pipeline.questions.gold import run_state, write_gold_artifact

    with server.connect(benchmark_database(scale, seed)) as conn:
        runs = run_state(conn, questions, audit=False)
    return write_gold_artifact(artifacts, scale, seed, runs)
