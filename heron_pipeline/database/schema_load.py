"""Apply the schema DDL to a database, in one pass or in the generator's two phases.

Phase 1 (types, tables, CHECKs, comments) comes first; phase 2 (keys, FKs, indexes) either right
after it (a schema-only load) or after the data is copied (the generator, which is several times
faster on bare tables). Both paths must end in the same catalog; a test compares them.
"""

from __future__ import annotations

import psycopg

from heron_pipeline.catalog.ddl import DDLFiles, ddl_files, split_statements


def apply_phase_one(conn: psycopg.Connection, files: DDLFiles | None = None) -> None:
    files = files or ddl_files()
    for path in files.phase_one:
        conn.execute(path.read_text())


def phase_two_statements(files: DDLFiles | None = None) -> list[str]:
    """Phase-2 statements one by one, so a loader can run them on several connections."""
    files = files or ddl_files()
    return [s for path in files.phase_two for s in split_statements(path.read_text())]


def apply_phase_two(conn: psycopg.Connection, files: DDLFiles | None = None) -> None:
    files = files or ddl_files()
    for path in files.phase_two:
        conn.execute(path.read_text())


def load_schema(conn: psycopg.Connection, files: DDLFiles | None = None) -> None:
    """Schema-only load: both phases, one after the other, in one transaction."""
    files = files or ddl_files()
    with conn.transaction():
        apply_phase_one(conn, files)
        apply_phase_two(conn, files)
