"""Grade: one 0–100 number per tool, a weighted mean over the dimensions it exposes.

Weights: EX 0.45, efficiency 0.20, reliability 0.10, token economy 0.15,
latency 0.10.  Token economy and latency are relative to the best tool on the
board, so a tool is judged against the field rather than an arbitrary budget.
A dimension the tool does not expose drops out with its weight, so missing
telemetry neither helps nor hurts.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable

WEIGHTS = {"ex": 0.45, "efficiency": 0.20, "reliability": 0.10, "tokens": 0.15, "latency": 0.10}


@dataclass(frozen=True)
class ToolDims:
    """Raw figures for one tool.

    ex: EX in percent (multi-state EX when ≥ 2 seeds; the caller chooses).
    ves: VES in percent.  errors / n: failed runs out of n questions.
    tokens_per_question, mean_latency_s: None or ≤ 0 means not exposed.
    """

    ex: float | None = None
    ves: float | None = None
    errors: int | None = None
    n: int | None = None
    tokens_per_question: float | None = None
    mean_latency_s: float | None = None


def _positive(x: float | None) -> float | None:
    return x if x is not None and x > 0 else None


def _field_minimum(values: Iterable[float | None]) -> float | None:
    exposed = [v for v in (_positive(x) for x in values) if v is not None]
    return min(exposed) if exposed else None


def dimension_scores(tool: ToolDims, field: Iterable[ToolDims]) -> dict[str, float]:
    """Each exposed dimension of `tool` on a 0–100 scale."""
    field = list(field) + [tool]
    scores: dict[str, float] = {}
    if tool.ex is not None:
        scores["ex"] = float(tool.ex)
    if tool.ves is not None:
        scores["efficiency"] = min(100.0, float(tool.ves))
    if tool.errors is not None and tool.n:
        scores["reliability"] = 100.0 * (1 - tool.errors / tool.n)
    tokens = _positive(tool.tokens_per_question)
    if tokens is not None:
        best = _field_minimum(t.tokens_per_question for t in field)
        scores["tokens"] = min(100.0, 100.0 * best / tokens)
    latency = _positive(tool.mean_latency_s)
    if latency is not None:
        best = _field_minimum(t.mean_latency_s for t in field)
        scores["latency"] = min(100.0, 100.0 * best / latency)
    return scores


def grade(tool_dims: ToolDims, field: Iterable[ToolDims]) -> float:
    """Σ wᵢ·dimᵢ ÷ Σ wᵢ over the dimensions `tool_dims` exposes (ValueError if none)."""
    scores = dimension_scores(tool_dims, field)
    if not scores:
        raise ValueError("tool exposes no graded dimension")
    total_weight = sum(WEIGHTS[d] for d in scores)
    return sum(WEIGHTS[d] * v for d, v in scores.items()) / total_weight
