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


#: The observable sources and the data version each reports (the digest of its files).
def _current_source_versions() -> dict[str, str]:
    from heron_pipeline.defs.versions import ddl_version, questions_version

    return {"schema_catalog": ddl_version(), "questions": questions_version()}


def sources_to_observe(current: dict[str, str], observed: dict[str, str | None]) -> list[str]:
    """The sources never observed, or last observed at another data version than their files' now."""
    return sorted(key for key, version in current.items() if observed.get(key) != version)


@sensor(name="observe_sources", job_name="observe_sources_job", default_status=DefaultSensorStatus.RUNNING,
        minimum_interval_seconds=30)
def observe_sources_sensor(context: SensorEvaluationContext):
    """Observes `schema_catalog` and `questions` when they were never observed (a fresh instance) or their
    files' digest differs from the last observation, so the sources never say "Never observed" and
    everything downstream shows as stale exactly when the schema or a question changed."""
    from dagster import AssetKey, AssetRecordsFilter, RunRequest, RunsFilter
    from dagster._core.storage.dagster_run import IN_PROGRESS_RUN_STATUSES

    if context.instance.get_runs(RunsFilter(job_name="observe_sources_job", statuses=IN_PROGRESS_RUN_STATUSES),
                                 limit=1):
        return SkipReason("an observation of the sources is under way")  # parsing the DDL can take a minute
    current = _current_source_versions()
    observed = {}
    for key in current:
        found = context.instance.fetch_observations(AssetRecordsFilter(asset_key=AssetKey(key)), limit=1).records
        observed[key] = found[0].asset_observation.data_version if found else None
    stale = sources_to_observe(current, observed)
    if not stale:
        return SkipReason("schema_catalog and questions are observed at their current data versions")
    return RunRequest(run_key="observe-" + "-".join(f"{k}:{current[k]}" for k in stale),
                      asset_selection=[AssetKey(k) for k in stale])
