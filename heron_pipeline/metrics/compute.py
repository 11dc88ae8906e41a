"""The registry read by the code that computes: the scorer, the standings, the submission claims."""

from __future__ import annotations

from typing import Any, Mapping

from heron_pipeline.metrics.registry import Claim, RecordField, metrics
from heron_pipeline.metrics.scores import Scored, ToolScores


def record_fields() -> tuple[RecordField, ...]:
    """Every score-record field a per-record metric writes, in registration order."""
    return tuple(f for m in metrics() for f in m.fields)


def record_values(scored: Scored) -> dict[str, Any]:
    """field -> value of every per-record metric for one scored prediction. A prediction that did not
    run scores each metric's ``failed`` values (0 wherever defined): no score without a right answer."""
    values: dict[str, Any] = {}
    for m in metrics():
        if m.record is not None:
            got = dict(m.failed(scored) if m.failed is not None and not scored.ran else m.record(scored))
            if set(got) != {f.name for f in m.fields}:
                raise ValueError(f"metric {m.name!r} wrote {sorted(got)}, declared {[f.name for f in m.fields]}")
            values.update(got)
    return values


def tool_figures(scores: ToolScores) -> dict[str, Any]:
    """standings key -> figure of every aggregate metric for one tool."""
    figures: dict[str, Any] = {}
    for m in metrics():
        if m.aggregate is not None:
            figures.update(m.aggregate(scores))
    return figures


def field_figures(rows: list[dict[str, Any]]) -> None:
    """Set every figure computed from a row's other figures (the Grade) on the rows of one board, in
    place; each row's value depends on that row only."""
    for m in metrics():
        if m.field is not None:
            for row, value in zip(rows, m.field(rows)):
                row[m.name] = value


def claims(klass: str | None) -> tuple[Claim, ...]:
    """The figures a submission of class ``klass`` may claim, in registration order."""
    return tuple(c for m in metrics() for c in m.claims if klass in c.classes)


def claim_keys(klass: str | None) -> tuple[str, ...]:
    return tuple(c.key for c in claims(klass))


def required_claims(klass: str | None) -> tuple[str, ...]:
    """The claims a submission of class ``klass`` must make."""
    return tuple(c.key for c in claims(klass) if klass in c.required)


def claim_gaps(klass: str | None, claimed: Mapping[str, float],
               reproduced: Mapping[str, float | None]) -> list[tuple[Claim, float, float | None]]:
    """(claim, claimed, recomputed) of every claim more than its tolerance above the recomputed
    figure (a figure not recomputed counts 0), in key order."""
    by_key = {c.key: c for c in claims(klass)}
    gaps = []
    for key, value in sorted(claimed.items()):
        claim = by_key.get(key) or Claim(key)  # schema.parse_claims keeps only declared keys; default tolerance
        got = reproduced.get(key)
        if value - (got or 0.0) > claim.tolerance:
            gaps.append((claim, value, got))
    return gaps
