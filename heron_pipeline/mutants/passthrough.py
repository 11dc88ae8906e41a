"""not-null-implied: a dropped ``col IS NOT NULL`` whose rows something else drops anyway.

Dropping ``x.c IS NOT NULL`` from a WHERE only lets in rows where ``x.c`` is NULL. They never reach
the result when

- the same WHERE has another conjunct that rejects NULL ``x.c`` (``x.c >= …``, ``x.c = y.d``…), or
  an inner join of the same SELECT has such a conjunct in its ON; or
- the WHERE belongs to a CTE that passes rows through one for one (no aggregate, window,
  DISTINCT, LIMIT or GROUP BY) and outputs ``x.c`` bare, and every reference to the CTE rejects
  NULL in that output the same way (typically the inner join ``l.id = v.c``).

Only inner joins count, and no SELECT on the way may have a RIGHT or FULL join (those re-create
NULL-extended rows after the ON has run).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from sqlglot import exp

from heron_pipeline.mutants.nulls import select_rejects

if TYPE_CHECKING:
    from heron_pipeline.catalog.model import Catalog


def _not_null_test(condition: exp.Expression) -> exp.Column | None:
    if isinstance(condition, exp.Is) and condition.args.get("negate") and isinstance(condition.expression, exp.Null):
        return condition.this if isinstance(condition.this, exp.Column) and condition.this.table else None
    if isinstance(condition, exp.Not) and isinstance(condition.this, exp.Is) \
            and not condition.this.args.get("negate") and isinstance(condition.this.expression, exp.Null):
        inner = condition.this.this
        return inner if isinstance(inner, exp.Column) and inner.table else None
    return None


def _row_preserving(select: exp.Select) -> bool:
    if any(select.args.get(k) for k in ("group", "having", "distinct", "limit", "offset", "qualify")):
        return False
    for projection in select.expressions:
        if any(node.find_ancestor(exp.Select) is select for node in projection.find_all(exp.AggFunc, exp.Window)):
            return False
    return True


def redundant_not_null(removed: list[exp.Expression], catalog: "Catalog | None" = None) -> str | None:
    if len(removed) != 1:
        return None
    condition = removed[0]
    column = _not_null_test(condition)
    where = condition.parent
    while isinstance(where, (exp.And, exp.Paren)):
        where = where.parent
    if column is None or not isinstance(where, exp.Where) or not isinstance(where.parent, exp.Select):
        return None
    select = where.parent
    if select_rejects(select, column.table, column.name, skip=condition):
        return "not-null-implied: another condition of the same SELECT rejects NULL in that column"
    cte = select.parent
    if not isinstance(cte, exp.CTE) or not _row_preserving(select):
        return None
    with_ = cte.parent
    if isinstance(with_, exp.With) and with_.args.get("recursive"):
        return None
    output = next((p.alias_or_name for p in select.expressions
                   if (p.this if isinstance(p, exp.Alias) else p) == column), None)
    if output is None or any(isinstance(p, exp.Star) or (isinstance(p, exp.Column) and isinstance(p.this, exp.Star))
                             for p in select.expressions):
        return None
    references = [t for t in select.root().find_all(exp.Table) if not t.db and t.name == cte.alias]
    if not references:
        return None
    for reference in references:
        holder = reference.find_ancestor(exp.Select)
        if holder is None or holder is select or not select_rejects(holder, reference.alias_or_name, output):
            return None
    return "not-null-implied: the CTE passes the column through and every use of it rejects NULL"
