"""The full-schema prompt of the ``llm`` adapter, built from the catalog.

Every table is rendered as a compact CREATE TABLE with its comment and each column's comment and
foreign-key target, because the comments carry the semantics (currency direction, status meaning,
soft deletes) that the questions' traps test. The text is deterministic for a given DDL, which keeps
the response cache effective: the same question over the same schema is the same request.
"""

from __future__ import annotations

from typing import Any

SYSTEM_PROMPT = (
    "You are an expert PostgreSQL analyst. Answer the user's question with exactly one read-only "
    "PostgreSQL SELECT statement over the schema below. Always qualify tables with their schema. "
    "Reply with the SQL in a single ```sql fenced block and nothing else."
)

AS_OF_NOTE = (
    "The data ends on the as-of date 2026-06-30 (UTC): never use now() or current_date. Rows with "
    "deleted_at set are deleted and excluded unless the question says otherwise. Joins between "
    "tenant tables must also match tenant_id."
)


def _column_line(column: Any, fk_target: str | None) -> str:
    parts = [f"  {column.name} {column.type_sql}"]
    if not column.nullable:
        parts.append(" NOT NULL")
    notes = []
    if fk_target:
        notes.append(f"references {fk_target}")
    if column.comment:
        notes.append(" ".join(column.comment.split()))
    return "".join(parts) + (f"  -- {'; '.join(notes)}" if notes else "")


def render_table(table: Any) -> str:
    """One table as ``-- comment`` + ``CREATE TABLE schema.name (...)`` with column comments."""
    targets: dict[str, str] = {}
    for fk in table.foreign_keys:
        own = fk.own_column
        ref = fk.ref_columns[fk.columns.index(own)]
        targets[own] = f"{fk.ref_table}({ref})"
    lines = []
    if table.comment:
        lines.append(f"-- {' '.join(table.comment.split())}")
    lines.append(f"CREATE TABLE {table.qualified} (")
    body = [_column_line(c, targets.get(c.name)) for c in table.columns]
    if table.primary_key:
        body.append(f"  PRIMARY KEY ({', '.join(table.primary_key)})")
    lines.append(",\n".join(body))
    lines.append(");")
    return "\n".join(lines)


def render_schema(catalog: Any) -> str:
    """Every enum type and every table of the catalog, in the catalog's dependency order."""
    enums = [f"CREATE TYPE {name} AS ENUM ({', '.join(repr(v) for v in labels)});"
             for name, labels in catalog.enums.items()]
    tables = [render_table(t) for t in catalog.tables.values()]
    return "\n\n".join([*enums, *tables])


def build_messages(question_text: str, schema_text: str) -> list[dict[str, str]]:
    """Chat messages for one question: system rules + schema, then the question."""
    return [
        {"role": "system", "content": f"{SYSTEM_PROMPT}\n\n{AS_OF_NOTE}\n\n{schema_text}"},
        {"role": "user", "content": " ".join(question_text.split())},
    ]
