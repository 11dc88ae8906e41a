"""Operators that undo the handling of a trap the general operators cannot reach.

The general operators (:mod:`heron_pipeline.mutants.generate`) drop WHERE terms, flip comparisons
and turn joins; they cannot express "forgot the exchange rate", "bucketed in local time" or "joined
the events instead of asking whether one exists". Each operator here is one such mistake, made as
a tool would make it, and keeps the result's columns where it can so that a kill says the values
differ, not only the shape:

=====================  ==========  ==========================================================
drop-fx-conversion     currency    ``x * fx.rate_to_usd`` → ``x`` (a column of
                                   ``tenancy.exchange_rates``): amounts added across currencies
merge-currencies       currency    ``currency_code`` dropped from GROUP BY and the SELECT list
shift-bucket-zone      time-bucket ``date_trunc(u, ts [AT TIME ZONE 'UTC'])`` on a timestamptz
                                   evaluated in ``America/New_York`` instead of UTC
shift-week-start       time-bucket ISO (Monday) weeks → weeks starting on Sunday
drop-status-condition  status      a status test dropped from an aggregate's FILTER or a join's ON
                                   (the WHERE ones come from drop-where-conjunct)
narrow-status-set      status      one label dropped from ``status [NOT] IN ('a', 'b', …)``
exists-to-join         duplicate   ``EXISTS (SELECT 1 FROM t e WHERE c)`` → ``LEFT JOIN t e ON c``
                                   (in a WHERE: an inner join): one row per match, not per row
drop-first-row-filter  duplicate   ``l.rn = 1`` over ``row_number()`` dropped from a join's ON
null-as-zero           null-agg.   ``avg(x)`` → ``avg(coalesce(x, 0))``: NULLs averaged as zeros
                                   (only where ``x`` may be NULL by the catalog)
=====================  ==========  ==========================================================

Each yields ``(description, mutate, subject)`` like the general operators; ``mutate`` edits the
node at the same walk position of a fresh copy of the tree.
"""

from __future__ import annotations

from typing import Callable, Iterator

from sqlglot import exp

from heron_pipeline.mutants.conditions import (and_all, conjuncts, is_first_row_filter, is_status_condition,
                                               status_value_list)
from heron_pipeline.mutants.scope import tables_by_alias

DIALECT = "postgres"
#: The zone a tool that forgets "UTC" buckets in: a server or laptop on US Eastern time (UTC−5/−4),
#: far enough from UTC to move the first hours of every month, week and quarter.
WRONG_ZONE = "America/New_York"
EXCHANGE_RATES = "tenancy.exchange_rates"

Yield = Iterator[tuple[str, Callable[[exp.Expression], bool], object]]


def _sql(node: exp.Expression) -> str:
    return node.sql(dialect=DIALECT)


def _table_of(column: exp.Column) -> str | None:
    select = column.find_ancestor(exp.Select)
    return tables_by_alias(select).get(column.table) if select is not None and column.table else None


def drop_fx_conversion(node: exp.Expression) -> Yield:
    if isinstance(node, (exp.Mul, exp.Div)):
        for keep, rate in ((node.this, node.expression), (node.expression, node.this)):
            if isinstance(rate, exp.Column) and _table_of(rate) == EXCHANGE_RATES and not (
                    isinstance(node, exp.Div) and rate is node.this):
                def mutate(target: exp.Expression, left: bool = keep is node.this) -> bool:
                    target.replace((target.this if left else target.expression).copy())
                    return True
                yield f"drop the exchange-rate conversion `{_sql(node)}`", mutate, node
                return


def _is_currency_key(node: exp.Expression) -> bool:
    return isinstance(node, exp.Column) and node.name == "currency_code"


def merge_currencies(node: exp.Expression) -> Yield:
    if not isinstance(node, exp.Select) or node.args.get("group") is None:
        return
    keys = node.args["group"].expressions
    if not any(_is_currency_key(k) for k in keys):
        return
    positional = any(isinstance(k, exp.Literal) for k in keys) or any(
        isinstance(o.this, exp.Literal) for o in (node.args.get("order").expressions if node.args.get("order") else []))
    if positional:
        return  # removing a projection would renumber GROUP BY 1 / ORDER BY 2

    def mutate(target: exp.Expression) -> bool:
        group = target.args["group"]
        kept = [k.copy() for k in group.expressions if not _is_currency_key(k)]
        names = {p.alias_or_name for p in target.expressions if _is_currency_key(p.unalias())}
        target.set("expressions", [p.copy() for p in target.expressions if not _is_currency_key(p.unalias())])
        target.set("group", exp.Group(expressions=kept) if kept else None)
        order = target.args.get("order")
        if order is not None:
            items = [o.copy() for o in order.expressions
                     if not (_is_currency_key(o.this) or (isinstance(o.this, exp.Column) and not o.this.table
                                                          and o.this.name in names))]
            target.set("order", exp.Order(expressions=items) if items else None)
        return bool(target.expressions)
    yield "add amounts across currencies (currency_code out of GROUP BY and SELECT)", mutate, node


def _column_kind(column: exp.Column, catalog) -> str | None:
    """The catalog's type kind of a column of a base table in scope ("timestamptz", "date", …)."""
    table = _table_of(column)
    if catalog is None or table is None or table not in catalog.tables or not catalog.tables[table].has_column(
            column.name):
        return None
    return catalog.tables[table].column(column.name).kind


def _bucket_unit(node: exp.Expression) -> str | None:
    unit = node.args.get("unit")
    return unit.name.lower() if unit is not None else None


def shift_bucket_zone(catalog) -> Callable[[exp.Expression], Yield]:
    def operator(node: exp.Expression) -> Yield:
        if not isinstance(node, (exp.TimestampTrunc, exp.DateTrunc)):
            return
        value = node.this
        if isinstance(value, exp.AtTimeZone) and isinstance(value.args.get("zone"), exp.Literal) \
                and value.args["zone"].this.upper() == "UTC":
            def mutate(target: exp.Expression) -> bool:
                target.this.set("zone", exp.Literal.string(WRONG_ZONE))
                return True
        elif isinstance(value, exp.Column) and _column_kind(value, catalog) == "timestamptz":
            def mutate(target: exp.Expression) -> bool:
                target.set("this", exp.AtTimeZone(this=target.this.copy(), zone=exp.Literal.string(WRONG_ZONE)))
                return True
        else:
            return
        yield f"bucket `{_sql(node)}` in {WRONG_ZONE} instead of UTC", mutate, node
    return operator


def shift_week_start(node: exp.Expression) -> Yield:
    if isinstance(node, (exp.TimestampTrunc, exp.DateTrunc)) and _bucket_unit(node) == "week":
        def mutate(target: exp.Expression) -> bool:
            day = exp.Interval(this=exp.Literal.string("1 day"))
            shifted = target.copy()
            shifted.set("this", exp.Add(this=exp.Paren(this=target.this.copy()), expression=day.copy()))
            target.replace(exp.Paren(this=exp.Sub(this=shifted, expression=day)))
            return True
        yield f"weeks start on Sunday, not Monday, in `{_sql(node)}`", mutate, node


def _without(condition: exp.Expression, index: int) -> exp.Expression | None:
    return and_all([p.copy() for i, p in enumerate(conjuncts(condition)) if i != index])


def drop_status_condition(node: exp.Expression) -> Yield:
    """Status tests in an aggregate's FILTER and in a join's ON (the WHERE's are drop-where-conjunct's)."""
    if isinstance(node, exp.Filter) and isinstance(node.expression, exp.Where):
        for index, part in enumerate(conjuncts(node.expression.this)):
            if is_status_condition(part):
                def mutate(target: exp.Expression, index: int = index) -> bool:
                    rest = _without(target.expression.this, index)
                    if rest is None:
                        target.replace(target.this.copy())
                    else:
                        target.set("expression", exp.Where(this=rest))
                    return True
                yield f"drop the status test `{_sql(part)}` in FILTER", mutate, [part]
    if isinstance(node, exp.Join) and node.args.get("on") is not None:
        for index, part in enumerate(conjuncts(node.args["on"])):
            if is_status_condition(part):
                def mutate(target: exp.Expression, index: int = index) -> bool:
                    rest = _without(target.args["on"], index)
                    target.set("on", rest if rest is not None else exp.true())
                    return True
                yield f"drop the status test `{_sql(part)}` in ON of {_sql(node.this)}", mutate, [part]


def narrow_status_set(node: exp.Expression) -> Yield:
    if not isinstance(node, exp.In) or status_value_list(node) is None:
        return
    condition = node.parent if isinstance(node.parent, exp.Not) else node
    for index, label in enumerate(node.expressions):
        def mutate(target: exp.Expression, index: int = index) -> bool:
            target.set("expressions", [v.copy() for i, v in enumerate(target.expressions) if i != index])
            return True
        yield f"leave {_sql(label)} out of `{_sql(condition)}`", mutate, [condition]


def _semi_join(exists: exp.Exists) -> tuple[exp.Table, exp.Expression] | None:
    """The one table and the condition of ``EXISTS (SELECT … FROM t AS e WHERE c)``, if that simple."""
    inner = exists.this
    if not isinstance(inner, exp.Select) or any(inner.args.get(k) for k in ("joins", "group", "having", "limit")):
        return None
    source = inner.args.get("from") or inner.args.get("from_")
    where = inner.args.get("where")
    if source is None or not isinstance(source.this, exp.Table) or not source.this.db or where is None:
        return None
    return source.this, where.this


def exists_to_join(catalog) -> Callable[[exp.Expression], Yield]:
    def operator(node: exp.Expression) -> Yield:
        if not isinstance(node, exp.Exists) or _semi_join(node) is None:
            return
        select = node.find_ancestor(exp.Select)
        if select is None or (select.args.get("from") or select.args.get("from_")) is None:
            return
        table, _ = _semi_join(node)
        alias = table.alias_or_name
        if alias in tables_by_alias(select) or any(
                j.this.alias_or_name == alias for j in select.args.get("joins") or []):
            return
        qualified = f"{table.db}.{table.name}"
        key = None
        if catalog is not None and qualified in catalog.tables and catalog.tables[qualified].primary_key:
            key = catalog.tables[qualified].primary_key[-1]
        where = select.args.get("where")
        in_where = where is not None and any(part is node for part in conjuncts(where.this))
        in_projection = any(p is node or (isinstance(p, exp.Alias) and p.this is node) for p in select.expressions)
        if not (in_where or (in_projection and key)):
            return

        def mutate(target: exp.Expression) -> bool:
            outer = target.find_ancestor(exp.Select)
            found, condition = _semi_join(target)
            join = exp.Join(this=found.copy(), on=condition.copy(), side=None if in_where else "LEFT")
            outer.set("joins", [*(outer.args.get("joins") or []), join])
            if in_where:
                rest = and_all([p.copy() for p in conjuncts(outer.args["where"].this) if p is not target])
                outer.set("where", exp.Where(this=rest) if rest is not None else None)
            else:
                target.replace(exp.Paren(this=exp.Is(this=exp.column(key, table=alias), expression=exp.Null(),
                                                     negate=True)))
            return True
        yield f"join {qualified} instead of EXISTS (one row per match)", mutate, node
    return operator


def drop_first_row_filter(node: exp.Expression) -> Yield:
    if isinstance(node, exp.Join) and node.args.get("on") is not None:
        for index, part in enumerate(conjuncts(node.args["on"])):
            if is_first_row_filter(part):
                def mutate(target: exp.Expression, index: int = index) -> bool:
                    rest = _without(target.args["on"], index)
                    target.set("on", rest if rest is not None else exp.true())
                    return True
                yield f"drop the first-row filter `{_sql(part)}` in ON of {_sql(node.this)}", mutate, [part]


def _may_be_null(value: exp.Expression, catalog) -> bool:
    """Can ``value`` be NULL, as far as the catalog says? True when it reads a nullable column of a
    base table, or any column of a LEFT-joined table; unknown sources (CTE columns) count as not."""
    for column in value.find_all(exp.Column):
        select = column.find_ancestor(exp.Select)
        if select is None or not column.table:
            continue
        left = {j.this.alias_or_name for j in select.args.get("joins") or [] if (j.side or "").upper() == "LEFT"}
        if column.table in left:
            return True
        table = tables_by_alias(select).get(column.table)
        if catalog is not None and table in catalog.tables and catalog.tables[table].has_column(column.name) \
                and catalog.tables[table].column(column.name).nullable:
            return True
    return False


def null_as_zero(catalog) -> Callable[[exp.Expression], Yield]:
    """Only where the averaged value may be NULL: on a value that never is, coalesce changes nothing
    and the mutant would be an equivalent, not a near miss."""
    def operator(node: exp.Expression) -> Yield:
        if isinstance(node, exp.Avg) and not isinstance(node.this, (exp.Literal, exp.Coalesce, exp.Distinct)) \
                and _may_be_null(node.this, catalog):
            def mutate(target: exp.Expression) -> bool:
                target.set("this", exp.Coalesce(this=target.this.copy(), expressions=[exp.Literal.number(0)]))
                return True
            yield f"average NULLs as zeros in `{_sql(node)}`", mutate, node
    return operator
