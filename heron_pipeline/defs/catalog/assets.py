"""The schema contract as an observable source: every state's lineage starts at its DDL.

A source, not a materialized asset: the DDL files are inputs that change only by a commit, so the
asset is *observed* (its data version is the digest of the DDL files) and a launch of the state
assets never has to include it — one launch selection shares one partitions definition.
"""

from dagster import DataVersion, MetadataValue, ObserveResult, observable_source_asset

from heron_pipeline.defs.versions import ddl_version


@observable_source_asset(group_name="schema")
def schema_catalog() -> ObserveResult:
    """heron's 211-table schema in `schema_ddl/` (parsed with sqlglot): the single source of truth
    for structure that the generator, the audit and the retrieval adapters read. Its data version
    is the digest of the DDL files, so everything downstream is stale exactly when the schema changes."""
    from heron_pipeline.catalog import load_catalog

    parsed = load_catalog()
    return ObserveResult(data_version=DataVersion(ddl_version()), metadata={
        "tables": len(parsed.tables),
        "foreign_keys": len(parsed.foreign_keys),
        "schemas": len(parsed.domains),
        "ddl_sha256": parsed.ddl_hash,
        "tables_per_schema": MetadataValue.json({d: len(parsed.tables_of(d)) for d in parsed.domains}),
    })
