"""The Dagster layer loads, and materializing tiny|42 gives the CLI's fingerprint."""

from __future__ import annotations

from dagster import AssetKey, DagsterInstance, MultiPartitionKey, materialize

from heron_pipeline.catalog import load_catalog
from heron_pipeline.catalog.graph import domain_dependencies
from heron_pipeline.database.fingerprint import fingerprint_database
from heron_pipeline.database.server import Server
from heron_pipeline.definitions import defs
from heron_pipeline.defs.catalog.assets import catalog
from heron_pipeline.defs.resources import HeronServer
from heron_pipeline.defs.seeding.assets import database, domain_assets
from heron_pipeline.seeding.build import build


def test_definitions_load_with_one_asset_per_domain() -> None:
    keys = {k.to_user_string() for k in defs.resolve_asset_graph().get_all_asset_keys()}
    parsed = load_catalog()
    assert {f"seeded/{d}" for d in parsed.domains} <= keys
    assert {"catalog", "database"} <= keys


def test_domain_asset_dependencies_follow_the_domain_graph() -> None:
    graph = defs.resolve_asset_graph()
    deps = domain_dependencies(load_catalog())
    for domain, upstream in deps.items():
        parents = {k.path[-1] for k in graph.get(AssetKey(["seeded", domain])).parent_keys}
        assert parents == (upstream or {"catalog"}), domain


def test_materializing_tiny_42_matches_the_cli_build(server: Server, settings) -> None:
    build(server, "tiny", 42)
    expected = fingerprint_database(server.benchmark_dsn("tiny", 42)).digest
    instance = DagsterInstance.ephemeral()
    instance.add_dynamic_partitions("seed", ["42"])
    resource = HeronServer(dsn=settings.dsn or "", data_dir=str(settings.data_dir), port=settings.port)
    result = materialize([catalog, *domain_assets(), database], instance=instance,
                         partition_key=MultiPartitionKey({"scale": "tiny", "seed": "42"}),
                         resources={"heron": resource}, selection=[*(a.key for a in domain_assets()), database.key])
    assert result.success
    metadata = result.asset_materializations_for_node("database")[0].metadata
    assert metadata["fingerprint"].value == expected
