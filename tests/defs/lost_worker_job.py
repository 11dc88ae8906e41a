"""The job of the lost-worker tests (``test_celery_lost_worker.py``): one step that records which pool
process runs it, works for ``HERON_TEST_STEP_SECONDS`` seconds, then records that it ended, on heron's executor. Loaded by the
launcher and the Celery workers from this file (a file pointer: no package name to agree on)."""

import os
import time
from pathlib import Path

from dagster import Nothing, Out, job, op

from heron_pipeline.defs.automation.executors import heron_executor


@op(out=Out(Nothing))
def slow_step() -> None:
    folder = Path(os.environ["HERON_TEST_STARTS"])
    (folder / f"{os.getpid()}.start").write_text(os.environ.get("HERON_TEST_WORKER", ""))
    time.sleep(float(os.environ.get("HERON_TEST_STEP_SECONDS", "20")))
    (folder / f"{os.getpid()}.done").write_text(os.environ.get("HERON_TEST_WORKER", ""))


@job(executor_def=heron_executor)
def lost_worker_job():
    slow_step()
