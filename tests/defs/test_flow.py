"""One launch of `bench_job` equals one `heron bench` through the core: same states, same standings
(wall-time figures aside), same provenance; a skipped tool says so in its check, and the retrieval
board is in the standings' and the leaderboard's metadata."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from dagster import (AssetKey, AssetRecordsFilter, DagsterEventType, DagsterInstance, EventRecordsFilter, RunsFilter, execute_job,
                     reconstructable)

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "benchmarks"))

from bench_dagster import comparable  # noqa: E402
from dagster_jobs import resources_config  # noqa: E402

from heron_pipeline.bench import BenchOptions, run_bench  # noqa: E402


@pytest.mark.e2e
def test_cli_and_dagster_give_identical_standings_on_tiny_42_43_44(server, settings, tmp_path) -> None:
    seeds = (42, 43, 44)
    cli = run_bench(server, tmp_path / "cli", BenchOptions(scale="tiny", seeds=seeds))
    cli_board = cli.standings.load()
    assert [t["tool"] for t in cli_board["tools"]] == ["alt", "gold"]

    config = resources_config(str(settings.data_dir), settings.port, settings.dsn or "")
    config["resources"]["heron"]["config"]["artifact_dir"] = str(tmp_path / "dagster")
    (tmp_path / "home").mkdir()
    with DagsterInstance.local_temp(str(tmp_path / "home")) as instance:
        config["ops"] = {"run_pipeline": {"config": {"scale": "tiny", "seeds": list(seeds)}}}
        with execute_job(reconstructable(_bench_job), instance=instance, run_config=config) as launched:
            assert launched.success, [e.message for e in launched.all_events if e.is_failure]
        stages = instance.get_run_records(RunsFilter(tags={"heron/bench_job": launched.run_id}))
        assert sorted(r.dagster_run.job_name for r in stages) == sorted(
            ["state_job"] * 3 + ["audit_job", "predictions_job"] + ["scores_job"] * 3 + ["standings_job",
                                                                                          "leaderboard_job"])
        record = instance.get_latest_materialization_event(AssetKey("standings"))
        standings_metadata = record.asset_materialization.metadata
        result = standings_metadata["result"].value
        leaderboard = instance.get_latest_materialization_event(AssetKey("leaderboard"))
        audit_checks = _check_outcomes(instance, "gold_audit")
        checks = {(e.asset_key.to_user_string(), e.partition): e for e in _check_evaluations(instance, "runs_here")}
        scores_metadata = instance.fetch_materializations(AssetRecordsFilter(
            asset_key=AssetKey("gold_scores"), asset_partitions=["tiny|42"]), limit=1).records[0] \
            .asset_materialization.metadata
    dagster_board = json.loads(Path(result["standings"]["path"]).read_text())

    assert comparable(dagster_board) == comparable(cli_board)
    # the same states and the same gold artifacts (no timing in a gold artifact, rows in canonical order)
    assert [(s["seed"], s["fingerprint"], s["generator_version"], s["gold_digest"])
            for s in dagster_board["provenance"]["states"]] == \
           [(s["seed"], s["fingerprint"], s["generator_version"], s["gold_digest"])
            for s in cli_board["provenance"]["states"]]
    assert {t: p["predictions_digest"] for t, p in dagster_board["provenance"]["tools"].items()} == \
           {t: p["predictions_digest"] for t, p in cli_board["provenance"]["tools"].items()}
    skipped = {e["tool"] for e in cli_board["excluded"]}
    assert {"raw-llm", "cli"} <= skipped  # no endpoint, no command: recorded, not on the board
    published = json.loads((tmp_path / "dagster" / "results" / "leaderboard.json").read_text())
    [board] = published["standings"]
    for state in board["provenance"]["states"]:
        assert {"fingerprint", "generator_version", "gold_digest"} <= set(state)
    assert board["provenance"]["questions_digest"] and board["provenance"]["harness_version"]
    assert "| gold |" in leaderboard.asset_materialization.metadata["standings"].value
    # the audit's checks, each for its own rule: at tiny only trap-live is not judged — planned, never
    # evaluated (Skipped in the UI), never a failure (issue 34)
    assert audit_checks.pop("trap_live") == ("skipped", None)
    assert audit_checks["shape_stable"] == audit_checks["varies"] == ("passed", "passed")
    assert {name for name, (status, _) in audit_checks.items() if status != "passed"} == set()

    # a tool that cannot run here is recorded, and its check says it was skipped and why
    skipped = checks[("raw_llm_predictions", "tiny")]
    assert not skipped.passed and skipped.severity.value == "WARN"
    assert skipped.metadata["status"].value == "skipped" and "HERON_LLM" in skipped.metadata["reason"].value
    assert checks[("gold_predictions", "tiny")].passed and checks[("gold_scores", "tiny|42")].passed
    assert not checks[("cli_scores", "tiny|43")].passed
    # the retrieval board (bm25, bm25-fk) is in the standings and leaderboard metadata
    for metadata in (standings_metadata, leaderboard.asset_materialization.metadata):
        assert {"tiny/natural/retrieval/bm25", "tiny/natural/retrieval/bm25-fk"} <= set(metadata)
        assert metadata["tiny/natural/retrieval/bm25"].value.startswith("Set-Recall @5 ")
    assert {e["tool"] for e in dagster_board["retrieval"]} == {"bm25", "bm25-fk"}
    # a scores asset shows its state's wrong questions by cause (the core's registry figure) and the
    # trap mutant answers it was diagnosed with: the same bytes the CLI run stored
    cli_42 = next(s for s in cli.scores if s.tool == "gold" and s.seed == 42)
    assert cli_42.wrong_by_cause == {} and scores_metadata["wrong_by_cause"].value == "none"
    assert scores_metadata["wrong_by_cause_json"].value == {}
    assert scores_metadata["mutant_answers_digest"].value == cli_42.mutant_answers.digest


def _check_outcomes(instance: DagsterInstance, asset: str) -> dict[str, tuple[str, str | None]]:
    """Check name -> ("passed" or the failed check's severity, its description), latest evaluation;
    ("skipped", None) for a check planned and never evaluated."""
    from heron_pipeline.definitions import defs

    keys = list(defs.resolve_asset_graph().get(AssetKey(asset)).check_keys)
    records = instance.event_log_storage.get_latest_asset_check_execution_by_key(keys)
    outcomes = {}
    for key, record in records.items():
        evaluation = record.evaluation
        if not hasattr(evaluation, "passed"):  # planned and never evaluated: a rule not judged here
            outcomes[key.name] = ("skipped", None)
            continue
        outcomes[key.name] = ("passed" if evaluation.passed else evaluation.severity.value, evaluation.description)
    assert set(outcomes) == {k.name for k in keys}
    return outcomes


def _bench_job():
    from heron_pipeline.definitions import defs

    return defs.resolve_job_def("bench_job")


def _check_evaluations(instance: DagsterInstance, name: str) -> list:
    """Every evaluation of the checks called ``name``, oldest first."""
    records = instance.get_event_records(EventRecordsFilter(event_type=DagsterEventType.ASSET_CHECK_EVALUATION),
                                         ascending=True)
    evaluations = [r.event_log_entry.dagster_event.event_specific_data for r in records]
    return [e for e in evaluations if e.check_name == name]
