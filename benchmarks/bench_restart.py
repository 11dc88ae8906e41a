"""Measure how long the embedded server takes to come back after its postmaster is SIGKILLed.

Each try: ``EmbeddedServer.up()`` in a data folder of its own, one open session (so a backend is
orphaned by the kill, as in a build), SIGKILL of the postmaster, then ``up()`` again at once — the
situation of ``heron seed`` rerun right after a crash — and the seconds until it accepts
connections again. The killed postmaster was detached by ``pg_ctl``, so it stays a zombie until
the process that reaps orphans gets to it; the figure printed beside each try is how long that
took (its ``/proc/<pid>/stat`` state, polled by a thread while ``up()`` runs).

Run (nothing of the user's is touched: a temporary data folder and a free port per run):

    PYTHONPATH=$PWD .venv/bin/python benchmarks/bench_restart.py [tries] [timeout_s]

``timeout_s`` (default 200) bounds one restart: a try over it is reported as hung. The figures are
wall-clock seconds on a shared machine.
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import psycopg  # noqa: E402

from heron_pipeline.database.embedded import EmbeddedServer  # noqa: E402


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _state(pid: int) -> str:
    """The process state letter from /proc (R, S, Z …), or '-' once the pid is gone."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (FileNotFoundError, IndexError, ProcessLookupError):
        return "-"


def _zombie_seconds(pid: int, killed_at: float, out: list[float]) -> None:
    while _state(pid) not in ("-", "X"):
        time.sleep(0.01)
    out.append(time.monotonic() - killed_at)


def one_try(root: Path, timeout_s: float) -> tuple[float | None, float | None, str]:
    server = EmbeddedServer(root / "pgdata", _free_port())
    server.up()
    session = psycopg.connect(server.dsn)  # a backend the kill leaves orphaned
    pid = server.running_pid()
    assert pid is not None
    os.kill(pid, signal.SIGKILL)
    killed_at = time.monotonic()
    while _state(pid) not in ("Z", "X", "-"):
        time.sleep(0.001)
    reaped: list[float] = []
    watcher = threading.Thread(target=_zombie_seconds, args=(pid, killed_at, reaped), daemon=True)
    watcher.start()
    # up() in a child process, so a hung one can be stopped at timeout_s
    code = (f"import sys, time; sys.path.insert(0, {str(Path(__file__).resolve().parents[1])!r})\n"
            "from pathlib import Path\nfrom heron_pipeline.database.embedded import EmbeddedServer\n"
            f"EmbeddedServer(Path({str(server.pgdata)!r}), {server.port}).up()\n")
    started = time.monotonic()
    child = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        _out, err = child.communicate(timeout=timeout_s)
        seconds: float | None = time.monotonic() - started
        outcome = "ok" if child.returncode == 0 else f"failed: {err.strip().splitlines()[-1:]}"
    except subprocess.TimeoutExpired:
        child.kill()
        child.communicate()
        seconds, outcome = None, f"hung (> {timeout_s:.0f} s)"
    watcher.join(timeout=30)
    try:
        session.close()
    except psycopg.Error:
        pass
    try:
        server.down()
    except Exception:  # noqa: BLE001 - a hung try may have left no server; the folder is removed anyway
        pass
    return seconds, (reaped[0] if reaped else None), outcome


def main() -> int:
    tries = int(sys.argv[1]) if len(sys.argv) > 1 else 10
    timeout_s = float(sys.argv[2]) if len(sys.argv) > 2 else 200.0
    print(f"{tries} tries, restart bounded at {timeout_s:.0f} s; {os.cpu_count()} cores; code from "
          f"{Path(__file__).resolve().parents[1]}")
    times: list[float] = []
    for index in range(tries):
        root = Path(tempfile.mkdtemp(prefix="heron-restart-"))
        try:
            seconds, reaped, outcome = one_try(root, timeout_s)
        finally:
            shutil.rmtree(root, ignore_errors=True)
        shown = f"{seconds:.1f} s" if seconds is not None else "-"
        zombie = f"{reaped:.2f} s" if reaped is not None else "?"
        print(f"try {index + 1}: restart {shown} ({outcome}); the killed postmaster was reaped after {zombie}",
              flush=True)
        times.append(seconds if seconds is not None else float("inf"))
    finite = [t for t in times if t != float("inf")]
    hung = len(times) - len(finite)
    print(f"restart seconds: median {statistics.median(times):.1f}, max "
          f"{max(times) if not hung else float('inf'):.1f}, {hung}/{tries} hung past {timeout_s:.0f} s"
          + (f"; finished ones: {', '.join(f'{t:.1f}' for t in finite)}" if finite else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
