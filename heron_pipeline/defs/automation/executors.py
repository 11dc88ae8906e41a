"""Where a run's steps execute: in the run's own process (the default a one-machine user has) or on
Celery workers behind a broker (``dagster-celery``, the ``heron[distributed]`` extra), chosen by run
configuration, never by the code:

    execution:
      config:
        celery:
          broker: redis://127.0.0.1:6379/0
          backend: redis://127.0.0.1:6379/1

The Celery fields are declared here rather than taken from ``dagster_celery`` so that importing the
definitions needs no optional package; the executor itself is built by ``dagster_celery`` when a run
asks for it. ``bench_job`` uses ``pipeline_executor``: its one step runs in the launching process (a
step that waits on other steps must not hold a worker) and passes the same ``execution`` block on to
every stage run it starts.
"""

from __future__ import annotations

from dagster import (Field, InitExecutorContext, Noneable, Permissive, Selector, StringSource, executor,
                     in_process_executor, multiple_process_executor_requirements)

CELERY_CONFIG = Field(
    {
        "broker": Field(StringSource, description="the broker URL the workers listen on, e.g. redis://127.0.0.1:6379/0"),
        "backend": Field(Noneable(StringSource), is_required=False, default_value=None,
                         description="where the workers put each step's result; empty: the broker's URL"),
        "include": Field([str], is_required=False, default_value=[],
                         description="modules every worker imports before its first task"),
        "config_source": Field(Noneable(Permissive()), is_required=False,
                               description="further Celery settings (lowercase names), passed to celery.Celery; "
                                           "heron's worker settings (workers.WORKER_SETTINGS) are added"),
        "lost_after_s": Field(float, is_required=False, default_value=30.0,
                              description="seconds a worker running a step may leave pings unanswered before it is "
                                          "lost: the step is sent once more, then fails, naming the step"),
    },
    description="Send every step to Celery workers (dagster-celery); the run's instance must be one the "
                "workers share (DAGSTER_HOME with PostgreSQL storage).",
)

EXECUTION_CONFIG = Field(
    Selector({"in_process": in_process_executor.config_schema.as_field(), "celery": CELERY_CONFIG}),
    default_value={"in_process": {}},
    description="in_process (default): every step in the run's process; celery: every step on a Celery worker.",
)

#: The in-process executor's configuration when none is given (its schema's defaults).
IN_PROCESS_DEFAULTS = {"retries": {"enabled": {}}, "step_dependency_config": {"require_upstream_step_success": True}}

#: What to install when a run asks for Celery and dagster-celery is missing (one line, the fix in it).
MISSING_CELERY = ("execution.config.celery needs dagster-celery, which is not installed: "
                  "pip install -c constraints.txt -e '.[distributed]'")


def runs_distributed(execution: dict | None) -> bool:
    """Whether a run's ``execution`` block sends its steps to workers (so independent runs may go together)."""
    return "celery" in ((execution or {}).get("config") or {})


def _requirements(executor_config: dict):
    return multiple_process_executor_requirements() if "celery" in executor_config else []


@executor(name="in_process_or_celery", config_schema=EXECUTION_CONFIG, requirements=_requirements)
def heron_executor(init_context: InitExecutorContext):
    """heron's executor: the in-process executor, or dagster-celery's when the run's config says ``celery``."""
    config = init_context.executor_config
    if "celery" not in config:
        return _in_process(init_context, config["in_process"])
    try:
        from dagster_celery import celery_executor
    except ImportError:
        from dagster import Failure

        raise Failure(description=MISSING_CELERY) from None
    from heron_pipeline.defs.automation.workers import WORKER_MODULE, WORKER_SETTINGS

    celery = dict(config["celery"])
    lost_after_s = float(celery.pop("lost_after_s", 30.0))
    celery["backend"] = celery.get("backend") or celery["broker"]
    celery["include"] = sorted({*(celery.get("include") or []), WORKER_MODULE})
    celery["config_source"] = {**WORKER_SETTINGS, **(celery.get("config_source") or {})}
    celery["retries"] = {"enabled": {}}  # dagster-celery's own default: a step's RetryPolicy is honoured
    executor = celery_executor.executor_creation_fn(InitExecutorContext(
        job=init_context.job, executor_def=celery_executor, executor_config=celery, instance=init_context.instance))
    return watched_celery_executor(executor, celery["config_source"], lost_after_s)


def watched_celery_executor(executor, config_source: dict, lost_after_s: float):
    """dagster-celery's executor whose step results are ``workers.WatchedTask``: a lost worker is a failed
    (or once retried) step within a stated time, and a stopped run stops waiting (``workers.py``)."""
    from dagster_celery.core_execution_loop import core_celery_execution_loop
    from dagster_celery.executor import CeleryExecutor, _submit_task

    from heron_pipeline.defs.automation.workers import WatchedTask

    class WatchedCeleryExecutor(CeleryExecutor):
        def execute(self, plan_context, execution_plan):
            from dagster import Failure

            from heron_pipeline.defs.automation.workers import broker_problem

            problem = broker_problem(self.broker)
            if problem:
                raise Failure(description=problem)

            def submit(app, context, step, queue, priority, known_state):
                return WatchedTask(app, step.key, lambda: _submit_task(app, context, step, queue, priority,
                                                                       known_state),
                                   log=context.log.warning, lost_after_s=lost_after_s)

            return core_celery_execution_loop(plan_context, execution_plan, step_execution_fn=submit)

    return WatchedCeleryExecutor(retries=executor.retries, broker=executor.broker, backend=executor.backend,
                                 include=executor.include, config_source=config_source)


@executor(name="in_process_passing_execution_on", config_schema=EXECUTION_CONFIG)
def pipeline_executor(init_context: InitExecutorContext):
    """``bench_job``'s executor: always in process; the ``execution`` block is for the stage runs it starts."""
    return _in_process(init_context, IN_PROCESS_DEFAULTS)


def _in_process(init_context: InitExecutorContext, config: dict):
    return in_process_executor.executor_creation_fn(InitExecutorContext(
        job=init_context.job, executor_def=in_process_executor, executor_config=config, instance=init_context.instance))
