"""Which trap's handling a mutant removes: the link between a question's trap tags and its mutants.

A trap tag is a claim that a tool which mishandles the trap gets a different answer. The claim is
proved by a mutant of the gold that removes exactly that handling, is not equivalent by contract,
and returns another answer on some audited state (the audit rule ``trap-live``). This table says
which mutants count for which trap:

================  ===========================================================================
tenant-isolation  drop-tenant-filter (a tenant equality dropped from a WHERE or a join's ON)
soft-delete       drop-soft-delete-filter; drop-where-conjunct of a ``deleted_at`` test
nullable-join     join-side LEFT → inner (rows without a match are lost)
null-aggregate    ``count(x)`` → ``count(*)``; null-as-zero (``avg(coalesce(x, 0))``); a WHERE's
                  ``x IS NOT NULL`` dropped where an aggregate of that SELECT reads ``x``
duplicate-join    drop-distinct; DISTINCT dropped in ``count(DISTINCT …)``; exists-to-join;
                  the ``rn = 1`` filter over ``row_number()`` dropped (ON or WHERE)
currency          drop-fx-conversion; merge-currencies; a WHERE's currency filter dropped
time-bucket       shift-bucket-zone; shift-week-start; a spine's LEFT JOIN → inner (empty
                  buckets vanish)
status-semantics  a status test dropped (WHERE, FILTER, ON); narrow-status-set
================  ===========================================================================
"""

from __future__ import annotations

from sqlglot import exp

from heron_pipeline.mutants.conditions import (is_currency_filter, is_first_row_filter, is_soft_delete_condition,
                                               is_status_condition, is_tenant_condition, not_null_column)

TENANT, SOFT_DELETE, NULLABLE_JOIN, CURRENCY = "tenant-isolation", "soft-delete", "nullable-join", "currency"
TIME_BUCKET, STATUS, DUPLICATE_JOIN, NULL_AGGREGATE = "time-bucket", "status-semantics", "duplicate-join", \
    "null-aggregate"

#: Operators that always remove one trap's handling, whatever their subject.
_BY_OPERATOR = {
    "drop-tenant-filter": TENANT,
    "drop-soft-delete-filter": SOFT_DELETE,
    "drop-fx-conversion": CURRENCY,
    "merge-currencies": CURRENCY,
    "shift-bucket-zone": TIME_BUCKET,
    "shift-week-start": TIME_BUCKET,
    "drop-status-condition": STATUS,
    "narrow-status-set": STATUS,
    "exists-to-join": DUPLICATE_JOIN,
    "drop-first-row-filter": DUPLICATE_JOIN,
    "drop-distinct": DUPLICATE_JOIN,
    "null-as-zero": NULL_AGGREGATE,
}


def traps_removed(operator: str, node: exp.Expression, subject: object) -> tuple[str, ...]:
    """The traps whose handling the mutant made by ``operator`` at ``node`` (its ``subject``) removes."""
    if operator in _BY_OPERATOR:
        return (_BY_OPERATOR[operator],)
    if operator == "drop-where-conjunct" and isinstance(subject, list) and subject:
        return _conjunct_traps(subject[0])
    if operator == "join-side" and isinstance(node, exp.Join) and (node.side or "").upper() == "LEFT":
        return (NULLABLE_JOIN, TIME_BUCKET) if _from_spine(node) else (NULLABLE_JOIN,)
    if operator == "swap-aggregate" and isinstance(node, exp.Count) and node.this is not None:
        if isinstance(node.this, exp.Distinct):
            return (DUPLICATE_JOIN,)
        if not isinstance(node.this, exp.Star):
            return (NULL_AGGREGATE,)
    return ()


def _conjunct_traps(part: exp.Expression) -> tuple[str, ...]:
    found = []
    if is_tenant_condition(part):
        found.append(TENANT)
    if is_soft_delete_condition(part):
        found.append(SOFT_DELETE)
    if is_status_condition(part):
        found.append(STATUS)
    if is_currency_filter(part):
        found.append(CURRENCY)
    if is_first_row_filter(part):
        found.append(DUPLICATE_JOIN)
    column = not_null_column(part)
    if column is not None and _aggregated(column, part.find_ancestor(exp.Select)):
        found.append(NULL_AGGREGATE)
    return tuple(found)


def _aggregated(column: exp.Column, select: exp.Select | None) -> bool:
    """Does an aggregate (or its FILTER) of ``select`` read ``column``?"""
    if select is None:
        return False
    for aggregate in select.find_all(exp.AggFunc):
        if aggregate.find_ancestor(exp.Select) is not select:
            continue
        holder = aggregate.parent if isinstance(aggregate.parent, exp.Filter) else aggregate
        if any(c.name == column.name and c.table == column.table for c in holder.find_all(exp.Column)):
            return True
    return False


def _from_spine(join: exp.Join) -> bool:
    """Is the SELECT of this LEFT JOIN read from a ``generate_series`` calendar (a CTE or a call)?"""
    select = join.parent
    source = select.args.get("from") or select.args.get("from_") if isinstance(select, exp.Select) else None
    if source is None:
        return False
    if source.this.find(exp.GenerateSeries, exp.ExplodingGenerateSeries) is not None:
        return True
    if isinstance(source.this, exp.Table) and not source.this.db:
        cte = next((c for c in select.root().find_all(exp.CTE) if c.alias == source.this.name), None)
        return cte is not None and cte.this.find(exp.GenerateSeries, exp.ExplodingGenerateSeries) is not None
    return False
