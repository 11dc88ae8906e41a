"""A scores asset's per-cause metadata is the core's figure, formatted (the Dagster layer counts nothing)."""

from __future__ import annotations

from heron_pipeline.defs.tools.assets import cause_metadata


def test_cause_metadata_formats_the_cores_counts_in_their_order() -> None:
    counts = {"error": 2, "schema-linking": 1, "trap:soft-delete": 3, "values": 1}
    metadata = cause_metadata(counts)
    assert metadata["wrong_by_cause"] == "error 2, schema-linking 1, trap:soft-delete 3, values 1"
    assert metadata["wrong_by_cause_json"].value == counts
    assert cause_metadata({})["wrong_by_cause"] == "none"
    assert cause_metadata(None) == {}  # a skipped tool: no scores, no causes
