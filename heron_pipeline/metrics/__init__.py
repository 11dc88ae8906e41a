"""heron's metrics as one registry: each figure declared once (``builtin``), read by the scorer, the
standings, every leaderboard face and the submission claims (see ``registry``)."""

from heron_pipeline.metrics import builtin as _builtin  # noqa: F401 — registers heron's own metrics
from heron_pipeline.metrics.builtin import (
    CI_RESAMPLES,
    CI_SEED,
    RECALL_KS,
    claimed,
    ex1_of_records,
    recall_label,
    telemetry_of,
    tool_dims,
)
from heron_pipeline.metrics.compute import (
    claim_gaps,
    claim_keys,
    claims,
    field_figures,
    record_fields,
    record_values,
    required_claims,
    tool_figures,
)
from heron_pipeline.metrics.faces import cli_cells, flat_columns, html_cells, markdown_cells
from heron_pipeline.metrics.registry import Cell, Claim, Column, Metric, RecordField, get, metrics, register, registered
from heron_pipeline.metrics.scores import Scored, ToolScores

__all__ = [
    "CI_RESAMPLES", "CI_SEED", "RECALL_KS", "Cell", "Claim", "Column", "Metric", "RecordField", "Scored",
    "ToolScores", "claim_gaps", "claim_keys", "claimed", "claims", "cli_cells", "ex1_of_records", "field_figures",
    "flat_columns", "get", "html_cells", "markdown_cells", "metrics", "recall_label", "record_fields",
    "record_values", "register", "registered", "required_claims", "telemetry_of", "tool_dims", "tool_figures",
]
