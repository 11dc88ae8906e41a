"""When things happen: growth, seasonality and weekly rhythm over the fixed window.

A row's creation time is a pure function of (table, tenant, ordinal): the ordinal's quantile is
mapped through the activity curve's CDF. Ids therefore grow with time, as with a real sequence,
and a child can compute its parent's creation time from the parent's id alone — no parent data is
ever read, which keeps tables chunk-addressable.
"""

from __future__ import annotations

from datetime import date, datetime, timezone
from functools import lru_cache

import numpy as np

from heron_pipeline.seeding.scales import AS_OF_DATE, WINDOW_START

EPOCH = date(1970, 1, 1)
US_PER_DAY = 86_400_000_000
WINDOW_START_DAY = (WINDOW_START - EPOCH).days
WINDOW_DAYS = (AS_OF_DATE - WINDOW_START).days + 1
AS_OF_US = (WINDOW_START_DAY + WINDOW_DAYS) * US_PER_DAY - 1

#: Relative activity by month (Jan..Dec): a slow August, a strong Q4 with a November peak.
MONTH_SEASON = np.array([0.92, 0.95, 1.02, 1.0, 1.0, 0.97, 0.9, 0.82, 1.0, 1.08, 1.3, 1.18])
#: Relative activity by weekday (Mon..Sun): B2B buyers work weekdays.
WEEKDAY = np.array([1.1, 1.12, 1.1, 1.05, 0.95, 0.42, 0.33])
#: Yearly growth of activity (the platform and its tenants grow ~45 % a year).
YEARLY_GROWTH = 1.45
#: Relative activity by hour of day (UTC), a working-day hump.
HOURLY = np.array([0.2, 0.15, 0.12, 0.1, 0.12, 0.2, 0.4, 0.8, 1.3, 1.6, 1.7, 1.65,
                   1.5, 1.55, 1.6, 1.55, 1.4, 1.2, 0.95, 0.8, 0.65, 0.5, 0.38, 0.28])


@lru_cache(maxsize=1)
def day_weights() -> np.ndarray:
    days = np.arange(WINDOW_DAYS)
    dates = np.datetime64(WINDOW_START) + days
    months = dates.astype("datetime64[M]").astype(int) % 12
    weekdays = (dates.astype("datetime64[D]").astype(int) + 3) % 7  # 1970-01-01 was a Thursday
    growth = YEARLY_GROWTH ** (days / 365.25)
    return growth * MONTH_SEASON[months] * WEEKDAY[weekdays]


@lru_cache(maxsize=1)
def _hour_cdf() -> np.ndarray:
    return np.cumsum(HOURLY) / HOURLY.sum()


def mix64(values: np.ndarray, salt: int) -> np.ndarray:
    """splitmix64 of (values + salt): a fast, stateless, platform-independent hash."""
    with np.errstate(over="ignore"):
        z = values.astype(np.uint64) + np.uint64(salt & 0xFFFFFFFFFFFFFFFF) * np.uint64(0x9E3779B97F4A7C15)
        z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
        z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
        return z ^ (z >> np.uint64(31))


def unit_hash(values: np.ndarray, salt: int) -> np.ndarray:
    """Deterministic uniforms in [0, 1) from integers."""
    return (mix64(values, salt) >> np.uint64(11)).astype(np.float64) / float(1 << 53)


def tenant_day_weights(start_day: int, quiet: tuple[int, int] | None = None) -> np.ndarray:
    """The activity curve from ``start_day`` to the as-of day, with no activity on the window days
    ``quiet`` = [first, end) if given: a table's quiet spell for one tenant (a profile's ``quiet``,
    docs/DATA.md). Row counts do not change; the rows of the spell land on the other days."""
    weights = day_weights()[start_day:]
    if quiet is not None:
        weights = weights.copy()
        weights[max(quiet[0] - start_day, 0):max(quiet[1] - start_day, 0)] = 0.0
        if not weights.any():  # a tenant that starts inside the spell keeps its curve
            return day_weights()[start_day:]
    return weights


def creation_times(ordinals: np.ndarray, count: int, start_day: int, salt: int,
                   quiet: tuple[int, int] | None = None) -> np.ndarray:
    """Creation time (µs since epoch, UTC) of rows ``ordinals`` out of ``count``.

    The k-th of n rows lands at quantile (k + 0.5) / n of the activity curve restricted to
    [start_day, as-of] (less the ``quiet`` days, see :func:`tenant_day_weights`); the time of day
    follows the hourly curve, jittered by a hash of the ordinal.
    """
    start_day = int(min(max(start_day, 0), WINDOW_DAYS - 1))
    weights = tenant_day_weights(start_day, quiet)
    cdf = np.cumsum(weights)
    cdf /= cdf[-1]
    quantiles = (ordinals.astype(np.float64) + 0.5) / max(count, 1)
    day = np.minimum(np.searchsorted(cdf, quantiles, side="left"), len(cdf) - 1) + start_day
    u = unit_hash(ordinals, salt)
    hour = np.searchsorted(_hour_cdf(), u, side="right")
    within = unit_hash(ordinals, salt + 1)
    micros = (hour * 3600 + within * 3600).astype(np.int64) * 1_000_000
    micros += (unit_hash(ordinals, salt + 2) * 1_000_000).astype(np.int64)
    return (WINDOW_START_DAY + day).astype(np.int64) * US_PER_DAY + np.minimum(micros, US_PER_DAY - 1)


def to_datetime(micros: int) -> datetime:
    return datetime.fromtimestamp(micros / 1_000_000, tz=timezone.utc)
