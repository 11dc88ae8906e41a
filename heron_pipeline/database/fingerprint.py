"""A database's fingerprint: one sha256 over its structure and every row.

The structure part is the catalog as PostgreSQL reports it (tables, columns, constraints with
their validation state, indexes, enum types), so a database killed before its keys were built can
never match a finished one. The data part hashes each table's rows in primary-key order in
PostgreSQL's text format, under fixed session settings (UTC, ISO dates, extra_float_digits=3), so
the same rows give the same digest on every machine.

A build hashes each table's rows as soon as the table is loaded (``RowDigestsAsLoaded``), while
the rest of the build goes on, and hands those digests to ``fingerprint_database``, which then only
describes the structure and checks that each table is still ordered by the columns it was hashed
in. The bytes hashed are the same COPY under the same settings, so the digest is the same as a
standalone pass (tests/test_seeding.py compares the two).
"""

from __future__ import annotations

import hashlib
import json
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

import psycopg
from psycopg import pq, sql

from heron_pipeline.database.introspect import describe_structure
from heron_pipeline.database.names import BUILD_ROW_DIGESTS
from heron_pipeline.database.server import SESSION_OPTIONS
from heron_pipeline.processes import stop_processes

DOMAIN_FILTER = "n.nspname NOT IN ('pg_catalog', 'information_schema', 'pg_toast', 'public')"


@dataclass(frozen=True)
class Fingerprint:
    digest: str
    structure: str
    tables: dict[str, str]  # qualified table -> sha256 of its rows


@dataclass(frozen=True)
class RowDigest:
    """The sha256 of one table's rows and the columns they were ordered by when hashed."""

    keys: tuple[str, ...]
    digest: str


def tables_with_keys(conn: psycopg.Connection, only: list[str] | None = None) -> list[tuple[str, str, list[str]]]:
    """(schema, table, ordering columns): the primary key, or every column if there is none yet.
    ``only`` (qualified names) limits the answer to those tables."""
    limit = "" if only is None else "AND c.oid = ANY (%(only)s::regclass[])"
    rows = conn.execute(
        f"""
        SELECT n.nspname, c.relname,
               coalesce((SELECT array_agg(a.attname ORDER BY k.i)
                         FROM pg_index x CROSS JOIN LATERAL unnest(x.indkey::int2[]) WITH ORDINALITY k(n, i)
                         JOIN pg_attribute a ON a.attrelid = x.indrelid AND a.attnum = k.n
                         WHERE x.indrelid = c.oid AND x.indisprimary),
                        (SELECT array_agg(a.attname ORDER BY a.attnum) FROM pg_attribute a
                         WHERE a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped))
        FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE c.relkind = 'r' AND {DOMAIN_FILTER} {limit}
        ORDER BY 1, 2
        """,
        {"only": only} if only is not None else None,
    ).fetchall()
    return [(s, t, list(keys)) for s, t, keys in rows]


def table_rows_digest(conn: psycopg.Connection, schema: str, table: str, keys: list[str]) -> str:
    """The sha256 of the table's rows as ``COPY (SELECT * ... ORDER BY keys) TO STDOUT`` sends
    them; ``conn`` must have been opened with ``SESSION_OPTIONS`` (the text of dates, times and
    floats depends on them)."""
    digest = hashlib.sha256()
    query = sql.SQL("COPY (SELECT * FROM {} ORDER BY {}) TO STDOUT").format(
        sql.Identifier(schema, table), sql.SQL(", ").join(sql.Identifier(k) for k in keys))
    with conn.cursor().copy(query) as copy:
        for chunk in copy:
            digest.update(chunk)
    return digest.hexdigest()


def _table_digest(dsn: str, schema: str, table: str, keys: list[str]) -> tuple[str, str]:
    with psycopg.connect(dsn, options=SESSION_OPTIONS, autocommit=True) as conn:
        return f"{schema}.{table}", table_rows_digest(conn, schema, table, keys)


def fingerprint_database(dsn: str, *, workers: int = 2, known: dict[str, RowDigest] | None = None) -> Fingerprint:
    """The fingerprint of the database at ``dsn``.

    ``known`` holds row digests taken earlier (by ``RowDigestsAsLoaded`` during the build); one
    is used only if its table is still ordered by the same columns, and the rows of every other
    table are hashed now. The caller vouches that no row changed since."""
    known = known or {}
    with psycopg.connect(dsn, options=SESSION_OPTIONS) as conn:
        structure = describe_structure(conn)
        tables = tables_with_keys(conn)
    structure_digest = hashlib.sha256(json.dumps(structure, default=str, sort_keys=True).encode()).hexdigest()
    digests: dict[str, str] = {}
    missing = []
    for schema, table, keys in tables:
        earlier = known.get(f"{schema}.{table}")
        if earlier is not None and earlier.keys == tuple(keys):
            digests[f"{schema}.{table}"] = earlier.digest
        else:
            missing.append((schema, table, keys))
    with ThreadPoolExecutor(max_workers=workers) as pool:
        digests.update(pool.map(lambda t: _table_digest(dsn, *t), missing))
    overall = hashlib.sha256(structure_digest.encode())
    for name in sorted(digests):
        overall.update(f"\n{name} {digests[name]}".encode())
    return Fingerprint(overall.hexdigest(), structure_digest, dict(sorted(digests.items())))


def _copy_digest_blocking(conn: psycopg.Connection, schema: str, table: str, keys: list[str]) -> str:
    """``table_rows_digest`` on libpq directly: the same COPY, the same rows in the same order
    (one ``PQgetCopyData`` per row either way), each row hashed as it comes: half the client CPU of
    psycopg's ``Copy`` iteration, and ~5 % less than gathering rows into megabytes to hash (small 42,
    every table, three runs each). Blocking libpq calls hold the GIL, so this is for a process
    with nothing else to run (``RowDigestsAsLoaded``), never for a thread."""
    digest = hashlib.sha256()
    query = sql.SQL("COPY (SELECT * FROM {} ORDER BY {}) TO STDOUT").format(
        sql.Identifier(schema, table), sql.SQL(", ").join(sql.Identifier(k) for k in keys))
    pgconn = conn.pgconn
    pgconn.send_query(query.as_bytes(conn))
    started = pgconn.get_result()
    if started is None or started.status != pq.ExecStatus.COPY_OUT:
        message = started.get_error_message() if started is not None else "no result"
        raise psycopg.DatabaseError(f"COPY of {schema}.{table} did not start: {message}")
    get, update = pgconn.get_copy_data, digest.update
    while True:
        size, row = get(0)
        if size < 0:
            break
        update(row)
    finished = pgconn.get_result()
    while pgconn.get_result() is not None:
        pass
    if finished is None or finished.status != pq.ExecStatus.COMMAND_OK:
        message = finished.get_error_message() if finished is not None else "no result"
        raise psycopg.DatabaseError(f"COPY of {schema}.{table} failed: {message}")
    return digest.hexdigest()


def _next_batch(inbox) -> list[str] | None:
    """The next batch of tables from the building process; None when it says so; SystemExit when
    it is gone (a killed build must not leave this process waiting for ever: it holds the queue's
    writing end too, so the queue never reports the parent's death by itself)."""
    import multiprocessing
    import queue

    while True:
        try:
            return inbox.get(timeout=1)
        except queue.Empty:
            parent = multiprocessing.parent_process()
            if parent is not None and not parent.is_alive():
                raise SystemExit(0)  # nobody to answer: no result put on a queue nobody reads


def _digest_tables_as_told(dsn: str, inbox, outbox) -> None:
    """The digest process: hash the tables of each batch from ``inbox`` until None, then put
    {table: (keys, digest)} on ``outbox`` (or ``("error", text)``)."""
    import os
    import signal
    import warnings

    # SIGTERM as a shell would leave it, whatever the building process inherited (``abandon``).
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGTERM})
    # Every failure is reported on ``outbox``; whatever else would reach the inherited stderr (a
    # library's warning when the server goes away mid-COPY) would be a second line beside the one
    # the building command prints for that failure.
    warnings.simplefilter("ignore")
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, 2)
    os.close(devnull)
    digests: dict[str, tuple[tuple[str, ...], str]] = {}
    try:
        with psycopg.connect(dsn, options=SESSION_OPTIONS, autocommit=True, application_name=BUILD_ROW_DIGESTS) as conn:
            while (tables := _next_batch(inbox)) is not None:
                for schema, table, keys in tables_with_keys(conn, tables):
                    digests[f"{schema}.{table}"] = (tuple(keys), _copy_digest_blocking(conn, schema, table, keys))
    except SystemExit:
        return
    except BaseException as err:  # noqa: BLE001 - reported to the building process, which raises
        outbox.put(("error", f"{type(err).__name__}: {err}"))
        return
    outbox.put(("done", digests))


#: How long ``RowDigestsAsLoaded.abandon`` lets the digest process end on SIGTERM before SIGKILL.
STOP_GRACE_S = 2.0


class RowDigestsAsLoaded:
    """Hashes each table's rows as soon as the build hands the table over (committed, keyed,
    never written again), in a process and on a connection of its own, while the loaders go on.

    After the build, a separate pass read back every row the build had just written: ~6 s on
    two cores for ``small``, all of it after the build. Here the same COPY runs while the rows are
    still in shared buffers and overlaps generation and the foreign keys. A process, not a
    thread: the loop is one Python call per row, and the generator's threads need the GIL (a
    blocking libpq call even holds it while it waits). Reading takes an ACCESS SHARE lock only,
    so it never waits for the foreign-key thread nor makes it wait.

    ``close`` waits for the digests and returns them (``fingerprint_database(known=...)``); it
    must run before the build database is renamed, which needs every session gone."""

    def __init__(self, dsn: str):
        import multiprocessing

        # spawn, not fork: the building process runs threads (polars, the loaders).
        context = multiprocessing.get_context("spawn")
        self.inbox, self.outbox = context.Queue(), context.Queue()
        self.process = context.Process(target=_digest_tables_as_told, args=(dsn, self.inbox, self.outbox),
                                       name="heron-row-digests", daemon=True)
        self.process.start()

    def loaded(self, tables: list[str]) -> None:
        self.inbox.put(list(tables))

    def close(self) -> dict[str, RowDigest]:
        """Every handed-over table's digest; raises if the digest process failed."""
        self.inbox.put(None)
        kind, value = self._answer()
        self.process.join()
        if kind != "done":
            raise RuntimeError(f"hashing the loaded tables failed: {value}")
        return {table: RowDigest(keys, digest) for table, (keys, digest) in value.items()}

    def abandon(self) -> None:
        """The build failed: stop the digest process, whatever it was doing: SIGTERM, then SIGKILL
        after ``STOP_GRACE_S`` (heron_pipeline/processes.py). Idle between batches, it never notices
        a server that died; started under a parent that ignores SIGTERM, a plain terminate-and-join
        kept a failed build waiting for ever."""
        stop_processes([self.process], STOP_GRACE_S)
        for channel in (self.inbox, self.outbox):  # nothing left to flush: the reader is gone
            channel.cancel_join_thread()
            channel.close()

    def _answer(self) -> tuple[str, object]:
        import queue

        while True:
            try:
                return self.outbox.get(timeout=1)
            except queue.Empty:
                if not self.process.is_alive():
                    try:  # it may have answered just before it ended
                        return self.outbox.get(timeout=1)
                    except queue.Empty:
                        return "error", f"the digest process ended (exit code {self.process.exitcode})"
