"""Name resolution inside one SELECT, shared by the equivalence rules."""

from __future__ import annotations

from sqlglot import exp


def tables_by_alias(select: exp.Select) -> dict[str, str]:
    """alias → ``schema.table`` for the base tables this SELECT itself reads (not its subqueries'
    and not CTE references, which have no schema)."""
    tables = {}
    for table in select.find_all(exp.Table):
        if table.find_ancestor(exp.Select) is select and table.db:
            tables[table.alias_or_name] = f"{table.db}.{table.name}"
    return tables
