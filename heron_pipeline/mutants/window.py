"""window-start and window-end: a bound at the edge of the data window removes nothing.

**window-end**: an upper bound at or after the end of the as-of date removes nothing from a column
the generator keeps at or before the as-of time (``seeding.values.may_pass_as_of``: every time
column except planned dates and a few late events, checked on a built state by
tests/seeding/test_profile_shapes.py).

**window-start**: a lower bound at or before the first day of the data window removes nothing.

Every tenant-scoped row is created inside the window (heron_pipeline/seeding/rows.py
``row_times``: the tenant's sign-up day or later, and the window starts 2023-01-01, docs/DATA.md).
A time column keeps that floor unless the generator derives it *backwards*: from another column
minus a delay (a CHECK ``col <= other`` / ``col < other`` read as a relation, seeding/checks.py
``read_checks``), by a negative ``delay_days`` after another column, or from an explicit value in
the profile (``value``, ``pin``, ``fixed_rows``). So ``col >= L`` with L at or before the window
start is a no-op when the column is time-typed, on a tenant-scoped table, and derived only
forwards. Global reference tables carry older dates (launch dates, tax rates since 1973) and are
never covered.
"""

from __future__ import annotations

import datetime as dt
from typing import TYPE_CHECKING

from sqlglot import exp

from heron_pipeline.mutants.scope import tables_by_alias

if TYPE_CHECKING:
    from heron_pipeline.catalog.model import Catalog

WINDOW_START = dt.datetime(2023, 1, 1, tzinfo=dt.timezone.utc)
#: The first instant after the data window.
WINDOW_END = dt.datetime(2026, 7, 1, tzinfo=dt.timezone.utc)


def literal_instant(node: exp.Expression) -> dt.datetime | None:
    """The instant a date/timestamp literal (or a CAST of a string literal) denotes, in UTC."""
    if isinstance(node, exp.Cast) and isinstance(node.this, exp.Literal) and node.this.is_string:
        text = node.this.this
    elif isinstance(node, exp.Literal) and node.is_string:
        text = node.this
    else:
        return None
    try:
        value = dt.datetime.fromisoformat(text.replace(" ", "T", 1) if len(text) > 10 else text)
    except ValueError:
        return None
    return value if value.tzinfo else value.replace(tzinfo=dt.timezone.utc)


def dropped_bound(removed: list[exp.Expression], upper: bool) -> tuple[exp.Column, dt.datetime, bool] | None:
    """(column, instant, strict) of one dropped ``column op literal`` bound, either side written
    first; ``upper`` picks ``col < / <= L`` (or ``L > / >= col``), else ``col > / >= L``."""
    if len(removed) != 1:
        return None
    condition = removed[0]
    below, above = (exp.LT, exp.LTE), (exp.GT, exp.GTE)
    column_left, column_right = (below, above) if upper else (above, below)
    if isinstance(condition, column_left) and isinstance(condition.this, exp.Column):
        column, bound = condition.this, literal_instant(condition.expression)
    elif isinstance(condition, column_right) and isinstance(condition.expression, exp.Column):
        column, bound = condition.expression, literal_instant(condition.this)
    else:
        return None
    return None if bound is None else (column, bound, isinstance(condition, (exp.LT, exp.GT)))


def window_end(removed: list[exp.Expression]) -> str | None:
    from heron_pipeline.seeding.values import may_pass_as_of

    found = dropped_bound(removed, upper=True)
    if found is None:
        return None
    column, bound, strict = found
    if may_pass_as_of(column.name.lower()):
        return None  # expiry and due dates (and a few late events) do lie after the as-of date
    if bound >= WINDOW_END or (not strict and bound >= WINDOW_END - dt.timedelta(seconds=1)):
        return "window-end: no value lies after the as-of date (docs/DATA.md)"
    return None


def floored_at_window_start(catalog: "Catalog", table_name: str, column: str, *, depth: int = 0) -> bool:
    """True when the generator never gives ``table.column`` a value before the window start."""
    from heron_pipeline.mutants.datacontract import profiles_for
    from heron_pipeline.seeding.checks import read_checks

    table = catalog.tables.get(table_name)
    if table is None or depth > 6 or not table.is_tenant_scoped or not table.has_column(column):
        return False
    if table.column(column).kind not in ("timestamptz", "date") or table.foreign_key_of(column) is not None:
        return False
    profile = profiles_for(catalog).get(table_name)
    rule = profile.rule(column) if profile is not None else {}
    if any(key in rule for key in ("value", "pin", "difference")):
        return False
    if profile is not None and any(column in row for row in (profile.fixed_rows or [])):
        return False
    _, relations = read_checks(table)
    for relation in relations:
        if relation.column != column:
            continue
        if relation.op in ("<", "<="):
            return False  # derived as other − delay
        if not floored_at_window_start(catalog, table_name, relation.other, depth=depth + 1):
            return False
    if "after" in rule:
        low = rule.get("delay_days", (0.0, 0.0))[0]
        if float(low) < 0 or not floored_at_window_start(catalog, table_name, rule["after"], depth=depth + 1):
            return False
    return True


def window_start(removed: list[exp.Expression], catalog: "Catalog") -> str | None:
    found = dropped_bound(removed, upper=False)
    if found is None:
        return None
    column, bound, strict = found
    if bound > WINDOW_START or (strict and bound >= WINDOW_START):
        return None
    condition = removed[0]
    select = condition.find_ancestor(exp.Select)
    table = tables_by_alias(select).get(column.table) if select is not None and column.table else None
    if table is None or not floored_at_window_start(catalog, table, column.name):
        return None
    return "window-start: no tenant row's value lies before the window start 2023-01-01 (docs/DATA.md)"
