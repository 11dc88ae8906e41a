"""``bench_job``: the whole pipeline of one scale over chosen seeds, launched as one job.

Dagster runs an asset job over one partitions definition only, and heron's pipeline spans three
(scale × seed for the states, gold and scores; scale for the audit, predictions and standings; none for
the leaderboard). So the job is one step that runs the stage jobs in dependency order — states → gold →
audit → predictions → scores → standings → leaderboard — each partition as its own run in this
process (``execute_job``), exactly what an asset backfill of the same selection would run, with the
launch's resource configuration passed on. Each stage starts as soon as the previous one finished,
where an asset backfill waits for the backfill daemon's next 30-second tick between stages.

The launch's ``execution`` block (``executors.py``) is passed on to every stage run. When it sends
steps to Celery workers, the runs of one per-state stage (one per seed) are started together, each in a
process of its own, so the states, the gold and the scores of every seed are steps on the workers at
once, as the tools' predictions of one scale are steps of one run; in process they run one after the
other, as before. Processes, not threads: two ``execute_job`` in threads of one process deadlock in
Python's logging locks (a run's setup calls ``logging.config.dictConfig`` while the other run's event
handler holds its own lock and waits for the module's).
"""

from dagster import Config, Failure, OpExecutionContext, job, op
from pydantic import Field

from heron_pipeline.defs.automation.executors import pipeline_executor, runs_distributed
from heron_pipeline.defs.conditions import BENCH_JOB_TAG
from heron_pipeline.processes import stop_processes

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
    if context.run.run_config.get("execution"):
        run_config["execution"] = context.run.run_config["execution"]
    together = runs_distributed(run_config.get("execution"))
    for wave in stage_waves(stage_runs(config.scale, seeds), together):
        for name, tags in wave:
            context.log.info(f"{name} {tags.get('dagster/partition', '(unpartitioned)')}")
        if len(wave) == 1:
            outcomes = [run_stage(context.instance, wave[0], run_config, context.run_id)]
        else:
            ref = context.instance.get_ref()
            outcomes = run_together(run_stage_on_instance, [(ref, run, run_config, context.run_id) for run in wave])
        failed = [outcome for outcome in outcomes if outcome]
        if failed:
            raise Failure(description=failed[0])


#: Seconds a stage process has to end its run after SIGTERM before it is killed.
STOP_GRACE_S = 20.0


def run_together(target, calls: list[tuple]) -> list:
    """``target(*args)`` for every ``args`` of ``calls``, each in a spawned process of its own, at once; their
    return values in order. Nothing outlives the caller: every process dies with it (``PR_SET_PDEATHSIG``,
    Linux), and when the wait is interrupted (SIGTERM/SIGINT to a Dagster run raises in its step) the
    processes are sent SIGTERM (a stage run's own interrupt: it revokes its Celery steps), given
    ``STOP_GRACE_S``, then killed, before the interruption goes on. (A ``ProcessPoolExecutor`` waited for
    its processes to finish, so the launcher ignored SIGTERM, and left them running when killed.)"""
    import multiprocessing

    spawn = multiprocessing.get_context("spawn")
    answers = spawn.SimpleQueue()
    import os

    processes = [spawn.Process(target=_call_dying_with_parent, args=(os.getpid(), answers, index, target, args))
                 for index, args in enumerate(calls)]
    try:
        for process in processes:
            process.start()
        results: dict[int, object] = {}
        while len(results) < len(calls):
            index, ok, value = answers.get()
            if not ok:
                raise Failure(description=f"bench_job: a stage process failed: {value}")
            results[index] = value
        for process in processes:
            process.join()
        return [results[i] for i in range(len(calls))]
    except BaseException:
        stop_processes(processes, STOP_GRACE_S)
        raise


def _call_dying_with_parent(parent: int, answers, index: int, target, args: tuple) -> None:
    """In a process ``run_together`` started: die with the parent, run ``target``, report the outcome."""
    import ctypes
    import os
    import signal
    import sys

    if sys.platform.startswith("linux"):
        ctypes.CDLL(None).prctl(1, int(signal.SIGTERM))  # PR_SET_PDEATHSIG
    if os.getppid() != parent:  # the parent died while this process was starting, before the line above
        return
    try:
        answers.put((index, True, target(*args)))
    except Exception as err:  # noqa: BLE001 — reported to the caller as the stage's failure line
        answers.put((index, False, f"{type(err).__name__}: {err}"))


def stage_waves(runs: list[tuple[str, dict[str, str]]], together: bool) -> list[list[tuple[str, dict[str, str]]]]:
    """The runs grouped into waves started at once: consecutive runs of the same stage job when
    ``together`` (they are independent partitions), else one run per wave."""
    waves: list[list[tuple[str, dict[str, str]]]] = []
    for run in runs:
        if together and waves and waves[-1][0][0] == run[0]:
            waves[-1].append(run)
        else:
            waves.append([run])
    return waves


def run_stage(instance, run: tuple[str, dict[str, str]], run_config: dict, pipeline_run_id: str) -> str | None:
    """Runs one stage run to its end on ``instance``; the failure line when it failed, None when it succeeded."""
    from dagster import execute_job

    name, tags = run
    where = tags.get("dagster/partition", "(unpartitioned)")
    with execute_job(stage_job(name), instance=instance, run_config=run_config,
                     tags={**tags, BENCH_JOB_TAG: pipeline_run_id}) as result:
        if result.success:
            return None
        failures = [e.message for e in result.all_events if e.is_failure][:3]
        return f"bench_job: {name} {where} failed (run {result.run_id}): {failures}"


def run_stage_on_instance(instance_ref, run: tuple[str, dict[str, str]], run_config: dict,
                          pipeline_run_id: str) -> str | None:
    """``run_stage`` in a process of its own, on the instance ``instance_ref`` points to."""
    from dagster import DagsterInstance

    with DagsterInstance.from_ref(instance_ref) as instance:
        return run_stage(instance, run, run_config, pipeline_run_id)


#: The launchpad's starting configuration: the scale and the seeds in view (empty seeds: heron.toml's), so
#: the seed setting is not mistaken for the scaffolded `primary_seed` of the bench resource.
DEFAULT_RUN_CONFIG = {"ops": {"run_pipeline": {"config": {"scale": "tiny", "seeds": []}}}}


@job(name="bench_job", executor_def=pipeline_executor, config=DEFAULT_RUN_CONFIG,
     description="The whole pipeline of one scale over chosen seeds: states → gold → audit → "
                 "predictions → scores → standings → leaderboard (launchpad: ops.run_pipeline."
                 "config.scale / seeds; execution.config.celery sends the stages' steps "
                 "to Celery workers).")
def bench_job():
    run_pipeline()
