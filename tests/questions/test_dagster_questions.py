"""The Dagster layer of the questions: gold_results for tiny|42 stores the artifact and passes its
per-state rule checks; gold_audit over one state says, under each rule's own check, which rules were
not judged and why."""

from __future__ import annotations

import warnings
from pathlib import Path

from dagster import AssetMaterialization, DagsterInstance, MultiPartitionKey, materialize

from heron_pipeline.database.fingerprint import fingerprint_database
from heron_pipeline.database.server import Server
from heron_pipeline.defs.questions import assets as question_assets
from heron_pipeline.defs.resources import BenchConfig, HeronServer
from heron_pipeline.questions.gold import read_gold_artifact
from heron_pipeline.seeding.build import build

warnings.filterwarnings("ignore", category=Warning, module="dagster")
GOOD_DIR = Path(__file__).parent / "fixtures" / "good"
KEY = MultiPartitionKey({"scale": "tiny", "seed": "42"})


def _resources(settings) -> dict:
    return {"heron": HeronServer(dsn=settings.dsn or "", data_dir=str(settings.data_dir), port=settings.port),
            "bench": BenchConfig(questions_dir=str(GOOD_DIR))}


def test_materializing_gold_results_and_the_audit_for_tiny_42(server: Server, settings) -> None:
    if not server.database_exists("heron_tiny_42"):
        build(server, "tiny", 42)
    instance = DagsterInstance.ephemeral()
    instance.add_dynamic_partitions("seed", ["42"])
    result = materialize([question_assets.gold_results], instance=instance, partition_key=KEY,
                         resources=_resources(settings))
    assert result.success
    metadata = result.asset_materializations_for_node("gold_results")[0].metadata
    path = Path(metadata["path"].value)
    assert path.parent == settings.artifacts / "gold" / "tiny_42" and path.stem == metadata["digest"].value
    assert set(read_gold_artifact(path)) == {"f001", "f002", "f003"}
    # built outside Dagster: no database materialization to read, so the state is looked up
    assert metadata["fingerprint"].value == fingerprint_database(server.benchmark_dsn("tiny", 42)).digest
    checks = result.get_asset_check_evaluations()
    assert {c.check_name for c in checks} == {"state_passes", "executes", "non_empty", "alt_agrees", "repeatable",
                                              "ties", "latency"}
    assert all(c.passed for c in checks), [(c.check_name, c.description) for c in checks if not c.passed]

    audit = materialize([question_assets.gold_audit], instance=instance, partition_key="tiny",
                        resources=_resources(settings), raise_on_error=False)
    evaluations = {e.check_name: e for e in audit.get_asset_check_evaluations()}
    report = audit.asset_materializations_for_node("gold_audit")[0].metadata
    assert report["seeds"].value == [42]
    # three questions cannot meet the balance rule, so the blocking audit check fails …
    assert not evaluations["audit_passes"].passed and report["by_rule"].value["balance"] > 0
    assert not evaluations["balance"].passed and evaluations["balance"].severity.value == "ERROR"
    # … and with one seed each cross-seed rule is not judged: no evaluation (Skipped, never a pass or a
    # failure), its reason in the asset's not_judged metadata (issue 34)
    for check in ("shape_stable", "varies", "trap_live"):
        assert check not in evaluations
    assert report["not_judged"].value == {
        "shape-stable": "needs at least two seeds; 1 state audited (tiny_42)",
        "varies": "needs at least two seeds; 1 state audited (tiny_42)",
        "trap-live": "judged at small, bench, large only; this audit is at tiny"}


def test_gold_results_takes_the_state_the_database_asset_recorded(server: Server, settings) -> None:
    """Lineage, not a second full-table hash: the state comes from its `database` materialization
    (a sentinel fingerprint here, so a recomputation would show)."""
    if not server.database_exists("heron_tiny_42"):
        build(server, "tiny", 42)
    instance = DagsterInstance.ephemeral()
    instance.add_dynamic_partitions("seed", ["42"])
    state = {"scale": "tiny", "seed": 42, "database": "heron_tiny_42", "fingerprint": "recorded-by-database",
             "generator_version": "g", "build_label": "l", "built": True}
    instance.report_runless_asset_event(AssetMaterialization("database", partition=str(KEY),
                                                             metadata={"result": state}))
    result = materialize([question_assets.gold_results], instance=instance, partition_key=KEY,
                         resources=_resources(settings))
    metadata = result.asset_materializations_for_node("gold_results")[0].metadata
    assert metadata["fingerprint"].value == "recorded-by-database"


def test_a_non_integer_seed_partition_fails_the_first_step_with_one_clear_message(settings) -> None:
    instance = DagsterInstance.ephemeral()
    instance.add_dynamic_partitions("seed", ["abc"])
    result = materialize([question_assets.gold_results], instance=instance,
                         partition_key=MultiPartitionKey({"scale": "tiny", "seed": "abc"}),
                         resources=_resources(settings), raise_on_error=False)
    assert not result.success
    [failure] = [e for e in result.all_events if e.event_type_value == "STEP_FAILURE"]
    error = failure.step_failure_data.error
    assert error.cls_name == "Failure" and error.cause is None
    assert "seed partition 'abc' is not an integer seed" in failure.step_failure_data.user_failure_data.description
