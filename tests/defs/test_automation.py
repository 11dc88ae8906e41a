"""The seeds sensor, the nightly schedule and seed partition names (no server needed)."""

from __future__ import annotations

import pytest
from dagster import DagsterInstance, SensorResult, build_schedule_context, build_sensor_context

from heron_pipeline.defs.automation.schedules import nightly_tool_runs
from heron_pipeline.defs.automation.sensors import seed_partitions_sensor
from heron_pipeline.defs.partitions import BadSeedPartition, state_of


def test_the_sensor_registers_the_configured_seeds(monkeypatch) -> None:
    monkeypatch.setenv("HERON_SEEDS", "42,43,44")
    instance = DagsterInstance.ephemeral()
    instance.add_dynamic_partitions("seed", ["42"])
    result = seed_partitions_sensor(build_sensor_context(instance=instance))
    assert isinstance(result, SensorResult)
    [request] = result.dynamic_partitions_requests
    assert request.partitions_def_name == "seed" and list(request.partition_keys) == ["43", "44"]
    instance.add_dynamic_partitions("seed", ["43", "44"])
    assert not isinstance(seed_partitions_sensor(build_sensor_context(instance=instance)), SensorResult)


def test_the_sensor_reports_a_non_integer_seed(monkeypatch) -> None:
    monkeypatch.setenv("HERON_SEEDS", "42,forty-three")
    with pytest.raises(Exception, match="seeds must be integers.*forty-three"):
        seed_partitions_sensor(build_sensor_context(instance=DagsterInstance.ephemeral()))


def test_the_nightly_schedule_asks_every_configured_scale_with_failed_calls_retried(monkeypatch) -> None:
    monkeypatch.setenv("HERON_SCALES", "tiny,small")
    assert nightly_tool_runs.cron_schedule == "0 2 * * *" and nightly_tool_runs.execution_timezone == "UTC"
    assert nightly_tool_runs.default_status.value == "STOPPED"
    import datetime as dt

    context = build_schedule_context(scheduled_execution_time=dt.datetime(2026, 12, 2, 2, tzinfo=dt.timezone.utc))
    requests = list(nightly_tool_runs(context))
    assert [r.partition_key for r in requests] == ["tiny", "small"]
    assert all(r.run_config["resources"]["bench"]["config"]["retry_failed"] is True for r in requests)
    assert len({r.run_key for r in requests}) == 2


@pytest.mark.parametrize("key", ["tiny|abc", "tiny|4.2", "tiny|-1", "tiny|2147483648"])
def test_a_bad_seed_partition_is_one_clear_error(key) -> None:
    with pytest.raises(BadSeedPartition, match="seed partition"):
        state_of(key)


def test_a_good_seed_partition_is_its_integer() -> None:
    assert state_of("small|43") == ("small", 43)


def test_the_sources_are_observed_on_a_fresh_instance_then_left_alone() -> None:
    """`questions` and `schema_catalog` never stay "Never observed": the sensor asks for both, the observation
    job records their data versions, and the next tick has nothing to do."""
    from dagster import AssetKey, RunRequest, SkipReason, execute_job, reconstructable

    from heron_pipeline.defs.automation.sensors import observe_sources_sensor
    from heron_pipeline.defs.versions import ddl_version, questions_version

    with DagsterInstance.ephemeral() as instance:
        request = observe_sources_sensor(build_sensor_context(instance=instance))
        assert isinstance(request, RunRequest)
        assert sorted(k.to_user_string() for k in request.asset_selection) == ["questions", "schema_catalog"]
        with execute_job(reconstructable(_observe_sources_job), instance=instance,
                         asset_selection=request.asset_selection) as done:
            assert done.success
        for key, version in (("questions", questions_version()), ("schema_catalog", ddl_version())):
            record = instance.get_latest_data_version_record(AssetKey(key), is_source=True)
            assert record is not None and record.asset_observation.data_version == version
        assert isinstance(observe_sources_sensor(build_sensor_context(instance=instance)), SkipReason)


def test_no_second_observation_is_asked_while_one_is_under_way() -> None:
    from dagster import SkipReason
    from dagster._core.storage.dagster_run import DagsterRun, DagsterRunStatus

    from heron_pipeline.defs.automation.sensors import observe_sources_sensor

    with DagsterInstance.ephemeral() as instance:
        instance.add_run(DagsterRun(job_name="observe_sources_job", run_id="0" * 36, status=DagsterRunStatus.STARTED))
        skipped = observe_sources_sensor(build_sensor_context(instance=instance))
        assert isinstance(skipped, SkipReason) and "under way" in skipped.skip_message


def _observe_sources_job():
    from heron_pipeline.definitions import defs

    return defs.resolve_job_def("observe_sources_job")


@pytest.mark.parametrize("observed, expected", [
    ({}, ["questions", "schema_catalog"]),  # a fresh instance
    ({"schema_catalog": "d1", "questions": "q1"}, []),
    ({"schema_catalog": "d0", "questions": "q1"}, ["schema_catalog"]),  # the DDL changed
    ({"schema_catalog": "d1", "questions": None}, ["questions"]),
])
def test_sources_to_observe(observed, expected) -> None:
    from heron_pipeline.defs.automation.sensors import sources_to_observe

    assert sources_to_observe({"schema_catalog": "d1", "questions": "q1"}, observed) == expected


def test_bench_job_runs_every_stage_in_dependency_order() -> None:
    from heron_pipeline.defs.automation.pipeline import stage_runs

    runs = stage_runs("tiny", [42, 43])
    assert [(name, tags.get("dagster/partition")) for name, tags in runs] == [
        ("state_job", "tiny|42"), ("state_job", "tiny|43"), ("audit_job", "tiny"), ("predictions_job", "tiny"),
        ("scores_job", "tiny|42"), ("scores_job", "tiny|43"), ("standings_job", "tiny"), ("leaderboard_job", None)]
    assert runs[1][1] == {"dagster/partition": "tiny|43", "dagster/partition/scale": "tiny",
                          "dagster/partition/seed": "43"}


def test_the_automation_yields_to_bench_job_and_follows_everything_else() -> None:
    """Issue 34: during a `bench_job` the sensor started a scores run as soon as the job's gold changed,
    before the job's own predictions (stale predictions scored). With heron's conditions, on Dagster's own
    evaluation: an update made by a `bench_job` stage run requests nothing downstream, a missing partition
    whose inputs the job made is left to the job, and the same update made outside the job is followed."""
    from dagster import DagsterInstance, StaticPartitionsDefinition, asset, evaluate_automation_conditions, materialize

    from heron_pipeline.defs.conditions import BENCH_JOB_TAG
    from heron_pipeline.defs.tools.assets import FOLLOW, FOLLOW_BUILT

    seeds = StaticPartitionsDefinition(["42", "43"])

    @asset(partitions_def=seeds)
    def gold() -> None: ...

    @asset(partitions_def=seeds)
    def predictions() -> None: ...

    @asset(partitions_def=seeds, deps=[gold, predictions], automation_condition=FOLLOW)
    def scores() -> None: ...

    @asset(deps=[scores], automation_condition=FOLLOW_BUILT)
    def board() -> None: ...

    assets = [gold, predictions, scores, board]
    instance = DagsterInstance.ephemeral()
    for seed in ("42",):
        materialize(assets, instance=instance, partition_key=seed, selection=[gold, predictions, scores])
    materialize([board], instance=instance)
    cursor = evaluate_automation_conditions(defs=assets, instance=instance).cursor

    def requested() -> set[str]:
        nonlocal cursor
        result = evaluate_automation_conditions(defs=assets, instance=instance, cursor=cursor)
        cursor = result.cursor
        return {f"{a.key.to_user_string()}:{partition}" for a in assets if result.get_num_requested(a.key)
                for partition in result.get_requested_partitions(a.key)}

    assert requested() == set()
    # bench_job's state stage re-makes gold 42, then builds seed 43's gold and predictions: nothing is asked
    materialize([gold], instance=instance, partition_key="42", tags={BENCH_JOB_TAG: "run-1"})
    assert requested() == set()
    materialize([gold, predictions], instance=instance, partition_key="43", tags={BENCH_JOB_TAG: "run-1"})
    assert requested() == set()
    # the job's own scores run, then the same kind of update from the UI: scores 42 follow it
    materialize([scores], instance=instance, partition_key="43", tags={BENCH_JOB_TAG: "run-1"})
    assert requested() == set()
    materialize([gold], instance=instance, partition_key="42")
    assert requested() == {"scores:42"}
