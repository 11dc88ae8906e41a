"""What PostgreSQL itself reports about a database's structure.

Used to prove that the two load paths give identical catalogs, that the parsed catalog matches the
server's, and as the structural part of a database fingerprint. Every list is sorted, so the
result is a canonical value that two databases can be compared by.
"""

from __future__ import annotations

import psycopg

EXCLUDED_SCHEMAS = ("pg_catalog", "information_schema", "pg_toast")

_COLUMNS = """
SELECT n.nspname, c.relname, a.attnum, a.attname, format_type(a.atttypid, a.atttypmod), a.attnotnull,
       pg_get_expr(d.adbin, d.adrelid), col_description(c.oid, a.attnum)
FROM pg_class c
JOIN pg_namespace n ON n.oid = c.relnamespace
JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped
LEFT JOIN pg_attrdef d ON d.adrelid = c.oid AND d.adnum = a.attnum
WHERE c.relkind = 'r' AND n.nspname <> ALL (%(excluded)s)
ORDER BY 1, 2, 3
"""

_TABLES = """
SELECT n.nspname, c.relname, obj_description(c.oid, 'pg_class'), c.relpersistence
FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
WHERE c.relkind = 'r' AND n.nspname <> ALL (%(excluded)s)
ORDER BY 1, 2
"""

_CONSTRAINTS = """
SELECT n.nspname, c.relname, k.conname, k.contype, pg_get_constraintdef(k.oid, true), k.convalidated,
       obj_description(k.oid, 'pg_constraint')
FROM pg_constraint k
JOIN pg_class c ON c.oid = k.conrelid
JOIN pg_namespace n ON n.oid = c.relnamespace
WHERE n.nspname <> ALL (%(excluded)s)
ORDER BY 1, 2, 3
"""

_INDEXES = """
SELECT schemaname, tablename, indexname, indexdef
FROM pg_indexes WHERE schemaname <> ALL (%(excluded)s)
ORDER BY 1, 2, 3
"""

_TYPES = """
SELECT n.nspname, t.typname, array_agg(e.enumlabel ORDER BY e.enumsortorder)
FROM pg_type t JOIN pg_namespace n ON n.oid = t.typnamespace JOIN pg_enum e ON e.enumtypid = t.oid
WHERE n.nspname <> ALL (%(excluded)s)
GROUP BY 1, 2 ORDER BY 1, 2
"""


def describe_structure(conn: psycopg.Connection) -> dict[str, list[tuple]]:
    """Tables, columns, constraints, indexes and enum types as sorted tuples."""
    params = {"excluded": list(EXCLUDED_SCHEMAS)}
    return {
        name: [tuple(row) for row in conn.execute(query, params).fetchall()]
        for name, query in (("tables", _TABLES), ("columns", _COLUMNS), ("constraints", _CONSTRAINTS),
                            ("indexes", _INDEXES), ("types", _TYPES))
    }


def foreign_keys(conn: psycopg.Connection) -> set[tuple[str, tuple[str, ...], str, tuple[str, ...]]]:
    """Every FK as (table, columns, referenced table, referenced columns), from pg_constraint."""
    rows = conn.execute(
        """
        SELECT k.conrelid::regclass::text, k.confrelid::regclass::text,
               array(SELECT a.attname FROM unnest(k.conkey) WITH ORDINALITY u(n, i)
                     JOIN pg_attribute a ON a.attrelid = k.conrelid AND a.attnum = u.n ORDER BY u.i),
               array(SELECT a.attname FROM unnest(k.confkey) WITH ORDINALITY u(n, i)
                     JOIN pg_attribute a ON a.attrelid = k.confrelid AND a.attnum = u.n ORDER BY u.i)
        FROM pg_constraint k WHERE k.contype = 'f'
        """
    ).fetchall()
    return {(src, tuple(cols), dst, tuple(ref)) for src, dst, cols, ref in rows}
