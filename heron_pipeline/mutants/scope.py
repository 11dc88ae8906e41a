"""Name resolution inside one SELECT, shared by the equivalence rules (below all of them)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from sqlglot import exp

if TYPE_CHECKING:
    from heron_pipeline.catalog.model import Catalog

Ref = tuple[str, str]  # (alias, column)


def tables_by_alias(select: exp.Select) -> dict[str, str]:
    """alias → ``schema.table`` for the base tables this SELECT itself reads (not its subqueries'
    and not CTE references, which have no schema)."""
    tables = {}
    for table in select.find_all(exp.Table):
        if table.find_ancestor(exp.Select) is select and table.db:
            tables[table.alias_or_name] = f"{table.db}.{table.name}"
    return tables


def column_ref(node: exp.Expression) -> Ref | None:
    """``a.c`` → ("a", "c"); None for anything but a qualified column."""
    if isinstance(node, exp.Column) and node.table:
        return node.table, node.name
    return None


def group_refs(select: exp.Select, input_names: set[str] = frozenset()) -> set[Ref] | None:
    """The group keys that are columns of the FROM tables. A bare name is an output alias only when
    no input column has that name (PostgreSQL prefers the input column)."""
    group = select.args.get("group")
    if group is None:
        return set()
    if any(group.args.get(key) for key in ("rollup", "cube", "grouping_sets")):
        return None
    projections = select.expressions
    by_alias = {p.alias: p.this for p in projections if isinstance(p, exp.Alias)}
    refs: set[Ref] = set()
    for key in group.expressions:
        if isinstance(key, exp.Literal) and not key.is_string and key.this.isdigit():
            index = int(key.this) - 1
            if 0 <= index < len(projections):
                key = projections[index]
                key = key.this if isinstance(key, exp.Alias) else key
        elif isinstance(key, exp.Column) and not key.table and key.name in by_alias \
                and key.name not in input_names:
            key = by_alias[key.name]
        ref = column_ref(key)
        if ref is not None:
            refs.add(ref)
    return refs


def input_columns(tables: dict[str, str], catalog: "Catalog") -> set[str]:
    """The names of every column of the base tables ``tables`` (alias → ``schema.table``) reads."""
    return {c.name for table in tables.values() for c in catalog.tables[table].columns}
