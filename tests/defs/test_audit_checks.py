"""The audit's asset checks on tiny × 3 seeds: each rule's check passes, fails or says why it was not
judged — for its own rule only. (The old `cross_seed_judged` check failed on every tiny run and blamed
"at least two seeds" when the rule not judged was `trap-live`.) A rule not judged at this scale is shown as
Skipped, never as Failed (issue 34: `trap_live` showed Failed on every tiny run while `audit_passes` said a
rule not judged is never a failure)."""

from __future__ import annotations

from pathlib import Path

from dagster import DagsterInstance, MultiPartitionKey, materialize

from heron_pipeline.defs.questions import assets as question_assets
from heron_pipeline.defs.resources import BenchConfig
from heron_pipeline.questions.audit import RULES, Scope
from heron_pipeline.seeding.build import build

GOOD_DIR = Path(__file__).resolve().parents[1] / "questions" / "fixtures" / "good"
SEEDS = (42, 43, 44)


def test_each_check_of_gold_results_and_gold_audit_on_tiny_3_seeds(server, heron_resource) -> None:
    for seed in SEEDS:
        if not server.database_exists(f"heron_tiny_{seed}"):
            build(server, "tiny", seed)
    resources = {"heron": heron_resource, "bench": BenchConfig(questions_dir=str(GOOD_DIR))}
    instance = DagsterInstance.ephemeral()
    instance.add_dynamic_partitions("seed", [str(s) for s in SEEDS])
    for seed in SEEDS:
        gold = materialize([question_assets.gold_results], instance=instance, resources=resources,
                           partition_key=MultiPartitionKey({"scale": "tiny", "seed": str(seed)}))
        checks = {c.check_name: c for c in gold.get_asset_check_evaluations()}
        assert set(checks) == {"state_passes"} | {r.check_name for r in RULES if r.scope is Scope.STATE}
        assert all(c.passed for c in checks.values()), [(n, c.description) for n, c in checks.items() if not c.passed]

    audit = materialize([question_assets.gold_audit], instance=instance, resources=resources, partition_key="tiny",
                        raise_on_error=False)
    checks = {c.check_name: c for c in audit.get_asset_check_evaluations()}
    # the one rule not judged at tiny has no evaluation (so no Failed), every other rule has one
    assert set(checks) == {"audit_passes"} | {r.check_name for r in RULES if r.scope is not Scope.STATE} - {"trap_live"}
    outcome = {name: ("passed" if c.passed else c.severity.value, c.description) for name, c in checks.items()}
    # three seeds: the cross-seed rules are judged, and pass
    assert outcome["shape_stable"] == ("passed", "passed") and outcome["varies"] == ("passed", "passed")
    # ... and no Failed: the run failed for `balance`, so Dagster says the unrun check's execution failed
    assert shown_status(instance, "gold_audit", "trap_live") == "EXECUTION_FAILED"
    assert shown_status(instance, "gold_audit", "balance") == "FAILED"
    # three questions cannot meet the balance rule: that check fails, and the gate with it, for that rule alone
    assert outcome["balance"][0] == "ERROR" and checks["balance"].metadata["problems"].value > 0
    assert not checks["audit_passes"].passed and checks["audit_passes"].severity.value == "ERROR"
    assert checks["audit_passes"].metadata["failed_rules"].value == ["balance"]
    assert {name for name, (status, _) in outcome.items() if status != "passed"} == {"balance", "audit_passes"}
    assert not any("two seeds" in (c.description or "") for c in checks.values())
    report = audit.asset_materializations_for_node("gold_audit")[0].metadata
    assert report["seeds"].value == list(SEEDS)
    assert report["not_judged"].value == {"trap-live": "judged at small, bench, large only; this audit is at tiny"}


def shown_status(instance, asset: str, check: str) -> str:
    """The status the UI shows for the latest execution of a check (Dagster's own resolution)."""
    import asyncio

    from dagster import AssetCheckKey, AssetKey
    from dagster._core.loader import LoadingContextForTest

    [record] = instance.event_log_storage.get_asset_check_execution_history(AssetCheckKey(AssetKey(asset), check),
                                                                            limit=1)
    return asyncio.run(record.resolve_status(LoadingContextForTest(instance))).value


def test_a_rule_not_judged_at_tiny_is_shown_skipped_never_failed(server, heron_resource) -> None:
    """The real question set on tiny × 3 seeds: the audit passes, and `trap_live` (judged at small and
    above) is Skipped, with the reason in the asset's `not_judged` metadata; the judged rules are Passed."""
    for seed in SEEDS:
        if not server.database_exists(f"heron_tiny_{seed}"):
            build(server, "tiny", seed)
    resources = {"heron": heron_resource, "bench": BenchConfig()}
    instance = DagsterInstance.ephemeral()
    instance.add_dynamic_partitions("seed", [str(s) for s in SEEDS])
    for seed in SEEDS:
        materialize([question_assets.gold_results], instance=instance, resources=resources,
                    partition_key=MultiPartitionKey({"scale": "tiny", "seed": str(seed)}))
    audit = materialize([question_assets.gold_audit], instance=instance, resources=resources, partition_key="tiny")
    assert audit.success
    assert shown_status(instance, "gold_audit", "trap_live") == "SKIPPED"
    assert shown_status(instance, "gold_audit", "audit_passes") == "SUCCEEDED"
    assert shown_status(instance, "gold_audit", "varies") == "SUCCEEDED"
    metadata = audit.asset_materializations_for_node("gold_audit")[0].metadata
    assert metadata["not_judged"].value == {"trap-live": "judged at small, bench, large only; this audit is at tiny"}
