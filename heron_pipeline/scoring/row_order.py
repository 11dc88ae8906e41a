"""A canonical row order for the metrics that pair rows by position (Soft-F1).

PostgreSQL returns the rows of a query without ORDER BY - and the rows that tie
on the sort keys of one with ORDER BY - in whatever order the plan produces,
and a VACUUM, an ANALYZE or autovacuum can change that order on identical data.
A positional metric computed on the rows as fetched would therefore change
between runs.  `canonical_rows` removes that freedom: the rows are sorted
where the query leaves their order open, by a key that does not depend on the
column order, so a prediction that returns the gold's columns permuted is
sorted into the gold's row order.

The key of a row is the sorted list of its values' order keys (then the row
itself, so the result is fully determined).  Two rows with equal first parts
hold the same values up to Python `==`; Soft-F1 scores a row pair only by
which values occur in which row, so such rows are interchangeable there.
"""

from __future__ import annotations

import datetime as _dt
import json
import uuid
from decimal import Decimal
from typing import Sequence

from .order_spec import POSITIONAL, UNORDERED, OrderSpec, order_spec

_NUMBER = (bool, int, float, Decimal)


def value_order_key(value: object) -> tuple:
    """A key that orders any two values without a TypeError; equal keys mean `==` values.

    Numbers (bool, int, float, Decimal) share one rank and compare by exact
    value, as Python compares them; NaN has a rank of its own (it equals
    nothing, so all NaNs are alike).  Dates, naive and aware datetimes and
    times get separate ranks because Python refuses to order them against each
    other; lists, dicts and anything else are ordered by a canonical JSON text.
    """
    t = type(value)
    if value is None:
        return (0,)
    if t in _NUMBER:
        if (t is float and value != value) or (t is Decimal and value.is_nan()):
            return (2,)
        return (1, value)
    if t is str:
        return (3, value)
    if t is bytes:
        return (4, value)
    if t is _dt.datetime:
        return (6, value) if value.utcoffset() is None else (7, value)
    if t is _dt.date:
        return (5, value)
    if t is _dt.time:
        return (8, value) if value.utcoffset() is None else (9, value)
    if t is _dt.timedelta:
        return (10, value)
    if t is uuid.UUID:
        return (11, value)
    try:
        text = json.dumps(value, sort_keys=True, default=repr)
    except (TypeError, ValueError):  # keys json cannot sort or write
        text = repr(value)
    return (12, t.__name__, text)


def row_order_key(row: Sequence) -> tuple:
    """Order key of a row: its values' keys as a sorted list (column order does not matter), then in place."""
    keys = tuple(map(value_order_key, row))
    return (tuple(sorted(keys)), keys)


def tie_groups(rows: Sequence[Sequence], key_columns: Sequence[int]) -> list[range]:
    """Runs of consecutive rows whose values in `key_columns` are equal (NaN ties NaN)."""
    groups: list[range] = []
    start = 0
    previous = None
    for i, row in enumerate(rows):
        key = tuple(value_order_key(row[j]) for j in key_columns)
        if i and key != previous:
            groups.append(range(start, i))
            start = i
        previous = key
    if rows:
        groups.append(range(start, len(rows)))
    return groups


def canonical_rows(rows: Sequence[tuple], spec: OrderSpec) -> list[tuple]:
    """`rows` with the order the query leaves open replaced by the canonical one.

    Unordered: all rows sorted.  Ordered by output columns: each tie group
    sorted in place, the groups kept in the order the query gave them.
    Ordered by something that is not an output column (`spec.positional`):
    the ties cannot be seen, so the rows are kept as they are.
    """
    rows = list(rows)
    if not spec.ordered:
        return sorted(rows, key=row_order_key)
    width = len(rows[0]) if rows else 0
    if spec.positional or any(j >= width for j in spec.key_columns):
        return rows
    out: list[tuple] = []
    for group in tie_groups(rows, spec.key_columns):
        chunk = rows[group.start:group.stop]
        out.extend(chunk if len(chunk) == 1 else sorted(chunk, key=row_order_key))
    return out


def _prediction_spec(pred_sql: str) -> OrderSpec:
    """The prediction's own order spec; SQL too deep for the parser (it executed, so PostgreSQL
    took it) falls back on the text, as `order_spec` does for SQL it cannot parse."""
    try:
        return order_spec(pred_sql)
    except (RecursionError, ValueError, TypeError):
        return POSITIONAL if "order by" in " ".join(pred_sql.lower().split()) else UNORDERED


def canonical_pair(gold_sql: str, gold_rows: Sequence[tuple], pred_sql: str | None,
                   pred_rows: Sequence[tuple] | None) -> tuple[list[tuple], list[tuple] | None]:
    """Gold and predicted rows in canonical order, ready for a positional metric.

    When the gold query has no outer ORDER BY, row order carries no meaning and
    both results are sorted.  When it has one, each result keeps the order its
    own query fixes and is sorted only where that query leaves it open: the
    gold within the gold's tie groups, the prediction within the tie groups of
    the prediction's own ORDER BY (all of it, when it has none).
    """
    gold_spec = order_spec(gold_sql)
    gold = canonical_rows(gold_rows, gold_spec)
    if pred_rows is None:
        return gold, None
    pred_spec = UNORDERED if not gold_spec.ordered or pred_sql is None else _prediction_spec(pred_sql)
    return gold, canonical_rows(pred_rows, pred_spec)
