"""``heron seed --force`` of one state, this checkout against a baseline checkout: wall, CPU, fingerprint.

Issue 21 asks for ``heron seed --scale small --seed 42 --force`` built and fingerprinted in ≤ 20 s on
a 2-core machine. The build keeps both cores busy, so its wall time follows its CPU time, and most
of that is the PostgreSQL server's; this script therefore reports, for every run, the wall time and
the CPU seconds of both sides:

- heron: the ``heron seed`` process tree (the CLI, its loader threads, the row-digest process),
  from ``getrusage(RUSAGE_CHILDREN)`` around the run;
- server: the embedded postmaster's own and reaped children's CPU (the backends of the build's
  connections, which end with the build) plus the CPU its still-running children used meanwhile
  (checkpointer, background writer, WAL writer, autovacuum launcher), from /proc. With
  ``HERON_DSN`` (a server whose process is not readable here) it is reported as 0.

Runs alternate (baseline first), each a whole command in a child process, so a busy neighbour
slows both sides alike: only the ratios of one run of this script mean anything on a shared
machine. It fails when the two sides' fingerprints differ: a speed-up must not move a byte.

``--roles`` also splits each run's server CPU by the kind of build connection (their
``application_name``, database/names.py: the loaders, the foreign keys, the row digests, the rest
of the build), sampled from pg_stat_activity and /proc while the run goes on; what no build
connection used (the checkpointer, the old database's drop, the sampler's own queries) is "rest".
A checkout from before 2026-12-06 names no connection: all of its server CPU is "rest".

``--analyze-targets 100,30`` then measures, on the state just built, the server CPU of one
``ANALYZE`` of every table at each statistics target (the build's choice, BUILD_STATISTICS_TARGET
in seeding/build.py), on one connection whose backend's /proc entry gives its CPU.

    git worktree add --detach /tmp/heron-main main
    HERON_DATA_DIR=/tmp/me-pg HERON_PORT=55611 .venv/bin/heron db up
    HERON_DATA_DIR=/tmp/me-pg HERON_PORT=55611 .venv/bin/python benchmarks/bench_seed_build.py \\
        --baseline /tmp/heron-main --scale small --seed 42 --pairs 2 --analyze-targets 100,30
"""

from __future__ import annotations

import argparse
import os
import re
import resource
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(HERE))
TICKS = os.sysconf("SC_CLK_TCK")


@dataclass
class Run:
    side: str
    wall: float
    heron_cpu: float
    server_cpu: float
    fingerprint: str
    built: str
    max_rss_mb: float
    server_by_role: dict[str, float]


def _stat(pid: int) -> list[str]:
    # fields after the command name: [0] is the state (field 3), utime..cstime are fields 14-17
    return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()


def _own_ticks(pid: int) -> int:
    """A live process's own CPU so far (utime + stime), in clock ticks."""
    return sum(int(v) for v in _stat(pid)[11:13])


def _postmaster() -> int | None:
    try:
        return int((Path(os.environ["HERON_DATA_DIR"]) / "pgdata" / "postmaster.pid").read_text().split()[0])
    except (KeyError, OSError, ValueError, IndexError):
        return None


def server_cpu_ticks() -> dict[int, int]:
    """Per process of the embedded server, its CPU so far in clock ticks: the postmaster with its
    reaped children (key: its pid), and each live child (utime + stime)."""
    postmaster = _postmaster()
    if postmaster is None:
        return {}
    try:
        ticks = {postmaster: sum(int(v) for v in _stat(postmaster)[11:15])}
        children = Path(f"/proc/{postmaster}/task/{postmaster}/children").read_text().split()
    except OSError:
        return {}
    for child in map(int, children):
        try:
            ticks[child] = _own_ticks(child)
        except OSError:
            pass  # ended meanwhile: its CPU is now in the postmaster's cutime
    return ticks


def server_cpu_between(before: dict[int, int], after: dict[int, int]) -> float:
    """Server CPU seconds between two ``server_cpu_ticks``: a child alive at both ends counts its
    difference, one born meanwhile all of it; one that ended is in the postmaster's cutime."""
    return sum(ticks - before.get(pid, 0) for pid, ticks in after.items()) / TICKS


class RoleSampler:
    """Server CPU per kind of build connection while a run goes on: every 0.1 s, the backends whose
    ``application_name`` (or whose parallel leader's) starts with "heron build", and each one's CPU
    from /proc; a backend's last sample is its CPU, so at most 0.1 s of its last moments is missed."""

    INTERVAL = 0.1

    def __init__(self) -> None:
        import psycopg

        from heron_pipeline.config import load_settings
        from heron_pipeline.database.server import Server

        self.conn = psycopg.connect(Server(load_settings()).dsn(), autocommit=True)
        self.last: dict[int, tuple[str, int]] = {}
        self.done = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self) -> None:
        while not self.done.wait(self.INTERVAL):
            rows = self.conn.execute(
                "SELECT a.pid, coalesce(l.application_name, a.application_name) FROM pg_stat_activity a "
                "LEFT JOIN pg_stat_activity l ON l.pid = a.leader_pid "
                "WHERE coalesce(l.application_name, a.application_name) LIKE 'heron build%'").fetchall()
            for pid, role in rows:
                try:
                    self.last[pid] = (role, _own_ticks(pid))
                except OSError:
                    pass  # ended since the query

    def stop(self) -> dict[str, float]:
        """CPU seconds per ``application_name``."""
        self.done.set()
        self.thread.join()
        self.conn.close()
        seconds: dict[str, float] = {}
        for role, ticks in self.last.values():
            seconds[role] = seconds.get(role, 0.0) + ticks / TICKS
        return seconds


def seed_once(side: str, checkout: Path, scale: str, seed: int, roles: bool = False) -> Run:
    env = dict(os.environ, PYTHONPATH=str(checkout))
    command = [sys.executable, "-m", "heron_pipeline.cli", "seed", "--scale", scale, "--seed", str(seed), "--force"]
    sampler = RoleSampler() if roles else None
    server_before, heron_before = server_cpu_ticks(), resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    with tempfile.TemporaryFile("w+") as out:
        child = subprocess.Popen(command, env=env, cwd=checkout, stdout=out, stderr=subprocess.STDOUT, text=True)
        _pid, status, usage = os.wait4(child.pid, 0)  # this run's own peak RSS, not the largest child's so far
        child.returncode = os.waitstatus_to_exitcode(status)
        wall = time.perf_counter() - started
        out.seek(0)
        text = out.read()
    heron_after = resource.getrusage(resource.RUSAGE_CHILDREN)
    time.sleep(0.2)  # the last backends' exit reaches the postmaster's cutime
    server = server_cpu_between(server_before, server_cpu_ticks())
    by_role = sampler.stop() if sampler is not None else {}
    if child.returncode != 0:
        raise SystemExit(f"{side} ({checkout}): heron seed failed ({child.returncode}): {text.strip()[-800:]}")
    built = next((line for line in text.splitlines() if line.startswith("built ")), "?")
    found = re.search(r"fingerprint ([0-9a-f]{64})", text)
    if not found:
        raise SystemExit(f"{side}: no fingerprint in heron seed's output:\n{text[-800:]}")
    heron = (heron_after.ru_utime + heron_after.ru_stime) - (heron_before.ru_utime + heron_before.ru_stime)
    return Run(side, wall, heron, server, found.group(1), built, usage.ru_maxrss / 1024, by_role)


def analyze_cpu(scale: str, seed: int, targets: list[int]) -> dict[int, float]:
    """Server CPU seconds of ANALYZE over every table of the state, at each statistics target."""
    import psycopg

    from heron_pipeline.config import load_settings
    from heron_pipeline.database.fingerprint import tables_with_keys
    from heron_pipeline.database.server import Server
    from heron_pipeline.seeding.build import analyze_statement

    server = Server(load_settings())
    seconds: dict[int, float] = {}
    with psycopg.connect(server.benchmark_dsn(scale, seed), autocommit=True) as conn:
        tables = [f"{schema}.{table}" for schema, table, _keys in tables_with_keys(conn)]
        backend = conn.info.backend_pid
        for target in targets:
            before = _own_ticks(backend)
            conn.execute(f"SET default_statistics_target = {int(target)}")
            conn.execute("ANALYZE " + ", ".join(tables))
            seconds[target] = (_own_ticks(backend) - before) / TICKS
        conn.execute("RESET default_statistics_target")  # and leave the statistics the build leaves
        conn.execute(analyze_statement(tables))
    return seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--baseline", type=Path, required=True, help="a checkout of heron to compare against")
    parser.add_argument("--scale", default="small")
    parser.add_argument("--seed", type=int, default=42)
    parser.add_argument("--pairs", type=int, default=2)
    parser.add_argument("--analyze-targets", default="", help="e.g. 100,30: ANALYZE's server CPU at each target")
    parser.add_argument("--roles", action="store_true", help="split each run's server CPU by kind of build connection")
    args = parser.parse_args()
    if "HERON_DATA_DIR" not in os.environ:
        raise SystemExit("set HERON_DATA_DIR and HERON_PORT to the embedded server both checkouts should use "
                         "(its /proc entry gives the server's CPU)")
    if not (args.baseline / "heron_pipeline").is_dir():
        raise SystemExit(f"--baseline {args.baseline}: not a heron checkout (no heron_pipeline/ in it)")
    sides = {"baseline": args.baseline.resolve(), "this": HERE}
    runs: list[Run] = []
    for pair in range(args.pairs):
        for side, checkout in sides.items():
            run = seed_once(side, checkout, args.scale, args.seed, args.roles)
            runs.append(run)
            print(f"pair {pair + 1} {side:8s} wall {run.wall:6.1f} s  CPU heron {run.heron_cpu:5.1f} s  "
                  f"server {run.server_cpu:5.1f} s  total {run.heron_cpu + run.server_cpu:5.1f} s  "
                  f"max RSS {run.max_rss_mb:5.0f} MB  load {os.getloadavg()[0]:.1f}  fingerprint {run.fingerprint[:16]}…", flush=True)
            print(f"    {run.built}", flush=True)
            if args.roles:
                named = sorted(run.server_by_role.items(), key=lambda item: -item[1])
                parts = [f"{role.removeprefix('heron build: ')} {cpu:.1f} s" for role, cpu in named]
                parts.append(f"rest {run.server_cpu - sum(run.server_by_role.values()):.1f} s")
                print("    server CPU by connection: " + ", ".join(parts), flush=True)
    median = {side: {key: statistics.median(getattr(r, key) for r in runs if r.side == side)
                     for key in ("wall", "heron_cpu", "server_cpu", "max_rss_mb")} for side in sides}
    for key in ("wall", "heron_cpu", "server_cpu", "max_rss_mb"):
        unit = "MB" if key == "max_rss_mb" else "s"
        print(f"median {key:10s} baseline {median['baseline'][key]:6.1f} {unit}  this {median['this'][key]:6.1f} {unit}  "
              f"ratio {median['this'][key] / max(median['baseline'][key], 1e-9):.2f}")
    prints = {side: {r.fingerprint for r in runs if r.side == side} for side in sides}
    for side, found in prints.items():
        print(f"fingerprint {side}: {', '.join(sorted(found))}")
    if len(prints["baseline"] | prints["this"]) != 1:
        raise SystemExit("FINGERPRINTS DIFFER: the change moved a byte of the state or its structure")
    if args.analyze_targets:
        targets = [int(t) for t in args.analyze_targets.split(",")]
        for target, seconds in analyze_cpu(args.scale, args.seed, targets).items():
            print(f"ANALYZE of every table at statistics target {target}: server CPU {seconds:.2f} s")


if __name__ == "__main__":
    main()
