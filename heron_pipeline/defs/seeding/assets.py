"""One asset per domain schema and the finished database, per scale × seed.

The domain assets' dependencies follow the acyclic domain graph of the catalog. `tenancy` — the
root every domain depends on — starts a fresh build database; each domain asset copies its own
tables into it; `database` adds keys, analyzes, renames and fingerprints.
"""


from dagster import AssetDep, AssetExecutionContext, AssetKey, AssetsDefinition, MaterializeResult, MetadataValue, asset

from heron_pipeline.catalog import load_catalog
from heron_pipeline.catalog.graph import domain_dependencies, domain_order
from heron_pipeline.database.fingerprint import fingerprint_database
from heron_pipeline.defs.partitions import state_of, state_partitions
from heron_pipeline.defs.resources import HeronServer
from heron_pipeline.seeding import GENERATOR_VERSION
from heron_pipeline.seeding.build import finish_build, load_tables, start_build
from heron_pipeline.seeding.generate import Generator

ROOT_DOMAIN = "tenancy"


def _domain_asset(domain: str, deps: set[str]) -> AssetsDefinition:
    @asset(
        name=domain,
        key_prefix=["seeded"],
        partitions_def=state_partitions,
        deps=[AssetKey(["seeded", d]) for d in sorted(deps)] + ([] if deps else [AssetKey("catalog")]),
        group_name="seeding",
        code_version=GENERATOR_VERSION,
        description=f"Rows of every table in the `{domain}` schema for one (scale, seed), generated "
                    f"deterministically and copied into the build database.",
    )
    def _load(context: AssetExecutionContext, heron: HeronServer) -> MaterializeResult:
        scale, seed = state_of(context.partition_key)
        server = heron.server()
        generator = Generator.for_state(scale, seed)
        if domain == ROOT_DOMAIN:
            dsn = start_build(server, scale, seed)
        else:
            dsn = server.dsn(f"heron_build_{scale}_{seed}")
        tables = [t for t in generator.plan.tables if t.split(".")[0] == domain]
        rows = load_tables(dsn, generator, tables)
        return MaterializeResult(metadata={
            "dagster/row_count": sum(rows.values()),
            "rows_per_table": MetadataValue.json(dict(sorted(rows.items()))),
        })

    return _load


def domain_assets() -> list[AssetsDefinition]:
    parsed = load_catalog()
    deps = domain_dependencies(parsed)
    return [_domain_asset(d, deps[d]) for d in domain_order(parsed)]


@asset(
    partitions_def=state_partitions,
    deps=[AssetKey(["seeded", d]) for d in load_catalog().domains],
    group_name="seeding",
    code_version=GENERATOR_VERSION,
)
def database(context: AssetExecutionContext, heron: HeronServer) -> MaterializeResult:
    """The finished benchmark database `heron_<scale>_<seed>`: keys, foreign keys and indexes
    built after the load, ANALYZE run, renamed into place only when complete, and fingerprinted
    (sha256 over structure and every row) so lineage ties every later number to these bytes."""
    scale, seed = state_of(context.partition_key)
    server = heron.server()
    generator = Generator.for_state(scale, seed)
    seconds, size = finish_build(server, generator, scale, seed)
    result = fingerprint_database(server.benchmark_dsn(scale, seed))
    counts = {t: tp.total for t, tp in generator.plan.tables.items()}
    return MaterializeResult(metadata={
        "fingerprint": result.digest,
        "generator_version": GENERATOR_VERSION,
        "dagster/row_count": sum(counts.values()),
        "bytes_on_disk": size,
        "rows_per_table": MetadataValue.json(counts),
        "seconds": MetadataValue.json({k: round(v, 2) for k, v in seconds.items()}),
    })
