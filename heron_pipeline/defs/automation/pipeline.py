"""``bench_job``: the whole pipeline of one scale over chosen seeds, launched as one job.

Dagster runs an asset job over one partitions definition only, and heron's pipeline spans three
(scale × seed for the states, gold and scores; scale for the audit, predictions and standings; none for
the leaderboard). So the job is one step that runs the stage jobs in dependency order — states → gold →
audit → predictions → scores → standings → leaderboard — each partition as its own run in this
process (``execute_job``), exactly what an asset backfill of the same selection would run, with the
launch's resource configuration passed on. Each stage starts as soon as the previous one finished,
where an asset backfill waits for the backfill daemon's next 30-second tick between stages.
"""

from dagster import Config, Failure, OpExecutionContext, job, op
from pydantic import Field

#: The stage jobs in dependency order, and whether each runs per state (scale × seed) or per scale.
STAGES = (("state_job", "state"), ("audit_job", "scale"), ("predictions_job", "scale"), ("scores_job", "state"),
          ("standings_job", "scale"), ("leaderboard_job", None))


def stage_runs(scale: str, seeds: list[int]) -> list[tuple[str, dict[str, str]]]:
    """(job name, run tags) of every run of the pipeline for ``scale`` over ``seeds``, in order."""
    runs = []
    for name, per in STAGES:
        if per == "state":
            runs += [(name, {"dagster/partition": f"{scale}|{seed}", "dagster/partition/scale": scale,
                             "dagster/partition/seed": str(seed)}) for seed in seeds]
        elif per == "scale":
            runs.append((name, {"dagster/partition": scale}))
        else:
            runs.append((name, {}))
    return runs


#: Where the stage jobs are looked up when a stage runs: the code location's root, named as
#: workspace.yaml names it (a module higher than this one; importing it here would be a cycle).
CODE_LOCATION = "heron_pipeline.definitions"


def stage_job(name: str):
    """The stage job ``name``, reconstructable in this process from the code location by name."""
    from dagster import build_reconstructable_job

    return build_reconstructable_job(CODE_LOCATION, "stage_job", reconstructable_args=(name,))


class PipelineConfig(Config):
    scale: str = Field(default="tiny", description="the scale: tiny, small, bench or large")
    seeds: list[int] = Field(default_factory=list,
                             description="the seeds to build and score; empty: `seeds` in heron.toml (HERON_SEEDS)")


#: The resources the stage runs use: required here so a launch's configuration of them is accepted and passed on.
STAGE_RESOURCES = {"heron", "bench", "llm"}


@op(name="run_pipeline", required_resource_keys=STAGE_RESOURCES)
def run_pipeline(context: OpExecutionContext, config: PipelineConfig) -> None:
    """Registers the seeds as partitions, then runs every stage job for them in dependency order (one run
    per partition, tagged with this run's id); the first failed run stops the pipeline with its reason."""
    from dagster import execute_job

    from heron_pipeline.database.names import SCALES
    from heron_pipeline.defs.partitions import seed_of, seed_partitions

    if config.scale not in SCALES:
        raise Failure(description=f"bench_job: scale {config.scale!r} is not one of {', '.join(SCALES)}")
    if config.seeds:
        seeds = [seed_of(str(s)) for s in config.seeds]
    else:
        from heron_pipeline.config import load_settings

        seeds = list(load_settings().seeds)
    instance = context.instance
    known = set(instance.get_dynamic_partitions(seed_partitions.name))
    missing = [str(s) for s in seeds if str(s) not in known]
    if missing:
        instance.add_dynamic_partitions(seed_partitions.name, missing)
    run_config = {"resources": dict(context.run.run_config.get("resources") or {})}
    for name, tags in stage_runs(config.scale, seeds):
        where = tags.get("dagster/partition", "(unpartitioned)")
        context.log.info(f"{name} {where}")
        with execute_job(stage_job(name), instance=instance, run_config=run_config,
                         tags={**tags, "heron/bench_job": context.run_id}) as result:
            if not result.success:
                failures = [e.message for e in result.all_events if e.is_failure][:3]
                raise Failure(description=f"bench_job: {name} {where} failed (run {result.run_id}): {failures}")


@job(name="bench_job", description="The whole pipeline of one scale over chosen seeds: states → gold → audit → "
                                   "predictions → scores → standings → leaderboard (launchpad: ops.run_pipeline."
                                   "config.scale / seeds).")
def bench_job():
    run_pipeline()
