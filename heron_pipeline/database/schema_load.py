"""Apply the schema DDL to a database, in one pass or in the generator's two phases.

Phase 1 (types, tables, CHECKs, comments) comes first; phase 2 (keys, FKs, indexes) either right
after it (a schema-only load) or after the data is copied (the generator, which is several times
faster on bare tables). Both paths must end in the same catalog; a test compares them.
"""

from __future__ import annotations

import psycopg
import sqlglot.expressions as exp

from heron_pipeline.catalog.ddl import DDLFiles, Statement, ddl_files, read_statements


def apply_phase_one(conn: psycopg.Connection, files: DDLFiles | None = None) -> None:
    files = files or ddl_files()
    for path in files.phase_one:
        conn.execute(path.read_text())


#: Phase-2 steps in the order they must run across all domains: every key exists before any FK
#: needs it (back-references point at later domains), and indexes come last.
STEPS = ("primary_key", "unique", "foreign_key", "index", "comment")


def _step(statement: Statement) -> str:
    if statement.constraint_comment is not None:
        return "comment"
    e = statement.expression
    if isinstance(e, exp.Create) and e.args.get("kind") == "INDEX":
        return "index"
    body = e.find(exp.Constraint).expressions[0]  # type: ignore[union-attr]
    if isinstance(body, exp.PrimaryKey):
        return "primary_key"
    if isinstance(body, exp.UniqueColumnConstraint):
        return "unique"
    if isinstance(body, exp.ForeignKey):
        return "foreign_key"
    raise ValueError(f"{statement.file}: unexpected phase-2 statement {statement.sql[:80]}")


def phase_two_steps(files: DDLFiles | None = None) -> dict[str, list[str]]:
    """Phase-2 statements grouped by step; statements within one step are independent of each
    other, so a loader may run them on several connections at once."""
    files = files or ddl_files()
    steps: dict[str, list[str]] = {step: [] for step in STEPS}
    for statement in read_statements(files):
        if statement.phase == 2:
            steps[_step(statement)].append(statement.sql)
    return steps


def apply_phase_two(conn: psycopg.Connection, files: DDLFiles | None = None) -> None:
    for statements in phase_two_steps(files).values():
        for statement in statements:
            conn.execute(statement)


def load_schema(conn: psycopg.Connection, files: DDLFiles | None = None) -> None:
    """Schema-only load: both phases, one after the other, in one transaction."""
    files = files or ddl_files()
    with conn.transaction():
        apply_phase_one(conn, files)
        apply_phase_two(conn, files)
