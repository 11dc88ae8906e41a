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
