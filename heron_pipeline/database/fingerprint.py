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
import queue
import threading
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

import psycopg
from psycopg import sql

from heron_pipeline.database.introspect import describe_structure
from heron_pipeline.database.server import SESSION_OPTIONS

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


def _tables_with_keys(conn: psycopg.Connection, only: list[str] | None = None) -> list[tuple[str, str, list[str]]]:
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
        tables = _tables_with_keys(conn)
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


class RowDigestsAsLoaded:
    """Hashes each table's rows, on a connection of its own, as soon as the build hands the table
    over (committed, keyed, never written again), while the loaders go on with other tables.

    After the build, a separate pass read back every row the build had just written: ~6 s on
    two cores for ``small``, all of it after the build. Here the same COPY runs while the rows are
    still in shared buffers and overlaps generation and the foreign keys. Reading takes an ACCESS
    SHARE lock only, so it never waits for the foreign-key thread nor makes it wait.

    ``close`` waits for the digests and returns them (``fingerprint_database(known=...)``); it
    must run before the build database is renamed, which needs every session gone."""

    def __init__(self, dsn: str):
        self.dsn = dsn
        self.digests: dict[str, RowDigest] = {}
        self.error: BaseException | None = None
        self.abandoned = False
        self.inbox: queue.Queue[list[str] | None] = queue.Queue()
        self.thread = threading.Thread(target=self._run, name="heron-row-digests", daemon=True)
        self.thread.start()

    def loaded(self, tables: list[str]) -> None:
        self.inbox.put(list(tables))

    def close(self) -> dict[str, RowDigest]:
        """Every handed-over table's digest; raises what failed, if anything did."""
        self.inbox.put(None)
        self.thread.join()
        if self.error is not None:
            raise self.error
        return dict(self.digests)

    def abandon(self) -> None:
        """The build failed: stop after the table in flight."""
        self.abandoned = True
        self.inbox.put(None)
        self.thread.join()

    def _run(self) -> None:
        try:
            with psycopg.connect(self.dsn, options=SESSION_OPTIONS, autocommit=True) as conn:
                while (tables := self.inbox.get()) is not None:
                    for schema, table, keys in _tables_with_keys(conn, tables):
                        if self.abandoned:
                            return
                        self.digests[f"{schema}.{table}"] = RowDigest(
                            tuple(keys), table_rows_digest(conn, schema, table, keys))
        except BaseException as err:  # re-raised by close() in the building thread
            self.error = err
