"""One scale through the Dagster jobs equals one `heron bench` through the core: same states, same
standings (wall-time figures aside), same provenance."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from dagster import AssetKey, DagsterInstance

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "benchmarks"))

from bench_dagster import comparable  # noqa: E402
from dagster_jobs import resources_config, run_scale  # noqa: E402

from heron_pipeline.bench import BenchOptions, run_bench  # noqa: E402


def test_cli_and_dagster_give_identical_standings_on_tiny_42_43_44(server, settings, tmp_path) -> None:
    seeds = (42, 43, 44)
    cli = run_bench(server, tmp_path / "cli", BenchOptions(scale="tiny", seeds=seeds))
    cli_board = cli.standings.load()
    assert [t["tool"] for t in cli_board["tools"]] == ["alt", "gold"]

    config = resources_config(str(settings.data_dir), settings.port, settings.dsn or "")
    config["resources"]["heron"]["config"]["artifact_dir"] = str(tmp_path / "dagster")
    (tmp_path / "home").mkdir()
    with DagsterInstance.local_temp(str(tmp_path / "home")) as instance:
        run_scale(instance, "tiny", list(seeds), config)
        record = instance.get_latest_materialization_event(AssetKey("standings"))
        result = record.asset_materialization.metadata["result"].value
        leaderboard = instance.get_latest_materialization_event(AssetKey("leaderboard"))
        audit_checks = _check_outcomes(instance, "gold_audit")
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
    # the audit's checks, each for its own rule: at tiny only trap-live is not judged, and it says so
    assert audit_checks.pop("trap_live") == ("WARN", "not judged: judged at small, bench, large only; this audit "
                                                     "is at tiny")
    assert audit_checks["shape_stable"] == audit_checks["varies"] == ("passed", "passed")
    assert {name for name, (status, _) in audit_checks.items() if status != "passed"} == set()


def _check_outcomes(instance: DagsterInstance, asset: str) -> dict[str, tuple[str, str | None]]:
    """Check name -> ("passed" or the failed check's severity, its description), latest evaluation."""
    from heron_pipeline.definitions import defs

    keys = list(defs.resolve_asset_graph().get(AssetKey(asset)).check_keys)
    records = instance.event_log_storage.get_latest_asset_check_execution_by_key(keys)
    outcomes = {}
    for key, record in records.items():
        evaluation = record.evaluation
        outcomes[key.name] = ("passed" if evaluation.passed else evaluation.severity.value, evaluation.description)
    assert set(outcomes) == {k.name for k in keys}
    return outcomes
