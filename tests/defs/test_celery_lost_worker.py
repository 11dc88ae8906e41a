"""A lost Celery worker is a failed (or once retried) step within a stated time, never a hang (issue 34).

Before: a worker SIGKILLed mid-step left the run in progress until it was killed from outside (174 s
observed in `scores_job`), the other worker idled, the task was never retried or reported, the launcher
ignored SIGTERM and the killed worker's pool process kept running.

Real parts: Debian's `redis-server` on a free port, two `dagster-celery` workers (one task at a time each,
started from heron's worker block, `workers.worker_executor_config`), a Dagster instance on disk (sqlite
in a temporary DAGSTER_HOME: every process is on this machine) and a launcher process that runs a job of
one 20-second step on heron's executor (`lost_worker_job.py`) with `execution.config.celery`, the watch's
time shortened to `lost_after_s: 8` so the cases take seconds. The step records the pool process running
it; the test kills the worker holding it by its process group, as a lost machine would be.
`redis-server` missing: skipped, or failed under HERON_REQUIRE_BROKER=1 (CI).
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from .test_celery import ROOT, _free_port, _redis_answers, _redis_server, _stop

JOB_FILE = Path(__file__).with_name("lost_worker_job.py")
LOST_AFTER_S = 8.0
STEP_S = 20.0
WORKERS = ("heron-w1", "heron-w2")

LAUNCHER = """
import json, sys
from dagster import DagsterInstance, execute_job
from dagster._core.definitions.reconstruct import ReconstructableJob

config = json.loads(sys.argv[2])
with DagsterInstance.get() as instance:
    with execute_job(ReconstructableJob.for_file(sys.argv[1], "lost_worker_job"), instance=instance,
                     run_config=config) as result:
        print(json.dumps({"run_id": result.run_id, "success": result.success}), flush=True)
"""


class Cluster:
    """redis + two workers + the environment a launcher needs; every process it started is stopped."""

    def __init__(self, tmp_path: Path) -> None:
        from heron_pipeline.defs.automation.workers import worker_executor_config

        self.tmp = tmp_path
        self.home = tmp_path / "dagster_home"
        self.home.mkdir()
        (self.home / "dagster.yaml").write_text(json.dumps({"telemetry": {"enabled": False}}))
        from dagster import DagsterInstance

        with DagsterInstance.from_config(str(self.home)) as instance:  # its tables, before two workers race to make them
            instance.get_runs(limit=1)
        self.starts = tmp_path / "starts"
        self.starts.mkdir()
        port = _free_port()
        self.broker = f"redis://127.0.0.1:{port}/0"
        block = worker_executor_config(self.broker, f"redis://127.0.0.1:{port}/1")
        (tmp_path / "celery.yaml").write_text(json.dumps({"execution": {"config": block}}))
        self.execution = {"config": {"celery": {**block, "lost_after_s": LOST_AFTER_S}}}
        self.env = {**os.environ, "DAGSTER_HOME": str(self.home), "HERON_TEST_STARTS": str(self.starts),
                    "HERON_TEST_STEP_SECONDS": str(STEP_S),
                    "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]),
                    "PATH": os.pathsep.join([str(Path(sys.executable).parent), os.environ["PATH"]])}
        self.redis = subprocess.Popen(
            [_redis_server(), "--port", str(port), "--bind", "127.0.0.1", "--dir", str(tmp_path), "--save", "",
             "--appendonly", "no", "--daemonize", "no"], stdout=subprocess.DEVNULL, start_new_session=True)
        self.workers: dict[str, subprocess.Popen] = {}
        self.launcher: subprocess.Popen | None = None
        deadline = time.monotonic() + 30
        while not _redis_answers(port):
            assert self.redis.poll() is None and time.monotonic() < deadline, "redis-server did not answer"
            time.sleep(0.2)
        for name in WORKERS:
            log = open(tmp_path / f"{name}.log", "w")
            self.workers[name] = subprocess.Popen(
                [str(Path(sys.executable).parent / "dagster-celery"), "worker", "start", "-A", "dagster_celery.app",
                 "-y", str(tmp_path / "celery.yaml"), "-n", name, "--", "--concurrency=1"],
                env={**self.env, "HERON_TEST_WORKER": name}, cwd=tmp_path, stdout=log, stderr=subprocess.STDOUT,
                start_new_session=True)
        self._wait_for_workers()

    def _wait_for_workers(self) -> None:
        from dagster_celery.make_app import make_app

        app = make_app({"broker": self.broker, "backend": self.broker})
        deadline, names = time.monotonic() + 180, set()
        while time.monotonic() < deadline:
            names = {name.split("@")[0] for reply in app.control.ping(timeout=2) for name in reply}
            if set(WORKERS) <= names:
                return
            assert all(w.poll() is None for w in self.workers.values()), f"a worker exited: {self.logs()}"
        pytest.fail(f"workers answering after 180 s: {sorted(names)}; {self.logs()}")

    def launch(self) -> subprocess.Popen:
        self.launcher = subprocess.Popen(
            [sys.executable, "-c", LAUNCHER, str(JOB_FILE), json.dumps({"execution": self.execution})],
            env=self.env, cwd=self.tmp, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
            start_new_session=True)
        return self.launcher

    def started(self, count: int, timeout: float = 120) -> list[tuple[int, str]]:
        """(pool pid, worker name) of the first ``count`` starts of the step, waiting for them."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            found = sorted(self.starts.glob("*.start"), key=lambda p: p.stat().st_mtime)
            if len(found) >= count:
                return [(int(p.stem), p.read_text()) for p in found]
            assert self.launcher is None or self.launcher.poll() is None, self.launcher_output()
            time.sleep(0.2)
        pytest.fail(f"the step did not start {count} time(s) in {timeout} s; {self.logs()}")

    def kill_worker(self, pool_pid: int) -> int:
        """SIGKILL to the Celery worker process whose pool process ``pool_pid`` runs the step (its parent),
        as in the issue; the worker's pool process is left to its own devices. Returns the worker's pid."""
        worker = int(Path(f"/proc/{pool_pid}/stat").read_text().rsplit(")", 1)[1].split()[1])
        os.kill(worker, signal.SIGKILL)
        return worker

    def launcher_output(self) -> str:
        if self.launcher is None or self.launcher.poll() is None:
            return "(launcher running)"
        out, err = self.launcher.communicate()
        return f"exit {self.launcher.returncode}; stdout {out[-800:]}; stderr {err[-3000:]}"

    def logs(self) -> str:
        return " | ".join(f"{name}: {(self.tmp / f'{name}.log').read_text()[-1200:]}" for name in WORKERS
                          if (self.tmp / f"{name}.log").exists())

    def stop(self) -> None:
        for process in [self.launcher, *self.workers.values(), self.redis]:
            if process is not None:
                _stop(process)


@pytest.fixture
def cluster(tmp_path):
    made = Cluster(tmp_path)
    try:
        yield made
    finally:
        made.stop()


def gone(pid: int, within: float) -> bool:
    """Whether process ``pid`` has exited (a zombie waiting for PID 1 counts as exited) within ``within`` s."""
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        try:
            state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
        except (FileNotFoundError, ProcessLookupError):
            return True
        if state in ("Z", "X"):
            return True
        time.sleep(0.2)
    return False


def run_record(cluster: Cluster, run_id: str):
    from dagster import DagsterInstance

    os.environ["DAGSTER_HOME"] = str(cluster.home)
    instance = DagsterInstance.get()
    return instance, instance.get_run_by_id(run_id)


def finished(cluster: Cluster, within: float) -> dict:
    """The launcher's one line (run id, success), waiting at most ``within`` seconds for it to exit."""
    try:
        cluster.launcher.wait(timeout=within)
    except subprocess.TimeoutExpired:
        pytest.fail(f"the run was still in progress {within:.0f} s after its worker was lost (a hang); "
                    f"{cluster.logs()}")
    out, err = cluster.launcher.communicate()
    lines = [line for line in out.splitlines() if line.startswith("{")]
    assert lines, f"launcher exit {cluster.launcher.returncode}: {err[-3000:]}"
    return json.loads(lines[-1])


@pytest.mark.e2e
def test_a_step_whose_worker_is_lost_is_retried_on_the_other_worker(cluster, monkeypatch) -> None:
    cluster.launch()
    [(pid, first)] = cluster.started(1)
    lost_at = time.monotonic()
    cluster.kill_worker(pid)
    # the killed worker's pool process does not outlive it (before: it went on running the step)
    assert gone(pid, within=10), f"pool process {pid} of the killed worker {first} is still running"
    starts = cluster.started(2)
    (_, second) = starts[1]
    assert second != first
    # found lost within lost_after_s + a ping period + the ping's timeout, then the step's 20 s on the other worker
    outcome = finished(cluster, within=LOST_AFTER_S + 5 + 2 + STEP_S + 30)
    assert outcome["success"], cluster.logs()
    assert time.monotonic() - lost_at < LOST_AFTER_S + 5 + 2 + STEP_S + 30
    instance, run = run_record(cluster, outcome["run_id"])
    messages = [r.user_message for r in instance.all_logs(outcome["run_id"])]
    assert any(f"Celery worker {first}@" in m and "step slow_step (lost)" in m and "attempt 2 of 2" in m
               for m in messages), messages


@pytest.mark.e2e
def test_a_step_that_loses_every_worker_fails_naming_the_step(cluster) -> None:
    cluster.launch()
    [(pid, first)] = cluster.started(1)
    cluster.kill_worker(pid)
    (pid, second) = cluster.started(2)[1]
    assert second != first
    lost_at = time.monotonic()
    cluster.kill_worker(pid)
    outcome = finished(cluster, within=LOST_AFTER_S + 5 + 2 + 30)
    assert not outcome["success"]
    assert time.monotonic() - lost_at < LOST_AFTER_S + 5 + 2 + 30
    instance, run = run_record(cluster, outcome["run_id"])
    assert run.status.value == "FAILURE"
    failures = " ".join(failure_text(r.dagster_event) for r in instance.all_logs(outcome["run_id"])
                        if r.dagster_event and r.dagster_event.is_failure)
    assert "step slow_step:" in failures and f"Celery worker {second}@" in failures and \
        "attempt 2 of 2: the step failed" in failures, failures


def failure_text(event) -> str:
    """A failure event's message and its error, as the run's page shows them."""
    error = getattr(event.event_specific_data, "error", None)
    return f"{event.message} {error.to_string() if error else ''}"


@pytest.mark.e2e
def test_the_launcher_honours_sigterm_and_the_step_stops_on_its_worker(cluster) -> None:
    launcher = cluster.launch()
    [(pid, worker)] = cluster.started(1)
    started_at = stopped_at = time.monotonic()
    os.kill(launcher.pid, signal.SIGTERM)
    try:
        launcher.wait(timeout=20)
    except subprocess.TimeoutExpired:
        pytest.fail("the launcher ignored SIGTERM for 20 s")
    assert time.monotonic() - stopped_at < 20
    # the step was stopped on its worker (revoked with terminate: Dagster's interrupt in the step), never
    # ran to its end, and the worker lives on for the next task
    time.sleep(max(0.0, STEP_S + 5 - (time.monotonic() - started_at)))
    assert not list(cluster.starts.glob("*.done")), "the step ran to its end after its run was stopped"
    assert cluster.workers[worker].poll() is None


def test_the_kubernetes_workers_run_with_heron_s_worker_settings() -> None:
    """deploy/k8s's workers' block carries what `worker_executor_config` gives the test's workers."""
    import yaml

    from heron_pipeline.defs.automation.workers import worker_executor_config

    docs = list(yaml.safe_load_all((ROOT / "deploy" / "k8s" / "celery-workers.yaml").read_text()))
    block = yaml.safe_load(docs[0]["data"]["celery.yaml"])["execution"]["config"]
    expected = worker_executor_config(block["broker"], block["backend"])
    assert block == expected


# The launcher starts with SIGTERM's default action, unblocked, as a process a shell or Dagster's run launcher
# starts: an ignored or blocked signal survives exec, and this test's process is a pytest worker that has run
# Dagster and Celery in-process before. Seen once in a full suite: the launcher ignored both this test's
# SIGTERM and the clean-up's for 40 s (junit time 40.7 s, return code -9: SIGKILL ended it).
STAGES_LAUNCHER = """
import signal, sys, time
signal.signal(signal.SIGTERM, signal.SIG_DFL)
signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGTERM})
from heron_pipeline.defs.automation.pipeline import run_together
print("ready", flush=True)
run_together(time.sleep, [(120,), (120,)])
"""


def children_of(pid: int) -> list[int]:
    out = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except (FileNotFoundError, ProcessLookupError):
            continue
        if int(fields[1]) == pid and fields[0] not in ("Z", "X"):
            out.append(int(stat.parent.name))
    return out


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGKILL])
def test_the_stage_processes_of_bench_job_do_not_outlive_their_launcher(sig) -> None:
    """`bench_job` runs the per-seed runs of a stage in processes of their own (Celery). Before, a
    ProcessPoolExecutor: SIGTERM to the launcher was not honoured while they ran, and once the launcher
    was killed they kept running. Now: SIGTERM or SIGKILL to the launcher, and both are gone within seconds."""
    launcher = subprocess.Popen([sys.executable, "-c", STAGES_LAUNCHER], stdout=subprocess.PIPE, text=True,
                                env={**os.environ, "PYTHONPATH": str(ROOT)}, start_new_session=True)
    try:
        assert launcher.stdout.readline().strip() == "ready"
        deadline = time.monotonic() + 60
        while len(children := children_of(launcher.pid)) < 3:  # two stage processes and spawn's resource tracker
            assert time.monotonic() < deadline, f"stage processes not started: {children}"
            time.sleep(0.2)
        os.kill(launcher.pid, sig)
        launcher.wait(timeout=20)
        assert all(gone(child, within=15) for child in children), \
            [c for c in children if not gone(c, within=0.1)]
    finally:
        _stop(launcher)


def test_a_broker_that_does_not_answer_fails_the_run_at_once_naming_it(tmp_path) -> None:
    """Before: a run with the broker down retried its connection with a message naming neither the broker
    nor the field. After: the run fails before its first step, in seconds, in one line naming the broker
    (its password hidden) and the run-config field. No redis needed: nothing listens on the port."""
    from dagster import DagsterEventType, DagsterInstance, execute_job
    from dagster._core.definitions.reconstruct import ReconstructableJob

    from heron_pipeline.defs.automation.workers import shown_url

    home = tmp_path / "home"
    home.mkdir()
    (home / "dagster.yaml").write_text(json.dumps({"telemetry": {"enabled": False}}))
    broker = f"redis://:hunter2@127.0.0.1:{_free_port()}/0"
    config = {"execution": {"config": {"celery": {"broker": broker}}}}
    started = time.monotonic()
    with DagsterInstance.from_config(str(home)) as instance:
        with execute_job(ReconstructableJob.for_file(str(JOB_FILE), "lost_worker_job"), instance=instance,
                         run_config=config, raise_on_error=False) as result:
            assert not result.success
            text = " ".join(str(e.message or "") + str(getattr(e.event_specific_data, "error", "") or "")
                            for e in result.all_events if e.event_type in (DagsterEventType.RUN_FAILURE,
                                                                          DagsterEventType.ENGINE_EVENT))
    assert time.monotonic() - started < 60
    assert "execution.config.celery.broker" in text and "does not answer" in text
    assert shown_url(broker) in text and "hunter2" not in text
    assert not any(tmp_path.glob("starts/*"))  # no step was submitted


def test_shown_url_hides_a_password_only() -> None:
    from heron_pipeline.defs.automation.workers import shown_url

    assert shown_url("redis://:pw@h:6379/0") == "redis://:***@h:6379/0"
    assert shown_url("amqp://u:pw@h/v") == "amqp://u:***@h/v"
    assert shown_url("redis://127.0.0.1:6379/0") == "redis://127.0.0.1:6379/0"
