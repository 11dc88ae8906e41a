"""Which conditions throw away a row whose chosen columns are NULL (SQL three-valued logic).

Several equivalence rules rest on one fact: a WHERE conjunct, or a conjunct in the ON of an inner
join, keeps a row only when it is TRUE, and NULL is not TRUE. A condition *rejects NULL* for a set
of columns when it is FALSE or NULL on every row where those columns are NULL. The test here is
syntactic and deliberately incomplete: it answers True only for forms whose NULL behaviour is fixed
by the SQL standard (strict operators), and False for anything it does not know (``COALESCE``,
``IS NULL``, ``IS DISTINCT FROM``, function calls, CASE…).
"""

from __future__ import annotations

from typing import Callable

from sqlglot import exp

from heron_pipeline.mutants.conditions import conjuncts

#: A predicate on a column reference: is this one of the columns assumed NULL?
Target = Callable[[exp.Column], bool]

#: Binary operators that are NULL when either operand is NULL.
_STRICT_BINARY = (exp.EQ, exp.NEQ, exp.LT, exp.LTE, exp.GT, exp.GTE, exp.Like, exp.ILike,
                  exp.Add, exp.Sub, exp.Mul, exp.Div, exp.DPipe)


def null_on_null(node: exp.Expression, target: Target) -> bool:
    """True when ``node`` evaluates to NULL whenever the target columns are NULL."""
    if isinstance(node, exp.Column):
        return target(node)
    if isinstance(node, (exp.Paren, exp.Cast, exp.Neg, exp.Not)):
        return null_on_null(node.this, target)
    if isinstance(node, exp.AtTimeZone):
        return null_on_null(node.this, target)
    if isinstance(node, _STRICT_BINARY):
        return null_on_null(node.this, target) or null_on_null(node.expression, target)
    if isinstance(node, (exp.In, exp.Between)):  # x IN (..) / x BETWEEN a AND b: NULL when x is NULL
        return null_on_null(node.this, target)
    return False


def rejects_null(condition: exp.Expression | None, target: Target) -> bool:
    """True when ``condition`` is never TRUE on a row whose target columns are NULL."""
    if condition is None:
        return False
    if isinstance(condition, exp.Paren):
        return rejects_null(condition.this, target)
    if isinstance(condition, exp.And):
        return rejects_null(condition.this, target) or rejects_null(condition.expression, target)
    if isinstance(condition, exp.Or):
        return rejects_null(condition.this, target) and rejects_null(condition.expression, target)
    if isinstance(condition, exp.Is):
        # col IS NOT NULL, col IS TRUE, col IS FALSE: FALSE on NULL. col IS NULL / IS NOT TRUE: TRUE on NULL.
        value = condition.expression
        if condition.args.get("negate"):
            return isinstance(value, exp.Null) and null_on_null(condition.this, target)
        return isinstance(value, exp.Boolean) and null_on_null(condition.this, target)
    negated = condition.this if isinstance(condition, exp.Not) else None
    while isinstance(negated, exp.Paren):
        negated = negated.this
    if isinstance(negated, exp.Is):
        inner = negated  # NOT (col IS NULL) is col IS NOT NULL; NOT (col IS TRUE) is TRUE on NULL
        return (not inner.args.get("negate") and isinstance(inner.expression, exp.Null)
                and null_on_null(inner.this, target))
    return null_on_null(condition, target)


def column_target(alias: str, name: str | None = None) -> Target:
    """Columns of ``alias`` (all of them, or only ``name``)."""
    return lambda column: column.table == alias and (name is None or column.name == name)


def select_rejects(select: exp.Select, alias: str, column: str, skip: exp.Expression | None = None) -> bool:
    """Does ``select``'s WHERE or an inner join's ON drop every row where ``alias.column`` is NULL?"""
    joins = select.args.get("joins") or []
    if any((j.side or "").upper() in ("RIGHT", "FULL") for j in joins):
        return False
    target = column_target(alias, column)
    where = select.args.get("where")
    if any(c is not skip and rejects_null(c, target) for c in conjuncts(where.this if where else None)):
        return True
    return any((j.side or "").upper() in ("", "INNER") and (j.kind or "").upper() in ("", "INNER")
               and any(rejects_null(c, target) for c in conjuncts(j.args.get("on"))) for j in joins)
