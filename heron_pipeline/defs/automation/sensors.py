"""Sensors: the configured seeds become partitions; automation conditions run the downstream steps."""

from dagster import (AssetSelection, AutomationConditionSensorDefinition, DefaultSensorStatus, SensorEvaluationContext,
                     SensorResult, SkipReason, sensor)

from heron_pipeline.defs.partitions import seed_partitions


def missing_seeds(configured: tuple[int, ...], present: list[str]) -> list[str]:
    """The configured seeds not yet registered as partitions, as partition names."""
    have = set(present)
    return [str(s) for s in configured if str(s) not in have]


@sensor(name="seed_partitions", default_status=DefaultSensorStatus.RUNNING, minimum_interval_seconds=30)
def seed_partitions_sensor(context: SensorEvaluationContext):
    """Registers every seed listed under `seeds` in heron.toml (or HERON_SEEDS) as a `seed` partition.
    A seed that is not an integer is reported as this sensor's error, naming the file."""
    from heron_pipeline.config import load_settings

    configured = load_settings().seeds  # raises ValueError naming the bad seed
    missing = missing_seeds(configured, context.instance.get_dynamic_partitions(seed_partitions.name))
    if not missing:
        return SkipReason(f"seeds {', '.join(map(str, configured))} are all registered")
    return SensorResult(dynamic_partitions_requests=[seed_partitions.build_add_request(missing)])


#: Runs scores, standings and the leaderboard when their inputs change (their automation conditions).
automation_sensor = AutomationConditionSensorDefinition(
    "heron_automation", target=AssetSelection.all(), default_status=DefaultSensorStatus.RUNNING,
    minimum_interval_seconds=30)
