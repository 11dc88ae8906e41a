"""Time the deterministic generator, next to a raw-COPY baseline measured in the same run.

Three measurements, in one process, on one server:

1. generator alone (no database): rows/s and MB/s of binary COPY rows for the whole scale, one thread;
2. the build's phases into the scratch database ``heron_build_<scale>_<seed>`` (tables — since
   the loaders create the tables, only schemas and types —, generate+COPY — which includes each
   table's creation, keys, indexes and ANALYZE, and the foreign keys added while the load goes
   on — then the foreign keys left for the end), as ``build`` runs them; the database is dropped
   afterwards — no finished database is touched;
3. the baseline: COPY ... FREEZE of synthetic rows as wide as the generator's average row (the
   same row count and bytes, one repeated in-memory chunk, so producing it costs nothing) into a
   scratch table. ``generate+COPY`` over ``raw COPY`` is the generator's overhead factor; since
   both run on the same machine minutes apart, the ratio means more than either time on a shared,
   noisy machine.

Peak RSS is the process's (generator, loader threads and the COPY chunks in flight) and, when the
load runs in worker processes (``small`` and larger), the largest worker's.

Run against your own server, e.g.:
    HERON_DATA_DIR=/tmp/me-pg HERON_PORT=55611 .venv/bin/heron db up
    HERON_DATA_DIR=/tmp/me-pg HERON_PORT=55611 .venv/bin/python benchmarks/bench_generator.py [--tiny]
"""

from __future__ import annotations

import argparse
import resource
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import psycopg  # noqa: E402

from heron_pipeline.config import load_settings  # noqa: E402
from heron_pipeline.database.names import build_database  # noqa: E402
from heron_pipeline.database.server import Server  # noqa: E402
from heron_pipeline.seeding.build import apply_keys, load_tables, start_build  # noqa: E402
from heron_pipeline.seeding.generate import Generator  # noqa: E402

BASELINE_TABLE = "public.heron_bench_raw"
_CHUNK_BYTES = 8 << 20


def peak_rss_mb() -> tuple[float, float]:
    """(this process, the largest worker process) in MB; small and larger load in workers."""
    return (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
            resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024)


def generate_only(generator: Generator) -> tuple[float, int, int]:
    """(seconds, rows, bytes) to produce every table's binary COPY rows without a database."""
    started, size = time.perf_counter(), 0
    for table in generator.plan.tables:
        for chunk in generator.table_copy(table):
            size += len(chunk)
    return time.perf_counter() - started, generator.plan.total_rows, size


def synthetic_chunk(row_bytes: int) -> tuple[bytes, int]:
    """Rows ``id,text`` padded so each line (newline included) is ``row_bytes`` long."""
    filler = max(1, row_bytes - 9)  # 7 digits, a comma, a newline
    rows = max(1, _CHUNK_BYTES // row_bytes)
    lines = [f"{i % 10_000_000:07d},{'x' * filler}\n" for i in range(rows)]
    return "".join(lines).encode(), rows


def raw_copy(dsn: str, rows: int, row_bytes: int) -> float:
    """Seconds to COPY ``rows`` synthetic rows of ``row_bytes`` into a fresh table, as the build does."""
    chunk, per_chunk = synthetic_chunk(row_bytes)
    with psycopg.connect(dsn, autocommit=False) as conn:
        conn.execute(f"DROP TABLE IF EXISTS {BASELINE_TABLE}")
        conn.commit()
        started = time.perf_counter()
        conn.execute(f"CREATE TABLE {BASELINE_TABLE} (id bigint, payload text)")  # in the COPY's transaction
        with conn.cursor().copy(f"COPY {BASELINE_TABLE} FROM STDIN (FORMAT csv, FREEZE)") as copy:
            left = rows
            while left > 0:
                take = min(left, per_chunk)
                copy.write(chunk if take == per_chunk else b"".join(chunk.splitlines(keepends=True)[:take]))
                left -= take
        conn.commit()
        seconds = time.perf_counter() - started
        conn.execute(f"DROP TABLE {BASELINE_TABLE}")
        conn.commit()
    return seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scale", default="small")
    parser.add_argument("--tiny", action="store_true", help="shorthand for --scale tiny")
    parser.add_argument("--seed", type=int, default=42)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--skip-generate-only", action="store_true", help="skip measurement 1")
    parser.add_argument("--processes", action=argparse.BooleanOptionalAction, default=None,
                        help="load in worker processes (default: the loader's own choice by size)")
    args = parser.parse_args()
    scale = "tiny" if args.tiny else args.scale

    server = Server(load_settings())
    server.up()
    started = time.perf_counter()
    generator = Generator.for_state(scale, args.seed)
    prepare = time.perf_counter() - started
    print(f"scale={scale} seed={args.seed} workers={args.workers}: {generator.plan.total_rows:,} rows in "
          f"{len(generator.plan.tables)} tables; catalog+profiles+plan {prepare:.2f} s")

    copy_bytes = 0
    if not args.skip_generate_only:
        seconds, rows, copy_bytes = generate_only(generator)
        print(f"generate only (1 thread, no database): {seconds:.2f} s, {rows / seconds:,.0f} rows/s, "
              f"{copy_bytes / 1e6 / seconds:,.1f} MB/s of COPY rows ({copy_bytes / 1e6:,.0f} MB)")

    phases: dict[str, float] = {}
    building = build_database(scale, args.seed)
    try:
        started = time.perf_counter()
        dsn = start_build(server, scale, args.seed)
        phases["tables"] = time.perf_counter() - started
        started = time.perf_counter()
        load_tables(dsn, generator, list(generator.plan.tables), workers=args.workers, processes=args.processes,
                    foreign_keys=True)
        phases["generate+COPY"] = time.perf_counter() - started  # + tables, keys, ANALYZE, most FKs
        started = time.perf_counter()
        apply_keys(dsn, generator, args.workers, table_keys=False)
        phases["foreign keys left"] = time.perf_counter() - started
        if not copy_bytes:
            with psycopg.connect(dsn) as conn:  # approximate: on-disk width of the loaded rows
                copy_bytes = int(conn.execute(
                    "SELECT sum(pg_relation_size(c.oid)) FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace "
                    "WHERE c.relkind = 'r' AND n.nspname NOT IN ('pg_catalog', 'information_schema')").fetchone()[0])
        row_bytes = max(10, round(copy_bytes / generator.plan.total_rows))
        baseline = raw_copy(dsn, generator.plan.total_rows, row_bytes)
    finally:
        server.drop_database(building)

    total = sum(phases.values())
    rows = generator.plan.total_rows
    print("phases: " + ", ".join(f"{k} {v:.2f} s" for k, v in phases.items()) + f"; total {total:.2f} s")
    print(f"generate+COPY {rows / phases['generate+COPY']:,.0f} rows/s "
          f"({copy_bytes / 1e6 / phases['generate+COPY']:,.1f} MB/s)")
    print(f"raw COPY of {rows:,} synthetic rows x {row_bytes} B (1 connection): {baseline:.2f} s, "
          f"{rows / baseline:,.0f} rows/s ({copy_bytes / 1e6 / baseline:,.1f} MB/s)")
    print(f"ratio generate+COPY (with tables, keys, ANALYZE, FKs) / raw COPY: {phases['generate+COPY'] / baseline:.2f}x")
    own, worker = peak_rss_mb()
    print(f"peak RSS {own:,.0f} MB (largest worker process: {worker:,.0f} MB)")


if __name__ == "__main__":
    main()
