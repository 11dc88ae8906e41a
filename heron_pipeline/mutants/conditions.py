"""Conditions and what they are about: the shared vocabulary of the mutation operators.

A condition is split into its top-level AND terms (conjuncts); each term can be recognised as the
handling of one trap — a tenant equality, a soft-delete test, a status test, a currency filter, a
NOT NULL filter, a "first row per group" filter over ``row_number()``. The operators drop or bend
such a term, and :mod:`heron_pipeline.mutants.traps` names the trap whose handling that removes.
Everything here is syntax only (no catalog), so it holds whatever the tables are.
"""

from __future__ import annotations

from typing import Callable

from sqlglot import exp

#: Columns whose values are lifecycle states: the words a question's "active", "churned", "unpaid" map to.
STATUS_NAMES = frozenset({"status", "outcome", "stage", "state"})


def conjuncts(condition: exp.Expression | None) -> list[exp.Expression]:
    """The top-level AND terms of a condition (none for no condition)."""
    if condition is None:
        return []
    return list(condition.flatten()) if isinstance(condition, exp.And) else [condition]


def and_all(parts: list[exp.Expression]) -> exp.Expression | None:
    """The AND of ``parts`` (None for no part)."""
    if not parts:
        return None
    result = parts[0]
    for part in parts[1:]:
        result = exp.and_(result, part, copy=False)
    return result


def remove_conjuncts(holder: exp.Expression, key: str, keep: Callable[[exp.Expression], bool]) -> bool:
    """Rebuild ``holder.args[key]`` (a WHERE node or a join's ON) without the conjuncts ``keep`` rejects."""
    node = holder.args.get(key)
    if node is None:
        return False
    condition = node.this if isinstance(node, exp.Where) else node
    parts = conjuncts(condition)
    kept = [part for part in parts if keep(part)]
    if len(kept) == len(parts):
        return False
    rebuilt = and_all([part.copy() for part in kept])
    if isinstance(node, exp.Where):
        holder.set(key, exp.Where(this=rebuilt) if rebuilt is not None else None)
    else:
        holder.set(key, rebuilt if rebuilt is not None else exp.true())
    return True


def is_tenant_condition(node: exp.Expression) -> bool:
    """An equality with a ``tenant_id`` column on one side."""
    if not isinstance(node, exp.EQ):
        return False
    return any(isinstance(side, exp.Column) and side.name == "tenant_id" for side in (node.this, node.expression))


def is_soft_delete_condition(node: exp.Expression) -> bool:
    """``x.deleted_at IS [NOT] NULL``."""
    target = node.this if isinstance(node, exp.Not) else node
    return isinstance(target, exp.Is) and isinstance(target.this, exp.Column) and target.this.name == "deleted_at"


def is_status_column(node: exp.Expression) -> bool:
    return isinstance(node, exp.Column) and (node.name in STATUS_NAMES or node.name.endswith("_status"))


def _literal_list(node: exp.Expression) -> bool:
    return isinstance(node, exp.In) and bool(node.expressions) and all(
        isinstance(value, exp.Literal) for value in node.expressions)


def is_status_condition(node: exp.Expression) -> bool:
    """A status column compared with literal labels: ``=``, ``<>``, ``IN (…)``, ``NOT IN (…)``."""
    target = node.this if isinstance(node, exp.Not) else node
    if isinstance(target, (exp.EQ, exp.NEQ)):
        sides = (target.this, target.expression)
        return any(is_status_column(s) for s in sides) and any(isinstance(s, exp.Literal) for s in sides)
    return _literal_list(target) and is_status_column(target.this)


def status_value_list(node: exp.Expression) -> exp.In | None:
    """The ``IN`` node of ``status [NOT] IN ('a', 'b', …)`` with two or more labels, else None."""
    target = node.this if isinstance(node, exp.Not) else node
    if _literal_list(target) and is_status_column(target.this) and len(target.expressions) >= 2:
        return target
    return None


def is_currency_filter(node: exp.Expression) -> bool:
    """``x.currency_code = 'GBP'`` or ``x.currency_code IN ('GBP', …)``: one currency picked out."""
    if isinstance(node, exp.EQ):
        sides = (node.this, node.expression)
        return any(isinstance(s, exp.Column) and s.name == "currency_code" for s in sides) and any(
            isinstance(s, exp.Literal) and s.is_string for s in sides)
    return _literal_list(node) and isinstance(node.this, exp.Column) and node.this.name == "currency_code"


def not_null_column(node: exp.Expression) -> exp.Column | None:
    """The column of ``x.c IS NOT NULL`` (either spelling), else None."""
    if isinstance(node, exp.Is) and node.args.get("negate") and isinstance(node.expression, exp.Null):
        return node.this if isinstance(node.this, exp.Column) else None
    if isinstance(node, exp.Not) and isinstance(node.this, exp.Is) and isinstance(node.this.expression, exp.Null) \
            and not node.this.args.get("negate"):
        return node.this.this if isinstance(node.this.this, exp.Column) else None
    return None


def row_number_aliases(tree: exp.Expression) -> set[str]:
    """Output names of ``row_number() OVER (…)`` projections anywhere in the query."""
    names = set()
    for window in tree.find_all(exp.Window):
        if isinstance(window.this, exp.RowNumber) and isinstance(window.parent, exp.Alias):
            names.add(window.parent.alias)
    return names


def is_first_row_filter(node: exp.Expression) -> bool:
    """``x.rn = 1`` (or ``x.rn <= 1``) where ``rn`` is a ``row_number()`` output: the step that keeps one
    row per group, i.e. the de-duplication of a one-to-many join."""
    if not isinstance(node, (exp.EQ, exp.LTE)):
        return False
    column, value = node.this, node.expression
    if not (isinstance(column, exp.Column) and isinstance(value, exp.Literal) and value.this == "1"):
        return False
    return column.name in row_number_aliases(node.root())
