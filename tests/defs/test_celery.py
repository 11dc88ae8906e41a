"""The whole pipeline on Dagster's Celery executor equals the core's `heron bench` (issue 18).

A real broker (Debian's `redis-server` on 127.0.0.1, a free port, nothing saved to disk) and two
worker processes (`dagster-celery worker start`, one task at a time each) share one Dagster instance
whose storage is a database on the test server (dagster-postgres). `bench_job` is launched for
tiny × 42, 43, 44 with ``execution.config.celery``; every step of every stage run goes through the
broker to a worker. The standings must equal those of `run_bench` on the same states, ignoring only
what measures this machine's clock: each tool's wall-time figures (`mean_latency_s`,
`ves`, `r_ves`). Everything else (states' fingerprints, gold digests, predictions digests, score
digests — a score record holds no wall time — audit, questions digest, versions, every metric) is
compared as is, and the score records themselves too; and the standings file's digest is the
core's (measured: equal, wall-time figures included, since no VES is timed). `redis-server` is installed by `.ci/run`; without it the test is
skipped, unless HERON_REQUIRE_BROKER=1 (set by CI) turns the skip into a failure. Every process the
test starts is killed, by its process group, whatever the outcome.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
from dagster import DagsterEventType, DagsterInstance, EventRecordsFilter, RunsFilter, execute_job, reconstructable

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "benchmarks"))

from bench_dagster import WALL_TIME  # noqa: E402
from dagster_jobs import resources_config  # noqa: E402

from heron_pipeline.bench import BenchOptions, run_bench  # noqa: E402

SEEDS = (42, 43, 44)
WORKERS = ("heron-w1", "heron-w2")


def _redis_server() -> str:
    path = shutil.which("redis-server")
    if path:
        return path
    if os.environ.get("HERON_REQUIRE_BROKER") == "1":
        pytest.fail("HERON_REQUIRE_BROKER=1 but no redis-server on PATH")
    pytest.skip("no redis-server on PATH (apt-get install redis-server)")


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _redis_answers(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=1) as conn:
            conn.sendall(b"PING\r\n")
            return conn.recv(16).startswith(b"+PONG")
    except OSError:
        return False


def _stop(process: subprocess.Popen) -> None:
    """Ends a process the test started and everything it started (its own process group)."""
    if process.poll() is not None:
        return
    for sig, wait in ((signal.SIGTERM, 20), (signal.SIGKILL, 10)):
        try:
            os.killpg(process.pid, sig)
        except ProcessLookupError:
            return
        try:
            process.wait(timeout=wait)
            return
        except subprocess.TimeoutExpired:
            continue


def comparable(standings: dict) -> dict:
    """The standings without what legitimately differs between two runs on the same states: each
    tool's wall-time figures."""
    doc = json.loads(json.dumps(standings))
    for tool in doc["tools"]:
        for key in WALL_TIME:
            tool.pop(key, None)
    return doc


def score_records(standings: dict, artifacts: Path, tool: str, seed: int) -> list[dict]:
    """One tool's score records on one state, as the standings point to them."""
    from heron_pipeline.artifacts.layout import ArtifactLayout

    digest = standings["provenance"]["tools"][tool]["scores"][str(seed)]
    folder = ArtifactLayout(artifacts).scores(tool, standings["scale"], seed,
                                                                          standings["question_mode"])
    records = [json.loads(line) for line in (folder / f"{digest}.jsonl").read_text().splitlines() if line]
    return records


def _instance_home(home: Path, server, database: str) -> None:
    """A DAGSTER_HOME whose runs, events and schedules live in ``database`` on the test server."""
    from urllib.parse import urlsplit

    parts = urlsplit(server.maintenance_dsn)
    home.mkdir()
    (home / "dagster.yaml").write_text(json.dumps({
        "storage": {"postgres": {"postgres_db": {
            "username": parts.username or "postgres", "password": parts.password or "",
            "hostname": parts.hostname or "127.0.0.1", "port": parts.port or 5432, "db_name": database,
            "scheme": "postgresql+psycopg2"}}},
        "telemetry": {"enabled": False}}))


def _bench_job():
    from heron_pipeline.definitions import defs

    return defs.resolve_job_def("bench_job")


@pytest.mark.e2e
def test_celery_pipeline_gives_the_standings_of_heron_bench_on_tiny_42_43_44(server, settings, tmp_path) -> None:
    redis = _redis_server()
    cli = run_bench(server, tmp_path / "cli", BenchOptions(scale="tiny", seeds=SEEDS))
    cli_board = cli.standings.load()

    database = "heron_dagster_celery_test"
    server.create_database(database, replace=True)
    home = tmp_path / "dagster_home"
    _instance_home(home, server, database)
    port = _free_port()
    broker = f"redis://127.0.0.1:{port}/0"
    execution = {"config": {"celery": {"broker": broker, "backend": f"redis://127.0.0.1:{port}/1"}}}
    # the workers' file is dagster-celery's own executor block (no `celery:` selector above it)
    from heron_pipeline.defs.automation.workers import worker_executor_config

    (tmp_path / "celery.yaml").write_text(json.dumps({"execution": {"config": worker_executor_config(
        broker, f"redis://127.0.0.1:{port}/1")}}))
    env = {**os.environ, "DAGSTER_HOME": str(home), "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]),
           "PATH": os.pathsep.join([str(Path(sys.executable).parent), os.environ["PATH"]])}
    (tmp_path / "redis").mkdir()
    started: list[subprocess.Popen] = []
    try:
        started.append(subprocess.Popen(
            [redis, "--port", str(port), "--bind", "127.0.0.1", "--dir", str(tmp_path / "redis"), "--save", "",
             "--appendonly", "no", "--daemonize", "no"], stdout=subprocess.DEVNULL, start_new_session=True))
        deadline = time.monotonic() + 30
        while not _redis_answers(port):
            assert started[0].poll() is None, f"redis-server exited with {started[0].returncode}"
            assert time.monotonic() < deadline, "redis-server did not answer PING within 30 s"
            time.sleep(0.2)
        for name in WORKERS:
            log = open(tmp_path / f"{name}.log", "w")
            started.append(subprocess.Popen(
                [str(Path(sys.executable).parent / "dagster-celery"), "worker", "start", "-A", "dagster_celery.app",
                 "-y", str(tmp_path / "celery.yaml"), "-n", name, "--", "--concurrency=1"],
                env=env, cwd=tmp_path, stdout=log, stderr=subprocess.STDOUT, start_new_session=True))
        _wait_for_workers(broker, tmp_path)

        config = resources_config(str(settings.data_dir), settings.port, settings.dsn or "")
        config["resources"]["heron"]["config"]["artifact_dir"] = str(tmp_path / "dagster")
        config["ops"] = {"run_pipeline": {"config": {"scale": "tiny", "seeds": list(SEEDS)}}}
        config["execution"] = execution
        with DagsterInstance.from_config(str(home)) as instance:
            with execute_job(reconstructable(_bench_job), instance=instance, run_config=config) as launched:
                assert launched.success, [e.message for e in launched.all_events if e.is_failure] + _logs(tmp_path)
            stages = instance.get_run_records(RunsFilter(tags={"heron/bench_job": launched.run_id}))
            steps = _worker_steps(instance, [r.dagster_run.run_id for r in stages])
            standings = instance.get_latest_materialization_event(_key("standings"))
            result = standings.asset_materialization.metadata["result"].value
    finally:
        for process in reversed(started):
            _stop(process)
    assert all(p.poll() is not None for p in started)

    assert sorted(r.dagster_run.job_name for r in stages) == sorted(
        ["state_job"] * 3 + ["audit_job", "predictions_job"] + ["scores_job"] * 3 + ["standings_job", "leaderboard_job"])
    # every step of every stage ran on a worker, and both workers took steps
    assert {worker.split("@")[0] for worker, *_ in steps.values()} == set(WORKERS)
    by_job = {}
    for (run_id, step), (worker, start, end) in steps.items():
        job = next(r.dagster_run.job_name for r in stages if r.dagster_run.run_id == run_id)
        by_job.setdefault(job, []).append((start, end, run_id, step))
    # predictions per tool and scoring per seed were parallel steps: two of them ran at the same time
    assert _overlapping(by_job["predictions_job"], same_run=True), by_job["predictions_job"]
    assert _overlapping(by_job["scores_job"], same_run=False), by_job["scores_job"]

    dagster_board = json.loads(Path(result["standings"]["path"]).read_text())
    # a score record holds no wall time, so the standings are the same bytes: the digest of heron bench
    assert result["standings"]["digest"] == cli.standings.standings.digest
    from bench_dagster import differences

    assert comparable(dagster_board) == comparable(cli_board), differences(comparable(dagster_board),
                                                                           comparable(cli_board))
    for tool in ("alt", "gold"):
        for seed in SEEDS:
            records = score_records(dagster_board, tmp_path / "dagster", tool, seed)
            assert len(records) == 100 and records == score_records(cli_board, tmp_path / "cli", tool, seed), \
                (tool, seed)
    assert [t["tool"] for t in dagster_board["tools"]] == ["alt", "gold"]


def _key(name: str):
    from dagster import AssetKey

    return AssetKey(name)


def _wait_for_workers(broker: str, tmp_path: Path) -> None:
    """Until both workers answer a ping through the broker (a worker imports Celery and Dagster first)."""
    from dagster_celery.make_app import make_app

    app = make_app({"broker": broker, "backend": broker})
    deadline = time.monotonic() + 180
    names: set[str] = set()
    while time.monotonic() < deadline:
        names = {name.split("@")[0] for reply in app.control.ping(timeout=2) for name in reply}
        if set(WORKERS) <= names:
            return
    pytest.fail(f"workers answering after 180 s: {sorted(names)}; " + " | ".join(_logs(tmp_path)))


def _logs(tmp_path: Path) -> list[str]:
    return [f"{name}: {(tmp_path / f'{name}.log').read_text()[-1500:]}" for name in WORKERS
            if (tmp_path / f"{name}.log").exists()]


def _worker_steps(instance: DagsterInstance, run_ids: list[str]) -> dict:
    """(run id, step key) -> (Celery worker, start, end) of every step a worker executed, from the runs' events."""
    steps: dict = {}
    for run_id in run_ids:
        start = {}
        for record in instance.all_logs(run_id):
            event = record.dagster_event
            if event is None:
                continue
            if event.event_type == DagsterEventType.ENGINE_EVENT and \
                    "Celery worker" in (event.engine_event_data.metadata or {}):  # dagster-celery's task reports it
                worker = event.engine_event_data.metadata["Celery worker"].value
                steps[(run_id, event.step_key)] = (worker, None, None)
            elif event.event_type == DagsterEventType.STEP_START:
                start[event.step_key] = record.timestamp
            elif event.event_type in (DagsterEventType.STEP_SUCCESS, DagsterEventType.STEP_FAILURE):
                worker = steps.get((run_id, event.step_key), (None,))[0]
                steps[(run_id, event.step_key)] = (worker, start.get(event.step_key), record.timestamp)
    missing = sorted(key for key, (worker, *_) in steps.items() if worker is None)
    assert not missing, f"steps not executed by a Celery worker: {missing}"
    return steps


def _overlapping(spans: list, same_run: bool) -> bool:
    """Whether two steps' [start, end] overlap, within one run (same_run) or across runs."""
    for i, (start, end, run, _) in enumerate(spans):
        for other_start, other_end, other_run, _ in spans[i + 1:]:
            if (run == other_run) == same_run and start < other_end and other_start < end:
                return True
    return False
