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
                               description="further Celery settings (lowercase names), passed to celery.Celery"),
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
    celery = dict(config["celery"])
    celery["backend"] = celery.get("backend") or celery["broker"]
    celery["retries"] = {"enabled": {}}  # dagster-celery's own default: a step's RetryPolicy is honoured
    return celery_executor.executor_creation_fn(InitExecutorContext(
        job=init_context.job, executor_def=celery_executor, executor_config=celery, instance=init_context.instance))


@executor(name="in_process_passing_execution_on", config_schema=EXECUTION_CONFIG)
def pipeline_executor(init_context: InitExecutorContext):
    """``bench_job``'s executor: always in process; the ``execution`` block is for the stage runs it starts."""
    return _in_process(init_context, IN_PROCESS_DEFAULTS)


def _in_process(init_context: InitExecutorContext, config: dict):
    return in_process_executor.executor_creation_fn(InitExecutorContext(
        job=init_context.job, executor_def=in_process_executor, executor_config=config, instance=init_context.instance))
