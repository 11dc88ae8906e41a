"""The Dagster layer: questions + gold_results for tiny|42 materialize, store the artifact and
pass their blocking per-state checks; gold_audit reads the stored artifact."""

from __future__ import annotations

from pathlib import Path

import pytest
from dagster import AssetMaterialization, DagsterInstance, MultiPartitionKey, materialize

from heron_pipeline.database.fingerprint import fingerprint_database

from heron_pipeline.database.server import Server
from heron_pipeline.defs.questions import assets as question_assets
from heron_pipeline.defs.resources import HeronServer
from heron_pipeline.questions.gold import read_gold_artifact
from heron_pipeline.seeding.build import build

GOOD_DIR = Path(__file__).parent / "fixtures" / "good"


def test_materializing_gold_results_for_tiny_42(server: Server, settings, monkeypatch: pytest.MonkeyPatch) -> None:
    if not server.database_exists("heron_tiny_42"):
        build(server, "tiny", 42)
    monkeypatch.setattr(question_assets, "QUESTIONS_DIR", GOOD_DIR)
    instance = DagsterInstance.ephemeral()
    instance.add_dynamic_partitions("seed", ["42"])
    resource = HeronServer(dsn=settings.dsn or "", data_dir=str(settings.data_dir), port=settings.port)
    assets = [question_assets.questions, question_assets.gold_results]

    assert materialize([question_assets.questions], instance=instance).success
    result = materialize(assets, instance=instance, partition_key=MultiPartitionKey({"scale": "tiny", "seed": "42"}),
                         resources={"heron": resource}, selection=[question_assets.gold_results.key])
    assert result.success
    metadata = result.asset_materializations_for_node("gold_results")[0].metadata
    path = Path(metadata["path"].value)
    assert path.parent == settings.artifacts / "gold" / "tiny_42" and path.stem == metadata["digest"].value
    assert set(read_gold_artifact(path)) == {"f001", "f002", "f003"}
    # built outside Dagster: no database materialization to read, so it is computed
    assert metadata["fingerprint"].value == fingerprint_database(server.benchmark_dsn("tiny", 42)).digest
    checks = result.get_asset_check_evaluations()
    assert {c.check_name for c in checks} == {"gold_executes", "gold_non_empty", "alt_agrees", "gold_deterministic",
                                              "gold_latency"}
    assert all(c.passed for c in checks)

    audit = materialize([question_assets.gold_audit], instance=instance, partition_key="tiny", raise_on_error=False)
    evaluation = audit.get_asset_check_evaluations()[0]
    report = audit.asset_materializations_for_node("gold_audit")[0].metadata
    assert report["states"].value == {"tiny_42": str(path)}
    # three questions cannot meet the balance rule, so the blocking audit check fails
    assert not evaluation.passed and report["by_rule"].value["balance"] > 0


def test_gold_results_reads_the_fingerprint_the_database_asset_recorded(server: Server, settings,
                                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """Lineage, not a second full-table hash: the state's fingerprint comes from its `database`
    materialization (a sentinel here, so a recomputation would show)."""
    if not server.database_exists("heron_tiny_42"):
        build(server, "tiny", 42)
    monkeypatch.setattr(question_assets, "QUESTIONS_DIR", GOOD_DIR)
    instance = DagsterInstance.ephemeral()
    instance.add_dynamic_partitions("seed", ["42"])
    key = MultiPartitionKey({"scale": "tiny", "seed": "42"})
    instance.report_runless_asset_event(AssetMaterialization("database", partition=str(key),
                                                             metadata={"fingerprint": "recorded-by-database"}))
    resource = HeronServer(dsn=settings.dsn or "", data_dir=str(settings.data_dir), port=settings.port)
    assets = [question_assets.questions, question_assets.gold_results]
    result = materialize(assets, instance=instance, partition_key=key, resources={"heron": resource},
                         selection=[question_assets.gold_results.key])
    metadata = result.asset_materializations_for_node("gold_results")[0].metadata
    assert metadata["fingerprint"].value == "recorded-by-database"
