"""Measure the sandbox under concurrency and tricks (issue 11, items 1-4): the before/after figures.

Four measurements, each printed with its conditions:

1. Failures under concurrency: 8 concurrent ``heron query`` processes × 5 benign queries each (40
   runs), then 8 hostile and 16 benign ``heron query`` processes started at once. A benign run fails
   when its exit code is not 0 or its rows differ from the same SQL run directly by the admin.
2. Peak client memory of ``SELECT g, repeat('x', 100000000) FROM generate_series(1, 10) g`` (and of
   100 rows of 10 MB) fetched through ``run_prediction`` with the default 256 MiB cap and smaller
   ones: the growth of the fetching process's peak RSS (``ru_maxrss``) over a baseline that ran one
   small query.
2b. (Hardening II) One value over the value cap, 150 MB and 60 MB: before the server-side cap the
   client received it whole; now the server refuses the row before sending it.
3. Parse time of ``check_sql`` for IN lists and nested brackets: the largest input the bounds
   accept against the ones they refuse (today's code refuses none of them by size).
4. (1b) The bench's own path: 8 hostile and 16 benign threads sharing one prepared ``Sandbox``,
   benign latency against the same queries run alone.

Run (the server is started, and tiny 42 seeded, if needed; ~3-6 min on 2 busy cores):

    HERON_DATA_DIR=/tmp/heron-bench HERON_PORT=55432 .venv/bin/python benchmarks/bench_sandbox.py \
        [parse] [memory] [bigvalue] [processes] [threads]      (default: all five)

Timings are wall-clock on a shared machine: read them as ratios within one run.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from heron_pipeline.config import load_settings  # noqa: E402
from heron_pipeline.database.names import benchmark_database  # noqa: E402
from heron_pipeline.database.server import Server  # noqa: E402

SCALE, SEED = "tiny", 42

BENIGN = [
    "SELECT count(*) FROM orders.orders",
    "SELECT id, name FROM tenancy.tenants ORDER BY id LIMIT 5",
    "SELECT count(*) FROM orders.order_lines",
    "SELECT tenant_id, count(*) FROM orders.orders GROUP BY tenant_id ORDER BY tenant_id",
    "SELECT count(*) FROM auth.users",
]

#: Each runs until a timeout or a cap stops it (with --timeout 5), or is refused.
HOSTILE = [
    ("SELECT count(*) FROM orders.order_lines a, orders.order_lines b, orders.order_lines c", ()),
    ('SELECT U&"pg\\005Fsleep"(8)', ()),
    ("SELECT length(repeat('x', 400000000))", ()),
    ("SELECT count(*) FROM (SELECT a.id, b.id FROM orders.order_lines a, orders.order_lines b "
     "ORDER BY 1 DESC, 2 DESC) s", ()),
]

FETCH_SQL = "SELECT g, repeat('x', 100000000) FROM generate_series(1, 10) g"


def heron_query(sql: str, *extra: str) -> tuple[int, str, str, float]:
    started = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "heron_pipeline.cli", "query", "--scale", SCALE, "--seed",
                           str(SEED), *extra, sql], capture_output=True, text=True, timeout=600)
    return done.returncode, done.stdout, done.stderr.strip(), time.perf_counter() - started


def expected_rows(server: Server) -> dict[str, list]:
    from heron_pipeline.results import execute_readonly

    with server.connect(benchmark_database(SCALE, SEED)) as conn:
        return {sql: execute_readonly(conn, sql).rows for sql in BENIGN}


def judge(sql: str, outcome: tuple[int, str, str, float], expected: dict[str, list]) -> str | None:
    """None when the benign run succeeded with the right rows, else a one-line reason."""
    from heron_pipeline.results import loads

    code, stdout, stderr, _ = outcome
    if code != 0:
        return f"exit {code}: {stderr.splitlines()[-1] if stderr else ''}"[:160]
    if loads(stdout).rows != expected[sql]:
        return "wrong rows"
    return None


def run_parallel(jobs: list[tuple[str, tuple[str, ...]]]) -> list[tuple[int, str, str, float]]:
    results: list = [None] * len(jobs)

    def one(index: int) -> None:
        sql, extra = jobs[index]
        results[index] = heron_query(sql, *extra)

    threads = [threading.Thread(target=one, args=(i,)) for i in range(len(jobs))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return results


def concurrency(expected: dict[str, list]) -> None:
    print("\n## 1. failures under concurrency (heron query processes)")
    sequential = [heron_query(sql) for sql in BENIGN]
    print(f"baseline, one at a time: {sum(judge(s, o, expected) is not None for s, o in zip(BENIGN, sequential))}/5 "
          f"failed, median {statistics.median(o[3] for o in sequential):.2f} s per run (process start included)")

    results: list = [None] * 8
    def worker(index: int) -> None:
        results[index] = [(sql, heron_query(sql)) for sql in BENIGN]
    threads = [threading.Thread(target=worker, args=(i,)) for i in range(8)]
    started = time.perf_counter()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    wall = time.perf_counter() - started
    runs = [pair for per in results for pair in per]
    reasons = [r for r in (judge(sql, o, expected) for sql, o in runs) if r]
    print(f"8 concurrent runs x 5 benign: {len(reasons)}/40 failed; wall {wall:.1f} s; "
          f"median {statistics.median(o[3] for _, o in runs):.2f} s, max {max(o[3] for _, o in runs):.2f} s")
    for reason in sorted(set(reasons)):
        print(f"    {reasons.count(reason)} x {reason}")

    hostile = [(sql, ("--timeout", "5", *extra)) for sql, extra in HOSTILE * 2]
    benign = [(sql, ()) for sql in (BENIGN * 4)[:16]]
    started = time.perf_counter()
    outcomes = run_parallel(hostile + benign)
    wall = time.perf_counter() - started
    benign_out = list(zip([s for s, _ in benign], outcomes[len(hostile):]))
    reasons = [r for r in (judge(sql, o, expected) for sql, o in benign_out) if r]
    print(f"8 hostile + 16 benign at once: {len(reasons)}/16 benign failed; wall {wall:.1f} s; benign median "
          f"{statistics.median(o[3] for _, o in benign_out):.2f} s, max {max(o[3] for _, o in benign_out):.2f} s")
    for reason in sorted(set(reasons)):
        print(f"    {reasons.count(reason)} x {reason}")
    print("    hostile outcomes: " + "; ".join(sorted({f"exit {o[0]} {o[2][:50]}" for o in outcomes[:len(hostile)]})))


def in_process(server: Server, expected: dict[str, list]) -> None:
    """The bench's own path: threads sharing one prepared Sandbox (no process start-up in the figures)."""
    from heron_pipeline.sandbox.errors import SandboxError
    from heron_pipeline.sandbox.execute import prepare_sandbox
    from heron_pipeline.sandbox.limits import Limits

    print("\n## 1b. 8 hostile + 16 benign threads on one Sandbox (statement timeout 5 s)")
    sandbox = prepare_sandbox(server, benchmark_database(SCALE, SEED), limits=Limits(statement_timeout_s=5.0))
    alone = []
    for sql in BENIGN:
        started = time.perf_counter()
        sandbox.run(sql)
        alone.append(time.perf_counter() - started)
    jobs = [sql for sql, _ in HOSTILE] * 2 + (BENIGN * 4)[:16]
    results: list = [None] * len(jobs)
    barrier = threading.Barrier(len(jobs))

    def one(index: int) -> None:
        barrier.wait()
        started = time.perf_counter()
        try:
            outcome = sandbox.run(jobs[index])
            ok = index < 8 or outcome.rows == expected[jobs[index]]
            results[index] = (ok, "ok" if ok else "wrong rows", time.perf_counter() - started)
        except SandboxError as err:
            results[index] = (index < 8, err.line()[:90], time.perf_counter() - started)

    threads = [threading.Thread(target=one, args=(i,)) for i in range(len(jobs))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    benign = results[8:]
    failed = [r[1] for r in benign if not r[0]]
    print(f"benign alone: median {statistics.median(alone):.2f} s; with the hostile load: {len(failed)}/16 failed, "
          f"median {statistics.median(r[2] for r in benign):.2f} s, max {max(r[2] for r in benign):.2f} s")
    for reason in sorted(set(failed)):
        print(f"    {failed.count(reason)} x {reason}")
    print("    hostile: " + "; ".join(sorted({r[1][:60] for r in results[:8]})))


_CHILD = r"""
import resource, sys, time
from heron_pipeline.config import load_settings
from heron_pipeline.database.server import Server
from heron_pipeline.sandbox.execute import prepare_sandbox, run_prediction
from heron_pipeline.sandbox.errors import SandboxError
from heron_pipeline.sandbox.limits import Limits
server = Server(load_settings())
sandbox = prepare_sandbox(server, sys.argv[1])
limits = Limits(max_bytes=int(sys.argv[2]))
run_prediction("SELECT g, repeat('x', 10) FROM generate_series(1, 10) g", dsn=sandbox.dsn, limits=limits)
base = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
started = time.perf_counter()
try:
    run_prediction(sys.argv[3], dsn=sandbox.dsn, limits=limits)
    outcome = "ok"
except SandboxError as err:
    outcome = err.line()[:90]
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
print(f"{(peak - base) / 1024:.0f} {time.perf_counter() - started:.1f} {outcome}")
"""


def memory() -> None:
    print("\n## 2. peak client memory (growth of the fetching process's peak RSS)")
    for sql, caps in ((FETCH_SQL, (256, 128, 64)),
                      ("SELECT g, repeat('x', 10000000) FROM generate_series(1, 100) g", (64, 32))):
        print(sql)
        for cap_mib in caps:
            done = subprocess.run([sys.executable, "-c", _CHILD, benchmark_database(SCALE, SEED),
                                   str(cap_mib << 20), sql], capture_output=True, text=True, timeout=600)
            if done.returncode != 0:
                print(f"  cap {cap_mib} MiB: child failed: {done.stderr.strip().splitlines()[-1:]}")
                continue
            grown, seconds, outcome = done.stdout.strip().split(" ", 2)
            print(f"  cap {cap_mib} MiB (2x = {2 * cap_mib} MiB): peak RSS grew {grown} MiB in {seconds} s "
                  f"-> {outcome}")


#: One value bigger than the value cap (the issue's was a 600 MB string_agg, which took the client
#: to 1,192 MB): scaled down to 150 MB and 60 MB. Before the server-side cap the value reached the
#: client whole (libpq's buffer and its result: about twice the value); with it, the server refuses
#: the row before sending it.
BIG_VALUES = [("SELECT string_agg(repeat('x', 1000000), '') AS big FROM generate_series(1, 150)", 256),
              ("SELECT 1 AS n, string_agg(repeat('y', 1000000), '') AS big FROM generate_series(1, 60)", 32)]


def big_value() -> None:
    print("\n## 2b. one value over the value cap (growth of the fetching process's peak RSS)")
    for sql, cap_mib in BIG_VALUES:
        done = subprocess.run([sys.executable, "-c", _CHILD, benchmark_database(SCALE, SEED), str(cap_mib << 20), sql],
                              capture_output=True, text=True, timeout=600)
        if done.returncode != 0:
            print(f"  {sql[:60]}: child failed: {done.stderr.strip().splitlines()[-1:]}")
            continue
        grown, seconds, outcome = done.stdout.strip().split(" ", 2)
        print(f"  {sql[:70]}… at cap {cap_mib} MiB (value cap {min(64, cap_mib)} MiB): peak RSS grew {grown} MiB "
              f"in {seconds} s -> {outcome}")


def parse_times() -> None:
    from heron_pipeline.sandbox.errors import SandboxError
    from heron_pipeline.sandbox.guard import check_sql
    from heron_pipeline.sandbox.limits import Limits

    print("\n## 3. parse time of check_sql")
    limits = Limits()
    inputs = []
    if hasattr(limits, "max_sql_tokens"):
        # The largest inputs the bounds accept: an IN list at the token bound, a literal at the
        # character bound, brackets at the depth bound.
        items = (limits.max_sql_tokens - 8) // 2
        inputs.append((f"IN list of {items:,} (largest under the {limits.max_sql_tokens:,}-token bound)",
                       "SELECT 1 WHERE 1 IN (" + ",".join(str(i) for i in range(items)) + ")"))
        inputs.append((f"one literal at the {limits.max_sql_chars:,}-char bound",
                       "SELECT '" + "x" * (limits.max_sql_chars - 10) + "'"))
        depth = limits.max_sql_depth
        inputs.append((f"{depth} nested brackets (the depth bound)", "SELECT " + "(" * depth + "1" + ")" * depth))
    for items in (10_000, 1_000_000):
        inputs.append((f"IN list of {items:,}", "SELECT 1 WHERE 1 IN (" + ",".join(str(i) for i in range(items)) + ")"))
    for depth in (30, 5_000, 500_000):
        inputs.append((f"{depth:,} nested brackets", "SELECT " + "(" * depth + "1" + ")" * depth))
    for label, text in inputs:
        started = time.perf_counter()
        try:
            check_sql(text)
            outcome = "accepted"
        except SandboxError as err:
            outcome = err.line()[:80]
        print(f"{label} ({len(text):,} chars): {time.perf_counter() - started:.3f} s -> {outcome}")


def main() -> int:
    settings = load_settings()
    server = Server(settings)
    server.up()
    if not server.database_exists(benchmark_database(SCALE, SEED)):
        from heron_pipeline.seeding.build import build

        print(f"seeding {SCALE} {SEED} ...", flush=True)
        build(server, SCALE, SEED)
    print(f"server {server.maintenance_dsn}; {os.cpu_count()} cores; commit "
          + subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True,
                           cwd=Path(__file__).parent).stdout.strip())
    sections = set(sys.argv[1:]) or {"parse", "memory", "bigvalue", "processes", "threads"}
    if "parse" in sections:
        parse_times()
    if "memory" in sections:
        memory()
    if "bigvalue" in sections:
        big_value()
    if "processes" in sections:
        concurrency(expected_rows(server))
    if "threads" in sections:
        in_process(server, expected_rows(server))
    return 0


if __name__ == "__main__":
    sys.exit(main())
