"""A database's fingerprint: one sha256 over its structure and every row.

The structure part is the catalog as PostgreSQL reports it (tables, columns, constraints with
their validation state, indexes, enum types), so a database killed before its keys were built can
never match a finished one. The data part hashes each table's rows in primary-key order in
PostgreSQL's text format, under fixed session settings (UTC, ISO dates, extra_float_digits=3), so
the same rows give the same digest on every machine.
"""

from __future__ import annotations

import hashlib
import json
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


def _tables_with_keys(conn: psycopg.Connection) -> list[tuple[str, str, list[str]]]:
    """(schema, table, ordering columns): the primary key, or every column if there is none yet."""
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
        WHERE c.relkind = 'r' AND {DOMAIN_FILTER}
        ORDER BY 1, 2
        """
    ).fetchall()
    return [(s, t, list(keys)) for s, t, keys in rows]


def _table_digest(dsn: str, schema: str, table: str, keys: list[str]) -> tuple[str, str]:
    digest = hashlib.sha256()
    query = sql.SQL("COPY (SELECT * FROM {} ORDER BY {}) TO STDOUT").format(
        sql.Identifier(schema, table), sql.SQL(", ").join(sql.Identifier(k) for k in keys))
    with psycopg.connect(dsn, options=SESSION_OPTIONS) as conn:
        with conn.cursor().copy(query) as copy:
            for chunk in copy:
                digest.update(chunk)
    return f"{schema}.{table}", digest.hexdigest()


def fingerprint_database(dsn: str, *, workers: int = 2) -> Fingerprint:
    """The fingerprint of the database at ``dsn``."""
    with psycopg.connect(dsn, options=SESSION_OPTIONS) as conn:
        structure = describe_structure(conn)
        tables = _tables_with_keys(conn)
    structure_digest = hashlib.sha256(json.dumps(structure, default=str, sort_keys=True).encode()).hexdigest()
    with ThreadPoolExecutor(max_workers=workers) as pool:
        digests = dict(pool.map(lambda t: _table_digest(dsn, *t), tables))
    overall = hashlib.sha256(structure_digest.encode())
    for name in sorted(digests):
        overall.update(f"\n{name} {digests[name]}".encode())
    return Fingerprint(overall.hexdigest(), structure_digest, dict(sorted(digests.items())))
