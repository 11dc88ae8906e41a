"""Build ``heron_<scale>_<seed>`` from nothing, crash-safely.

Everything happens in ``heron_build_<scale>_<seed>``: phase-1 DDL, COPY of every table (each in
its own transaction that first truncates the table, so with ``wal_level=minimal`` the rows skip
the WAL and arrive frozen), phase-2 keys and indexes, ANALYZE. Only a complete database is
renamed to its final name, so a build killed at any point leaves nothing a later run could
mistake for a finished one; the next run drops the leftover and starts again.
"""

from __future__ import annotations

import time
from concurrent.futures import ThreadPoolExecutor, as_completed
from dataclasses import dataclass, field
from typing import Callable

import psycopg
from psycopg import sql

from heron_pipeline.database.names import benchmark_database, build_database
from heron_pipeline.database.schema_load import apply_phase_one, phase_two_steps
from heron_pipeline.database.server import Server
from heron_pipeline.seeding import GENERATOR_VERSION
from heron_pipeline.seeding.generate import Generator

#: Called after each table with (table, rows, seconds); the CLI draws progress bars with it.
Progress = Callable[[str, int, float], None]


@dataclass
class BuildReport:
    scale: str
    seed: int
    database: str
    rows: dict[str, int] = field(default_factory=dict)
    seconds: dict[str, float] = field(default_factory=dict)  # phase -> seconds
    bytes_on_disk: int = 0

    @property
    def total_rows(self) -> int:
        return sum(self.rows.values())


def _copy_table(dsn: str, generator: Generator, table: str, batch_blocks: int) -> tuple[str, int, float]:
    started = time.perf_counter()
    schema, name = table.split(".")
    target = sql.Identifier(schema, name)
    with psycopg.connect(dsn, autocommit=False) as conn:
        conn.execute(sql.SQL("TRUNCATE {}").format(target))
        with conn.cursor().copy(sql.SQL("COPY {} FROM STDIN (FORMAT csv, FREEZE)").format(target)) as copy:
            for chunk in generator.table_csv(table, batch_blocks):
                copy.write(chunk)
        conn.commit()
    return table, generator.plan.tables[table].total, time.perf_counter() - started


def _run_batches(dsn: str, statements: list[tuple[str, str]], workers: int) -> None:
    """Run (table, statement) pairs on ``workers`` connections, one transaction per connection.

    All statements of a table go to the same connection, so no two transactions ever wait for
    each other's tables; one commit per connection means one sync of the new files instead of one
    per index (with wal_level=minimal, index builds skip the WAL and are synced at commit).
    """
    by_table: dict[str, list[str]] = {}
    for table, statement in statements:
        by_table.setdefault(table, []).append(statement)
    batches: list[list[str]] = [[] for _ in range(max(1, workers))]
    for i, table in enumerate(sorted(by_table)):
        batches[i % len(batches)].extend(by_table[table])

    def run(batch: list[str]) -> None:
        with psycopg.connect(dsn, autocommit=False) as conn:
            for statement in batch:
                conn.execute(statement)
            conn.commit()

    with ThreadPoolExecutor(max_workers=len(batches)) as pool:
        for future in [pool.submit(run, b) for b in batches if b]:
            future.result()


def _run_each(dsn: str, statements: list[str], workers: int) -> None:
    """Run statements that take only weak locks (VALIDATE, ANALYZE) in parallel, each on its own."""
    def run(chunk: list[str]) -> None:
        with psycopg.connect(dsn, autocommit=True) as conn:
            for statement in chunk:
                conn.execute(statement)

    chunks = [statements[i::workers] for i in range(max(1, workers))]
    with ThreadPoolExecutor(max_workers=len(chunks)) as pool:
        for future in [pool.submit(run, c) for c in chunks if c]:
            future.result()


def apply_keys(dsn: str, generator: Generator, workers: int) -> None:
    """Phase 2 after the load: keys and indexes in parallel batches; foreign keys added NOT VALID
    in one short transaction, then validated in parallel (VALIDATE takes locks that do not
    conflict with each other, so FK checks on shared parents cannot deadlock)."""
    steps = phase_two_steps()
    table_of = _statement_tables(generator)
    for step in ("primary_key", "unique"):
        _run_batches(dsn, [(table_of(s), s) for s in steps[step]], workers)
    with psycopg.connect(dsn, autocommit=False) as conn:
        for statement in steps["foreign_key"]:
            conn.execute(statement + " NOT VALID")
        conn.commit()
    validations = [
        f"ALTER TABLE {fk.table} VALIDATE CONSTRAINT {fk.name}" for fk in generator.catalog.foreign_keys
    ]
    _run_each(dsn, validations, workers)
    _run_batches(dsn, [(table_of(s), s) for s in steps["index"]], workers)
    with psycopg.connect(dsn, autocommit=True) as conn:
        for statement in steps["comment"]:
            conn.execute(statement)


def _statement_tables(generator: Generator) -> Callable[[str], str]:
    import sqlglot
    import sqlglot.expressions as exp

    def table_of(statement: str) -> str:
        parsed = sqlglot.parse_one(statement, read="postgres")
        target = parsed.this if isinstance(parsed, exp.Alter) else parsed.this.args["table"]
        return f"{target.db}.{target.name}"

    return table_of


def start_build(server: Server, scale: str, seed: int) -> str:
    """A fresh ``heron_build_<scale>_<seed>`` holding the phase-1 tables; returns its DSN."""
    building = build_database(scale, seed)
    server.drop_database(building)
    server.create_database(building)
    dsn = server.dsn(building)
    with psycopg.connect(dsn, autocommit=False) as conn:
        apply_phase_one(conn)
        conn.commit()
    return dsn


def load_tables(dsn: str, generator: Generator, tables: list[str], *, workers: int = 2, batch_blocks: int = 4,
                progress: Progress | None = None) -> dict[str, int]:
    """Generate and COPY ``tables`` (largest first, ``workers`` at a time); rows per table."""
    rows: dict[str, int] = {}
    ordered = sorted(tables, key=lambda t: -generator.plan.tables[t].total)
    with ThreadPoolExecutor(max_workers=workers) as pool:
        futures = [pool.submit(_copy_table, dsn, generator, t, batch_blocks) for t in ordered]
        for future in as_completed(futures):
            table, count, seconds = future.result()
            rows[table] = count
            if progress:
                progress(table, count, seconds)
    return rows


def finish_build(server: Server, generator: Generator, scale: str, seed: int, *, workers: int = 2) -> tuple[dict[str, float], int]:
    """Keys, indexes, ANALYZE, the build label, then the rename into place.
    Returns (seconds per phase, bytes on disk)."""
    building = build_database(scale, seed)
    dsn = server.dsn(building)
    seconds: dict[str, float] = {}
    started = time.perf_counter()
    apply_keys(dsn, generator, workers)
    seconds["keys"] = time.perf_counter() - started
    started = time.perf_counter()
    _run_each(dsn, [f"ANALYZE {t}" for t in generator.plan.tables], workers)
    seconds["analyze"] = time.perf_counter() - started
    with psycopg.connect(dsn, autocommit=True) as conn:
        conn.execute(sql.SQL("COMMENT ON DATABASE {} IS {}").format(
            sql.Identifier(building), sql.Literal(build_label(generator, scale, seed))))
        size = conn.execute("SELECT pg_database_size(current_database())").fetchone()[0]
    server.rename_database(building, benchmark_database(scale, seed))
    return seconds, size


def build(server: Server, scale: str, seed: int, *, workers: int = 2, batch_blocks: int = 4,
          progress: Progress | None = None, generator: Generator | None = None) -> BuildReport:
    """Generate and load (scale, seed) and rename it into place; returns what it did."""
    generator = generator or Generator.for_state(scale, seed)
    report = BuildReport(scale, seed, benchmark_database(scale, seed))
    started = time.perf_counter()
    dsn = start_build(server, scale, seed)
    report.seconds["tables"] = time.perf_counter() - started
    started = time.perf_counter()
    report.rows = load_tables(dsn, generator, list(generator.plan.tables), workers=workers,
                              batch_blocks=batch_blocks, progress=progress)
    report.seconds["generate+copy"] = time.perf_counter() - started
    phases, report.bytes_on_disk = finish_build(server, generator, scale, seed, workers=workers)
    report.seconds.update(phases)
    return report


def build_label(generator: Generator, scale: str, seed: int) -> str:
    """What built a database; a finished database whose label differs is stale."""
    from heron_pipeline.seeding.profiles import profile_hash

    return (f"heron generator {GENERATOR_VERSION} scale={scale} seed={seed} "
            f"ddl={generator.catalog.ddl_hash[:16]} profiles={profile_hash()[:16]}")


def existing_label(server: Server, scale: str, seed: int) -> str | None:
    """The build label of the finished database of (scale, seed), or None if there is none."""
    with server.connect() as conn:
        row = conn.execute(
            "SELECT shobj_description(oid, 'pg_database') FROM pg_database WHERE datname = %s",
            (benchmark_database(scale, seed),),
        ).fetchone()
    return None if row is None else (row[0] or "")
