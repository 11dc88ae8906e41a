"""Running heron's Dagster jobs in dependency order on one instance (the benchmark and a test use it).

This is what one asset backfill does from the UI, spelled out job by job so that a script can time
it with ``execute_job(reconstructable(...), instance)`` — the executor declared on the Definitions
is then the one that runs (a bare ``materialize()`` would use its own).
"""

from __future__ import annotations

import warnings
from typing import Any

from dagster import DagsterInstance, MultiPartitionKey, execute_job, reconstructable

warnings.filterwarnings("ignore", category=Warning, module="dagster")


def _job(name: str):
    from heron_pipeline.definitions import defs

    return defs.resolve_job_def(name)


def state_job():
    return _job("state_job")


def audit_job():
    return _job("audit_job")


def predictions_job():
    return _job("predictions_job")


def scores_job():
    return _job("scores_job")


def standings_job():
    return _job("standings_job")


def leaderboard_job():
    return _job("leaderboard_job")


def resources_config(data_dir: str, port: int, dsn: str = "") -> dict[str, Any]:
    return {"resources": {"heron": {"config": {"data_dir": data_dir, "port": port, "dsn": dsn}}}}


def run_scale(instance: DagsterInstance, scale: str, seeds: list[int], run_config: dict[str, Any]) -> None:
    """Build, audit, predict, score and publish ``scale`` over ``seeds`` through the jobs; raises on failure."""
    instance.add_dynamic_partitions("seed", [str(s) for s in seeds])
    steps = [(state_job, [str(MultiPartitionKey({"scale": scale, "seed": str(s)})) for s in seeds]),
             (audit_job, [scale]), (predictions_job, [scale]),
             (scores_job, [str(MultiPartitionKey({"scale": scale, "seed": str(s)})) for s in seeds]),
             (standings_job, [scale]), (leaderboard_job, [None])]
    for job, partitions in steps:
        for partition in partitions:
            tags = {"dagster/partition": partition} if partition is not None else {}
            if partition is not None and "|" in partition:  # a multi-partition key needs its dimensions too
                tags.update({"dagster/partition/scale": scale, "dagster/partition/seed": partition.split("|")[1]})
            with execute_job(reconstructable(job), instance=instance, run_config=run_config, tags=tags) as result:
                if not result.success:
                    failures = [e.message for e in result.all_events if e.is_failure]
                    raise RuntimeError(f"{job.__name__} {partition}: failed: {failures[:3]}")
