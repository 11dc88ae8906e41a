"""Reading an upstream step's result in Dagster: from the metadata of that partition's materialization.

Each asset stores its step's typed result (JSON) under the metadata key ``result``; the downstream
asset reads exactly the materialization Dagster recorded for the partition it depends on — the
lineage Dagster shows in the UI — and the core then checks every artifact's digest on read.
"""

from __future__ import annotations

from typing import Any

from dagster import AssetExecutionContext, AssetKey, AssetRecordsFilter, MetadataValue

RESULT = "result"


class MissingUpstream(RuntimeError):
    """An upstream partition has never been materialized."""


def result_metadata(result: Any) -> dict[str, Any]:
    """The metadata entry carrying a step's result."""
    return {RESULT: MetadataValue.json(result.to_json())}


def upstream_result(context: AssetExecutionContext, key: AssetKey | str, partition: str | None = None) -> dict:
    """The ``result`` metadata of the latest materialization of ``key`` (in ``partition``)."""
    key = AssetKey(key) if isinstance(key, str) else key
    found = context.instance.fetch_materializations(
        AssetRecordsFilter(asset_key=key, asset_partitions=[partition] if partition is not None else None), limit=1)
    if not found.records:
        where = f" partition {partition}" if partition is not None else ""
        raise MissingUpstream(f"{key.to_user_string()}{where} has not been materialized; materialize it first")
    entry = found.records[0].asset_materialization.metadata.get(RESULT)
    if entry is None:
        raise MissingUpstream(f"{key.to_user_string()} was materialized by an older heron without a result; "
                              f"materialize it again")
    return entry.value


def materialized_partitions(context: AssetExecutionContext, key: AssetKey | str) -> set[str]:
    """Partition keys of ``key`` that have a materialization."""
    key = AssetKey(key) if isinstance(key, str) else key
    return set(context.instance.get_materialized_partitions(key))
