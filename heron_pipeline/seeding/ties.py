"""A tie a question's tie-breaker needs: two values of a category column counted equally among the
rows a filter keeps (generator 2.3, the profile key ``tie``).

A question that ranks groups by a count and breaks ties by the group's name (``ORDER BY n DESC,
provider``) is only tested on its tie-breaker when two groups have the same count; with counts in
the hundreds that never happens by chance, so a query sorting the names the wrong way scores as
right. The shape makes the tie certain in every seed and at every scale without reading the
generator's output back: within each block (a fixed run of the table's rows, seeding/generate.py)
the rows that pass the filter and hold one of the two values are balanced — rows of the larger
value are given the smaller one, the last rows in id order first, until both counts are equal,
and an odd one out goes to a third value (``spill``). Blocks are the same whatever the worker
count, so the totals tie and the bytes stay a pure function of (scale, seed).

Pure numpy/polars on typed columns: seeding/values.py hands the block's columns over as Series.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

import numpy as np
import polars as pl


def filter_mask(columns: dict[str, pl.Series], where: dict[str, Any]) -> np.ndarray:
    """Which rows pass ``where``: ``{column: condition}``, all conditions true (SQL's AND).

    A condition is a list of values (``IN``), ``null`` (``IS NULL``), ``true``/``false`` (a
    boolean column) or ``{from: date, to: date}`` (a half-open time window, UTC)."""
    n = len(next(iter(columns.values())))
    mask = np.ones(n, dtype=bool)
    for name, condition in where.items():
        series = columns[name]
        if condition is None:
            hit = series.is_null()
        elif isinstance(condition, bool):
            hit = series == condition
        elif isinstance(condition, dict):
            start, end = (_utc(condition[k]) for k in ("from", "to"))
            hit = (series >= start) & (series < end)
        else:
            hit = series.cast(pl.String).is_in([str(v) for v in condition])
        mask &= hit.fill_null(False).to_numpy()
    return mask


def balanced(category: pl.Series, kept: np.ndarray, between: tuple[str, str], spill: str) -> pl.Series:
    """``category`` with the kept rows of ``between`` balanced (see the module docstring): equal
    counts of the two values among ``kept``, one row moved to ``spill`` when their sum is odd."""
    text = category.cast(pl.String).to_numpy()
    first = np.flatnonzero(kept & (text == between[0]))
    second = np.flatnonzero(kept & (text == between[1]))
    larger, smaller_value = (first, between[1]) if len(first) > len(second) else (second, between[0])
    gap = abs(len(first) - len(second))
    if gap == 0:
        return category
    moving = gap // 2 + gap % 2
    moved = larger[len(larger) - moving:]  # the last rows of the larger value, in id order
    out = text.astype(object)
    out[moved] = smaller_value
    if gap % 2:
        out[moved[0]] = spill  # the odd one out
    return pl.Series(category.name, out.tolist(), dtype=pl.String).cast(category.dtype)


def _utc(value: Any) -> dt.datetime:
    if isinstance(value, dt.datetime):
        return value if value.tzinfo else value.replace(tzinfo=dt.timezone.utc)
    if isinstance(value, dt.date):
        return dt.datetime(value.year, value.month, value.day, tzinfo=dt.timezone.utc)
    return _utc(dt.date.fromisoformat(str(value)))


def balanced_parents(parent_of: np.ndarray, kept: np.ndarray, category: np.ndarray, eligible: np.ndarray,
                     first_alive: np.ndarray, end_alive: np.ndarray, pick: np.ndarray,
                     between: tuple[str, str], spill: str) -> np.ndarray:
    """``parent_of`` with the kept rows re-pointed so that as many have a parent of ``between[0]``
    as of ``between[1]`` (the parent-side tie: a count of runs per job type, of visits per device
    kind), counting only parents that pass the parent filter (``eligible``).

    Positions are 0-based into the parent arrays ``category`` and ``eligible``. A moved row keeps
    its tenant and its time: its new parent is an eligible one of the wanted value among the
    parents alive when it was made (``first_alive`` ≤ position < ``end_alive``, the FK pick's own
    range), chosen by ``pick`` (a uniform per row). Rows of the larger value move last in id order
    first; a row with no such parent stays and the next one is tried, so a block where no parent
    of the wanted value exists stays unbalanced (the check on a built state says so)."""
    out = parent_of.copy()
    counted = kept & eligible[parent_of]
    kinds = category[parent_of]
    first = np.flatnonzero(counted & (kinds == between[0]))
    second = np.flatnonzero(counted & (kinds == between[1]))
    larger, smaller_value = (first, between[1]) if len(first) > len(second) else (second, between[0])
    gap = abs(len(first) - len(second))
    wanted = [spill] * (gap % 2) + [smaller_value] * (gap // 2)
    targets = {value: np.flatnonzero(eligible & (category == value)) for value in set(wanted)}
    candidates = iter(larger[::-1])
    for value in wanted:
        places = targets[value]
        for row in candidates:
            lo, hi = np.searchsorted(places, [first_alive[row], end_alive[row]])
            if hi > lo:
                out[row] = places[lo + min(int(pick[row] * (hi - lo)), hi - lo - 1)]
                break
    return out
