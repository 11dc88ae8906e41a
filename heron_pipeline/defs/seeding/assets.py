"""One asset per domain schema and the finished database, per scale × seed.

The fourteen domain assets are one step (a multi-asset): generating and copying a tiny state takes
seconds, less than fourteen steps' start-up, and loading every table in one call is exactly the
CLI's build, so both faces produce the same bytes in the same heap order. Each domain keeps its own
asset key, row count and place in the acyclic domain graph (read from a cache keyed by the DDL
digest, so importing the definitions parses nothing); `database` adds the remaining keys, renames
the build into place and fingerprints it. Every body is one call into the bench core.
"""

from collections import defaultdict

from dagster import (AssetExecutionContext, AssetKey, AssetSpec, MaterializeResult, MetadataValue, asset,
                     multi_asset)

from heron_pipeline.catalog.graph import cached_domain_graph
from heron_pipeline.defs.lineage import result_metadata
from heron_pipeline.defs.partitions import state_of_run, state_partitions
from heron_pipeline.defs.resources import HeronServer
from heron_pipeline.defs.versions import ddl_version, state_version

SEEDING_GROUP = "seeding"


def domain_graph() -> tuple[list[str], dict[str, list[str]]]:
    return cached_domain_graph(ddl_version())


def domain_key(domain: str) -> AssetKey:
    return AssetKey(["seeded", domain])


def _domain_specs() -> list[AssetSpec]:
    order, deps = domain_graph()
    return [AssetSpec(domain_key(d), deps=[domain_key(u) for u in deps[d]] or [AssetKey("schema_catalog")],
                      group_name=SEEDING_GROUP, code_version=state_version(), partitions_def=state_partitions,
                      description=f"Rows of every table in the `{d}` schema for one (scale, seed), generated "
                                  f"deterministically and copied into the build database "
                                  f"`heron_build_<scale>_<seed>` (keys and indexes with each table).")
            for d in order]


@multi_asset(specs=_domain_specs(), partitions_def=state_partitions, name="seeded_domains", can_subset=False)
def seeded_domains(context: AssetExecutionContext, heron: HeronServer):
    """Generate and copy every domain's tables of one (scale, seed) into a fresh build database."""
    from heron_pipeline.bench import load_state_tables

    scale, seed = state_of_run(context.partition_key)
    rows = load_state_tables(heron.server(), heron.settings().artifacts, scale, seed)
    per_domain: dict[str, dict[str, int]] = defaultdict(dict)
    for table, count in rows.items():
        per_domain[table.split(".")[0]][table] = count
    for domain in domain_graph()[0]:
        tables = per_domain.get(domain, {})
        yield MaterializeResult(asset_key=domain_key(domain), metadata={
            "dagster/row_count": sum(tables.values()), "rows_per_table": MetadataValue.json(dict(sorted(tables.items())))})


@asset(
    partitions_def=state_partitions,
    deps=[domain_key(d) for d in domain_graph()[0]],
    group_name=SEEDING_GROUP,
    code_version=state_version(),
)
def database(context: AssetExecutionContext, heron: HeronServer) -> MaterializeResult:
    """The finished benchmark database `heron_<scale>_<seed>`: the remaining foreign keys validated,
    the build label set, renamed into place only when complete, and fingerprinted (sha256 over
    structure and every row) so lineage ties every later number to these bytes."""
    from heron_pipeline.bench import finish_state

    scale, seed = state_of_run(context.partition_key)
    settings = heron.settings()
    state, build = finish_state(heron.server(), settings.artifacts, scale, seed)
    return MaterializeResult(metadata={
        **result_metadata(state),
        "fingerprint": state.fingerprint,
        "generator_version": state.generator_version,
        "dagster/row_count": build["rows"],
        "bytes_on_disk": build["bytes_on_disk"],
        "rows_per_table": MetadataValue.json(build["rows_per_table"]),
        "seconds": MetadataValue.json(build["seconds"]),
        "row_digests_reused": build["row_digests_reused"],
    })
