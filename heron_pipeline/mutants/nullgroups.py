"""null-group-dropped: an inner join turned LEFT inside a grouping CTE, whose extra groups die later.

Turning ``JOIN x`` into ``LEFT JOIN x`` keeps every row the inner join made and adds rows whose
columns of ``x`` are all NULL. When the CTE groups by a NOT NULL column ``x.k`` (output bare as
``o``), those extra rows fall only into new groups with ``o`` NULL, and every old group keeps
exactly its rows and aggregates. The result is unchanged when each use of the CTE drops rows with
``o`` NULL before they can touch other rows:

- its SELECT rejects NULL ``o`` in the WHERE or an inner join's ON (applied before grouping and
  windows); or
- it is a CTE reading only this one, row for row (no GROUP BY, aggregate, DISTINCT, LIMIT), whose
  windows all PARTITION BY a NULL-only column (so the new rows sit in partitions of their own), and
  that passes the column through (bare or by ``alias.*``) to uses that satisfy the same test.

The grouping CTE itself may have no window, LIMIT or OFFSET (they would see the new groups).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from sqlglot import exp

from heron_pipeline.mutants.nulls import select_rejects
from heron_pipeline.mutants.scope import group_refs, input_columns

if TYPE_CHECKING:
    from heron_pipeline.catalog.model import Catalog


def _tables(select: exp.Select) -> dict[str, str] | None:
    source = select.args.get("from") or select.args.get("from_")
    nodes = [source.this if source is not None else None] + [j.this for j in select.args.get("joins") or []]
    tables = {}
    for node in nodes:
        if not isinstance(node, exp.Table):
            return None
        tables[node.alias_or_name] = f"{node.db}.{node.name}" if node.db else node.name
    return tables


def null_group_dropped(join: exp.Join, catalog: "Catalog") -> str | None:
    select = join.parent
    if not isinstance(select, exp.Select) or not isinstance(join.this, exp.Table) or not join.this.db:
        return None
    cte = select.parent
    if not isinstance(cte, exp.CTE) or select.args.get("group") is None or select.find(exp.Window) \
            or any(select.args.get(k) for k in ("limit", "offset", "qualify", "distinct")):
        return None
    alias = join.this.alias_or_name
    table = catalog.tables.get(f"{join.this.db}.{join.this.name}")
    tables = _tables(select)
    if table is None or tables is None or any(t not in catalog.tables for t in tables.values()):
        return None
    keys = group_refs(select, input_columns(tables, catalog)) or set()
    not_null = {name for a, name in keys if a == alias and table.has_column(name) and not table.column(name).nullable}
    outputs = {p.alias_or_name for p in select.expressions
               if isinstance(p.this if isinstance(p, exp.Alias) else p, exp.Column)
               and (p.this if isinstance(p, exp.Alias) else p).table == alias
               and (p.this if isinstance(p, exp.Alias) else p).name in not_null}
    if outputs and _uses_drop_nulls(select.root(), cte.alias, outputs, depth=0):
        return "null-group-dropped: the NULL-extended rows form groups of their own that every use drops"
    return None


def _uses_drop_nulls(root: exp.Expression, name: str, outputs: set[str], *, depth: int) -> bool:
    """Does every reference to CTE ``name`` drop rows whose ``outputs`` are NULL before they matter?"""
    references = [t for t in root.find_all(exp.Table) if not t.db and t.name == name]
    if not references or depth > 4:
        return False
    for reference in references:
        holder = reference.find_ancestor(exp.Select)
        if holder is None:
            return False
        alias = reference.alias_or_name
        if any(select_rejects(holder, alias, output) for output in outputs):
            continue
        if not _passes_through(holder, reference, alias, outputs):
            return False
        passed = _passed_names(holder, alias, outputs)
        if not passed or not _uses_drop_nulls(root, holder.parent.alias, passed, depth=depth + 1):
            return False
    return True


def _passes_through(holder: exp.Select, reference: exp.Table, alias: str, outputs: set[str]) -> bool:
    if not isinstance(holder.parent, exp.CTE) or holder.args.get("joins"):
        return False
    source = holder.args.get("from") or holder.args.get("from_")
    if source is None or source.this is not reference:
        return False
    if any(holder.args.get(k) for k in ("group", "having", "distinct", "limit", "offset", "qualify")):
        return False
    for window in holder.find_all(exp.Window):
        partition = window.args.get("partition_by") or []
        if not any(isinstance(p, exp.Column) and p.table == alias and p.name in outputs for p in partition):
            return False
    return not any(isinstance(node, exp.AggFunc) and node.find_ancestor(exp.Window) is None
                   for projection in holder.expressions for node in projection.find_all(exp.AggFunc))


def _passed_names(holder: exp.Select, alias: str, outputs: set[str]) -> set[str]:
    names = set()
    for projection in holder.expressions:
        node = projection.this if isinstance(projection, exp.Alias) else projection
        if isinstance(node, exp.Column) and isinstance(node.this, exp.Star) and node.table in ("", alias):
            names |= outputs
        elif isinstance(node, exp.Star):
            names |= outputs
        elif isinstance(node, exp.Column) and node.table == alias and node.name in outputs:
            names.add(projection.alias_or_name)
    return names
