"""window-start: a lower bound at or before the first day of the data window removes nothing.

Every tenant-scoped row is created inside the window (heron_pipeline/seeding/rows.py
``row_times``: the tenant's sign-up day or later, and the window starts 2023-01-01, docs/DATA.md).
A time column keeps that floor unless the generator derives it *backwards*: from another column
minus a delay (a CHECK ``col <= other`` / ``col < other`` read as a relation, seeding/values.py
``_read_checks``), by a negative ``delay_days`` after another column, or from an explicit value in
the profile (``value``, ``pin``, ``fixed_rows``). So ``col >= L`` with L at or before the window
start is a no-op when the column is time-typed, on a tenant-scoped table, and derived only
forwards. Global reference tables carry older dates (launch dates, tax rates since 1973) and are
never covered.
"""

from __future__ import annotations

import datetime as dt
from typing import TYPE_CHECKING

from sqlglot import exp

if TYPE_CHECKING:
    from heron_pipeline.catalog.model import Catalog

WINDOW_START = dt.datetime(2023, 1, 1, tzinfo=dt.timezone.utc)


def floored_at_window_start(catalog: "Catalog", table_name: str, column: str, *, depth: int = 0) -> bool:
    """True when the generator never gives ``table.column`` a value before the window start."""
    from heron_pipeline.mutants.datacontract import profiles_for
    from heron_pipeline.seeding.values import _read_checks

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
    _, relations = _read_checks(table)
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
    from heron_pipeline.mutants.equivalence import _literal_instant, _tables_by_alias

    if len(removed) != 1:
        return None
    condition = removed[0]
    if isinstance(condition, (exp.GTE, exp.GT)) and isinstance(condition.this, exp.Column):
        column, bound = condition.this, _literal_instant(condition.expression)
    elif isinstance(condition, (exp.LTE, exp.LT)) and isinstance(condition.expression, exp.Column):
        column, bound = condition.expression, _literal_instant(condition.this)
    else:
        return None
    strict = isinstance(condition, (exp.GT, exp.LT))
    if bound is None or bound > WINDOW_START or (strict and bound >= WINDOW_START):
        return None
    select = condition.find_ancestor(exp.Select)
    table = _tables_by_alias(select).get(column.table) if select is not None and column.table else None
    if table is None or not floored_at_window_start(catalog, table, column.name):
        return None
    return "window-start: no tenant row's value lies before the window start 2023-01-01 (docs/DATA.md)"
