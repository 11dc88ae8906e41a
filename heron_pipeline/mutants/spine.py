"""series-spine: a date bound that only repeats the range of a generate_series spine.

Month-series questions count rows per month in a CTE (``date_trunc('month', col)::date AS month …
GROUP BY month``) and LEFT JOIN that CTE from a spine CTE ``generate_series(DATE A, DATE B,
INTERVAL '1 month')::date``. Dropping ``col >= L`` (or ``col < U``) from the counting CTE's WHERE
adds rows with ``col < L`` (``col >= U``); when L (U) is the first instant of a month, their month
bucket is before L (at or after U), so they form new groups of their own and leave every other
group as it was. When every spine month lies in [L, U), those new groups match no spine row, and
a LEFT JOIN drops unmatched rows of its right side: the result is unchanged.

Conditions checked: the bound is on the bucketed column with a month-aligned literal; the CTE
groups by the bucket and has no window, LIMIT or OFFSET (which could let the new groups change
the others); every reference to the CTE is the right side of a LEFT JOIN whose whole ON is the
bucket equal to the spine column, in a SELECT without RIGHT/FULL joins. Truncation happens in
UTC: either ``AT TIME ZONE 'UTC'`` or the session time zone, pinned to UTC for every connection
(heron_pipeline/database/server.py SESSION_OPTIONS), as is the date literal's cast.
"""

from __future__ import annotations

import datetime as dt

from sqlglot import exp

from heron_pipeline.mutants.conditions import conjuncts
from heron_pipeline.mutants.window import literal_instant


def _date(node: exp.Expression) -> dt.date | None:
    """A date literal (``DATE '…'``, or a timestamp literal at UTC midnight)."""
    instant = literal_instant(node)
    if instant is None or instant.utcoffset() != dt.timedelta(0) or instant.time() != dt.time(0):
        return None
    return instant.date()


def _bucketed_column(node: exp.Expression) -> exp.Column | None:
    """``CAST(date_trunc('month', col [AT TIME ZONE 'UTC']) AS DATE)`` → col."""
    if not (isinstance(node, exp.Cast) and node.to.is_type("date")):
        return None
    trunc = node.this
    if not isinstance(trunc, (exp.TimestampTrunc, exp.DateTrunc)) or trunc.text("unit").upper() != "MONTH":
        return None
    inner = trunc.this
    if isinstance(inner, exp.AtTimeZone):
        zone = inner.args.get("zone")
        if not (isinstance(zone, exp.Literal) and zone.this.upper() == "UTC"):
            return None
        inner = inner.this
    return inner if isinstance(inner, exp.Column) and inner.table else None


def _spine_range(cte: exp.CTE) -> tuple[str, dt.date, dt.date] | None:
    """A monthly ``generate_series(A, B, INTERVAL '1 month')::date AS x`` CTE → (x, A, B)."""
    body = cte.this
    if not isinstance(body, exp.Select) or len(body.expressions) != 1 or body.args.get("from") \
            or body.args.get("from_") or body.args.get("where"):
        return None
    projection = body.expressions[0]
    node = projection.this if isinstance(projection, exp.Alias) else projection
    if isinstance(node, exp.Cast) and node.to.is_type("date"):
        node = node.this
    if not isinstance(node, (exp.GenerateSeries, exp.ExplodingGenerateSeries)):
        return None
    step = node.args.get("step")
    if not (isinstance(step, exp.Interval) and step.this is not None and step.this.name == "1"
            and step.text("unit").upper() == "MONTH"):
        return None
    start, end = _date(node.args.get("start")), _date(node.args.get("end"))
    if start is None or end is None or not projection.alias_or_name:
        return None
    return projection.alias_or_name, start, end


def _cte(root: exp.Expression, name: str) -> exp.CTE | None:
    return next((c for c in root.find_all(exp.CTE) if c.alias == name), None)


def spine_bound(removed: list[exp.Expression]) -> str | None:
    if len(removed) != 1:
        return None
    condition = removed[0]
    if isinstance(condition, (exp.GTE, exp.LT)) and isinstance(condition.this, exp.Column):
        column, bound, lower = condition.this, _date(condition.expression), isinstance(condition, exp.GTE)
    elif isinstance(condition, (exp.LTE, exp.GT)) and isinstance(condition.expression, exp.Column):
        column, bound, lower = condition.expression, _date(condition.this), isinstance(condition, exp.LTE)
    else:
        return None
    if bound is None or bound.day != 1:
        return None
    select = condition.find_ancestor(exp.Select)
    cte = select.parent if select is not None else None
    if not isinstance(cte, exp.CTE) or select.args.get("where") is None \
            or not any(c is condition for c in conjuncts(select.args["where"].this)):
        return None
    if any(select.args.get(k) for k in ("limit", "offset", "qualify")) or select.find(exp.Window):
        return None
    bucket = next((p for p in select.expressions if isinstance(p, exp.Alias) and _bucketed_column(p.this) == column),
                  None)
    group = select.args.get("group")
    if bucket is None or group is None:
        return None
    position = select.expressions.index(bucket) + 1
    if not any((isinstance(k, exp.Literal) and k.this == str(position)) or k == bucket.this
               or (isinstance(k, exp.Column) and not k.table and k.name == bucket.alias) for k in group.expressions):
        return None
    references = [t for t in select.root().find_all(exp.Table) if not t.db and t.name == cte.alias]
    if not references or not all(_joined_from_spine(r, bucket.alias, bound, lower) for r in references):
        return None
    return "series-spine: rows outside the bound fall in months outside the LEFT-joined month series"


def _joined_from_spine(reference: exp.Table, key: str, bound: dt.date, lower: bool) -> bool:
    join = reference.parent
    if not (isinstance(join, exp.Join) and (join.side or "").upper() == "LEFT"):
        return False
    holder = join.parent
    if not isinstance(holder, exp.Select) or any((j.side or "").upper() in ("RIGHT", "FULL")
                                                 for j in holder.args.get("joins") or []):
        return False
    on = join.args.get("on")
    if not (isinstance(on, exp.EQ) and isinstance(on.this, exp.Column) and isinstance(on.expression, exp.Column)):
        return False
    alias = reference.alias_or_name
    sides = [on.this, on.expression]
    mine = [s for s in sides if s.table == alias]
    other = [s for s in sides if s.table != alias]
    if len(mine) != 1 or len(other) != 1 or mine[0].name != key:
        return False
    spine_ref = next((t for t in holder.find_all(exp.Table) if t.find_ancestor(exp.Select) is holder
                      and t.alias_or_name == other[0].table and not t.db), None)
    spine = _cte(holder.root(), spine_ref.name) if spine_ref is not None else None
    found = _spine_range(spine) if spine is not None else None
    if found is None or found[0] != other[0].name:
        return False
    _, start, end = found
    return start >= bound if lower else end < bound
