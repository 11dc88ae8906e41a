"""Standings of one scale: every metric per tool, over the seeds whose scores are present.

DuckDB reads the score artifacts (JSON lines, one file per tool × state) and does the grouping —
per question and sample, across seeds (``metrics.ToolScores``) — and every metric declared in the
registry (``heron_pipeline.metrics``) computes its figure with the functions of
``heron_pipeline.scoring``, so every figure here has exactly one definition (docs/METHODOLOGY.md). The headline
is multi-state EX@1 (sample 0 correct on every seed present); EX@1 is also given per state, EX@k is
the unbiased pass@k over the n samples (correct = correct on every state) and is a ceiling.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable, Mapping

import duckdb

from heron_pipeline.harness.records import score_columns
from heron_pipeline.metrics import CI_RESAMPLES, CI_SEED, ToolScores, field_figures, get, tool_dims, tool_figures

__all__ = ["CI_RESAMPLES", "CI_SEED", "ToolConditions", "compute_standings", "conditions_of", "load_scores",
           "standings_json", "state_figures", "tool_dims", "tool_standing"]


@dataclass(frozen=True)
class ToolConditions:
    """What a tool's numbers were measured under (printed next to them).

    The prices are informational only: cost is summed from the predictions' own ``cost_usd``
    (priced when they were made, heron_pipeline.llm.prices), so a figure never mixes prices.
    """

    model: str | None = None
    temperature: float | None = None
    usd_per_mtok_prompt: float | None = None
    usd_per_mtok_completion: float | None = None
    extra: dict[str, Any] = field(default_factory=dict)


def conditions_of(adapter: Any) -> ToolConditions:
    """A tool adapter's conditions (model, temperature, prices) as the standings record them."""
    cond = adapter.conditions()
    price = cond.get("price_usd_per_mtok") or {}
    return ToolConditions(model=cond.get("model"), temperature=cond.get("temperature"),
                          usd_per_mtok_prompt=price.get("prompt"), usd_per_mtok_completion=price.get("completion"))


def load_scores(paths: Iterable[Path]) -> duckdb.DuckDBPyConnection:
    """An in-memory DuckDB with a ``scores`` table read from the given JSON-lines artifacts."""
    files = [str(p) for p in paths]
    con = duckdb.connect(":memory:")
    if not files:
        raise ValueError("no score artifacts to aggregate")
    columns = ", ".join(f"'{k}': '{v}'" for k, v in score_columns().items())
    con.execute(f"CREATE TABLE scores AS SELECT * FROM read_json(?, format='newline_delimited', "
                f"columns={{{columns}}})", [files])
    return con


def tool_standing(con: duckdb.DuckDBPyConnection, tool: str, conditions: ToolConditions) -> dict[str, Any]:
    """Every figure of one tool on the scale the connection's scores belong to: its conditions, then
    the aggregate of every registered metric (``heron_pipeline.metrics``)."""
    scores = ToolScores(con, tool)
    seeds = scores.seeds
    return {
        "tool": tool,
        "conditions": {"model": conditions.model, "temperature": conditions.temperature, "n": scores.n,
                       "seeds": seeds, "states": len(seeds),
                       "mode": "multi-state" if len(seeds) >= 2 else "single-state", **conditions.extra},
        "questions": len(scores.questions),
        **tool_figures(scores),
    }


def state_figures(score_path: Path, tool: str, names: Iterable[str]) -> dict[str, Any]:
    """The figures of the registry metrics ``names`` for ``tool`` over one scores artifact (one
    state), computed by each metric's own aggregate — e.g. ``wrong_by_cause`` on one state, what
    the Dagster scores assets show (the Dagster layer computes no metric itself)."""
    scores = ToolScores(load_scores([score_path]), tool)
    figures: dict[str, Any] = {}
    for name in names:
        figures.update(get(name).aggregate(scores))
    return figures


def compute_standings(score_paths: Iterable[Path], scale: str,
                      conditions: Mapping[str, ToolConditions] | None = None) -> dict[str, Any]:
    """Standings of every tool found in the score artifacts, ranked by Grade then headline EX."""
    con = load_scores(score_paths)
    scales = {r[0] for r in con.execute("SELECT DISTINCT scale FROM scores").fetchall()}
    if scales != {scale}:
        raise ValueError(f"score artifacts of scale(s) {sorted(scales)} given for standings of {scale!r}")
    tools = [r[0] for r in con.execute("SELECT DISTINCT tool FROM scores ORDER BY tool").fetchall()]
    conditions = conditions or {}
    rows = [tool_standing(con, t, conditions.get(t, ToolConditions())) for t in tools]
    field_figures(rows)  # the Grade, from each row's own figures
    rows.sort(key=lambda r: (-r["grade"], -r["multi_state_ex1"], r["tool"]))
    seeds = sorted({s for r in rows for s in r["conditions"]["seeds"]})
    return {"scale": scale, "seeds": seeds, "mode": "multi-state" if len(seeds) >= 2 else "single-state",
            "ci": {"level": 0.95, "resamples": CI_RESAMPLES, "seed": CI_SEED}, "tools": rows}


def standings_json(standings: Mapping[str, Any]) -> bytes:
    """Canonical JSON bytes of the standings (for a content-hashed artifact)."""
    return json.dumps(standings, sort_keys=True, indent=1, ensure_ascii=False).encode("utf-8")
