"""The schema as prompt text, in two renderings, and the chat messages of a one-shot SQL question.

``full``: every table as a CREATE TABLE with its comment and each column's comment and
foreign-key target, because the comments carry the semantics (currency direction, status meaning,
soft deletes) that the questions' traps test. About 383 KB for the 211 tables.

``compact``: one line per table — names, types, keys and foreign keys — and a comment only where it
carries meaning a name cannot (``meaningful_comment``): status and lifecycle semantics, units and
scales, sign or direction of money, NULL meaning "not" something on a status-like column. Enum
types are listed once with their labels; ``tenant`` and ``soft-delete`` are flags on the table
line instead of a repeated column comment. Nullable columns end in ``?``.

Both are deterministic for a given DDL, which keeps the response cache effective: the same question
over the same schema is the same request.
"""

from __future__ import annotations

import re
from typing import Any, Iterable

SYSTEM_PROMPT = (
    "You are an expert PostgreSQL analyst. Answer the user's question with exactly one read-only "
    "PostgreSQL SELECT statement over the schema below. Always qualify tables with their schema. "
    "Reply with the SQL in a single ```sql fenced block and nothing else."
)

SCHEMA_STYLES = ("full", "compact")

#: Comment words that carry meaning a column's name and type do not (see module docstring).
_MEANINGFUL = re.compile(
    r"\b(lifecycle|status|means|meaning|positive|negative|sign|signed|debit|credit|refund\w*|reversal|"
    r"direction|inbound|outbound|percent|basis points|minor units?|cents|in (?:minutes|seconds|days|hours|"
    r"bytes|months|milliseconds|ms)|utc|local|inclusive|exclusive|excluded|only when|never|always)\b|%",
    re.IGNORECASE)
_STATUS_COLUMN = re.compile(r"(^|_)(status|state|stage|kind|type|reason)$")


def one_line(text: str | None) -> str:
    return " ".join((text or "").split())


def meaningful_comment(column: Any) -> str | None:
    """The column's comment when the compact rendering keeps it, else None (see module docstring)."""
    comment = one_line(column.comment)
    if not comment or column.name in ("deleted_at", "tenant_id", "created_at", "updated_at", "currency_code"):
        return None
    if _STATUS_COLUMN.search(column.name) or _MEANINGFUL.search(comment):
        return comment
    return None


def _column_line(column: Any, fk_target: str | None) -> str:
    parts = [f"  {column.name} {column.type_sql}"]
    if not column.nullable:
        parts.append(" NOT NULL")
    notes = []
    if fk_target:
        notes.append(f"references {fk_target}")
    if column.comment:
        notes.append(one_line(column.comment))
    return "".join(parts) + (f"  -- {'; '.join(notes)}" if notes else "")


def _fk_targets(table: Any) -> dict[str, str]:
    targets: dict[str, str] = {}
    for fk in table.foreign_keys:
        own = fk.own_column
        ref = fk.ref_columns[fk.columns.index(own)]
        targets[own] = f"{fk.ref_table}({ref})"
    return targets


def render_table(table: Any) -> str:
    """One table as ``-- comment`` + ``CREATE TABLE schema.name (...)`` with column comments."""
    targets = _fk_targets(table)
    lines = []
    if table.comment:
        lines.append(f"-- {one_line(table.comment)}")
    lines.append(f"CREATE TABLE {table.qualified} (")
    body = [_column_line(c, targets.get(c.name)) for c in table.columns]
    if table.primary_key:
        body.append(f"  PRIMARY KEY ({', '.join(table.primary_key)})")
    lines.append(",\n".join(body))
    lines.append(");")
    return "\n".join(lines)


def render_table_compact(table: Any) -> str:
    """One table on one line (plus kept comments): ``schema.table [flags] (col type, ...)``."""
    targets = {own: target.split("(")[0] + ("" if target.endswith("(id)") else "(" + target.split("(")[1])
               for own, target in _fk_targets(table).items()}
    flags = [f for f, on in (("tenant", table.is_tenant_scoped), ("soft-delete", table.is_soft_deletable)) if on]
    columns, notes = [], []
    for column in table.columns:
        if column.name == "tenant_id":
            continue  # the tenant flag says it: every tenant table has tenant_id bigint NOT NULL
        text = f"{column.name} {column.type_sql}{'?' if column.nullable else ''}"
        if column.name in table.primary_key:
            text += " PK"
        if column.name in targets:
            text += f" -> {targets[column.name]}"
        columns.append(text)
        note = meaningful_comment(column)
        if note:
            notes.append(f"  {column.name}: {note}")
    if len(table.primary_key) > 1:
        columns.append(f"PK({', '.join(table.primary_key)})")
    head = f"{table.qualified}{' [' + ', '.join(flags) + ']' if flags else ''} ({', '.join(columns)})"
    return "\n".join([head, *notes])


def render_schema(catalog: Any, style: str = "full", tables: Iterable[str] | None = None) -> str:
    """Enum types and tables of the catalog (all, or only ``tables``), in the catalog's order."""
    if style not in SCHEMA_STYLES:
        raise ValueError(f"unknown schema style {style!r}; known: {', '.join(SCHEMA_STYLES)}")
    chosen = [t for t in catalog.tables.values() if tables is None or t.qualified in set(tables)]
    used = {c.type_sql for t in chosen for c in t.columns} if tables is not None else None
    enums = [(name, labels) for name, labels in catalog.enums.items() if used is None or name in used]
    if style == "full":
        parts = [f"CREATE TYPE {name} AS ENUM ({', '.join(repr(v) for v in labels)});" for name, labels in enums]
        parts += [render_table(t) for t in chosen]
        return "\n\n".join(parts)
    head = ["-- tenant: the table has tenant_id bigint NOT NULL; soft-delete: deleted_at set = deleted; "
            "col? = nullable; -> = foreign key"]
    head += [f"enum {name}: {' | '.join(labels)}" for name, labels in enums]
    return "\n".join([*head, *(render_table_compact(t) for t in chosen)])


def build_messages(question_text: str, schema_text: str, conventions: str,
                   system_prompt: str = SYSTEM_PROMPT) -> list[dict[str, str]]:
    """Chat messages for one question: system rules + conventions + schema, then the question."""
    return [
        {"role": "system", "content": f"{system_prompt}\n\n{conventions}\n\n{schema_text}"},
        {"role": "user", "content": one_line(question_text)},
    ]
