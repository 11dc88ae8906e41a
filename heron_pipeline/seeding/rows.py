"""Where a row sits: its parent, its position among siblings, and its creation time.

All three are pure functions of (plan, table, tenant, ordinal), so they can be recomputed for any
row of any table without reading data. A child's creation time is its parent's plus a delay
hashed from the child's own ordinal; the parent's time is computed the same way, recursively.
"""

from __future__ import annotations

import weakref

import numpy as np

from heron_pipeline.seeding.row_plan import Plan, TablePlan, children_per_parent
from heron_pipeline.seeding.streams import stable_key
from heron_pipeline.seeding.timeline import (
    AS_OF_US,
    US_PER_DAY,
    WINDOW_START_DAY,
    creation_times,
    tenant_day_weights,
    unit_hash,
)

#: Configuration rows appear within this many days of a tenant's signup.
SETUP_DAYS = 45
#: Global reference rows predate the window.
GLOBAL_EPOCH_US = (WINDOW_START_DAY - 400) * US_PER_DAY

_SAME_MOMENT_SUFFIXES = ("_lines", "_items", "_taxes", "_addresses", "_values", "_tiers", "_rules", "_allocations")


_LAYOUTS: dict[tuple, tuple[weakref.ref, tuple[np.ndarray, np.ndarray]]] = {}


def children_layout(plan: Plan, tp: TablePlan, tenant: int) -> tuple[np.ndarray, np.ndarray]:
    """(children per parent, cumulative end per parent) for a per-parent table and tenant."""
    # Keyed by id(plan) for speed, but a dead plan's id can be reused by the next one (another seed
    # in the same process), so each entry keeps a weak reference and is trusted only if it is alive.
    key = (id(plan), tp.name, tenant)
    entry = _LAYOUTS.get(key)
    layout = entry[1] if entry is not None and entry[0]() is plan else None
    if layout is None:
        parent_count = 1 if tp.parent == "tenant" else int(plan.tables[tp.parent_table].counts[tenant])  # type: ignore[index]
        counts = children_per_parent(plan.seed, tp.name, float(tp.per_parent_means[tenant]),  # type: ignore[index]
                                     parent_count, _caps(plan, tp, tenant, parent_count), tenant, tp.child_shape)
        layout = (counts, np.cumsum(counts))
        if len(_LAYOUTS) > 512:
            _LAYOUTS.clear()
        _LAYOUTS[key] = (weakref.ref(plan), layout)
    return layout


def _caps(plan: Plan, tp: TablePlan, tenant: int, parent_count: int) -> np.ndarray | int | None:
    """The most children a parent can have without repeating its unique (parent, x) key."""
    dim = tp.unique_dim
    if dim is None:
        return None
    if dim.kind == "date" and tp.parent_table is not None:
        parent_days = row_times(plan, plan.tables[tp.parent_table], tenant, np.arange(parent_count)) // US_PER_DAY
        return np.maximum(AS_OF_US // US_PER_DAY - parent_days + 1, 0)
    return int(dim.size[tenant])


def parent_positions(plan: Plan, tp: TablePlan, tenant: int, ordinals: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(parent ordinal, index among siblings) of each child ordinal."""
    counts, ends = children_layout(plan, tp, tenant)
    parents = np.searchsorted(ends, ordinals, side="right")
    starts = ends[parents] - counts[parents]
    return parents.astype(np.int64), (ordinals - starts).astype(np.int64)


def _delay_us(tp: TablePlan, ordinals: np.ndarray) -> np.ndarray:
    """How long after its parent a child row is created (hashed, so recomputable)."""
    salt = stable_key("delay", tp.name)
    u = unit_hash(ordinals, salt)
    if tp.name.endswith(_SAME_MOMENT_SUFFIXES):
        return (u * 120_000_000).astype(np.int64)  # within two minutes
    return (-np.log1p(-u * 0.999999) * 2.0 * US_PER_DAY).astype(np.int64)  # exponential, mean 2 days


def row_times(plan: Plan, tp: TablePlan, tenant: int, ordinals: np.ndarray) -> np.ndarray:
    """Creation time (µs since epoch) of rows ``ordinals`` of table ``tp`` in ``tenant``."""
    salt = stable_key("created", tp.name)
    if tp.name == "tenancy.tenants":  # a tenant row is created the day it signs up
        days = plan.tenant_start_days[ordinals]
        return (WINDOW_START_DAY + days) * US_PER_DAY + (unit_hash(ordinals, salt) * 3.6e10).astype(np.int64)
    if not tp.tenant_scoped:
        return GLOBAL_EPOCH_US + ordinals.astype(np.int64) * 3_600_000_000 + (unit_hash(ordinals, salt) * 3.6e9).astype(np.int64)
    start_day = int(plan.tenant_start_days[tenant])
    if tp.parent == "tenant":
        return (WINDOW_START_DAY + start_day) * US_PER_DAY + _delay_us(tp, ordinals)
    if tp.parent is not None and tp.parent_table is not None and tp.per_parent_means is not None:
        parent_tp = plan.tables[tp.parent_table]
        parents, siblings = parent_positions(plan, tp, tenant, ordinals)
        delay = _delay_us(tp, ordinals)
        if tp.opens_with:
            delay = np.where(siblings == 0, _opening_delay_us(tp, ordinals), OPENING_LEAD_US + delay)
        return np.minimum(row_times(plan, parent_tp, tenant, parents) + delay, AS_OF_US)
    if tp.setup:
        days = unit_hash(ordinals, salt) * SETUP_DAYS
        return ((WINDOW_START_DAY + start_day) * US_PER_DAY + days * US_PER_DAY).astype(np.int64)
    count = int(tp.counts[tenant])
    return creation_times(ordinals, count, start_day, salt, tp.quiet_days.get(tenant))


#: With ``opens_with``, every later row under a parent comes at least this long after the first.
OPENING_LEAD_US = 3_600_000_000


def _opening_delay_us(tp: TablePlan, ordinals: np.ndarray) -> np.ndarray:
    """The first row under a parent (a subscription's "started" event) follows it within two
    minutes: the lifecycle opens when the parent is created, before anything else happens to it."""
    return (unit_hash(ordinals, stable_key("opening", tp.name)) * 120_000_000).astype(np.int64)


def alive_counts(plan: Plan, tp: TablePlan, tenant: int, times_us: np.ndarray) -> np.ndarray:
    """How many rows of ``tp`` in ``tenant`` exist at each time (ordinals are time-ordered)."""
    count = int(tp.counts[tenant])
    if tp.setup or not tp.tenant_scoped or count == 0:
        return np.full(len(times_us), count, dtype=np.int64)
    start_day = int(plan.tenant_start_days[tenant])
    weights = tenant_day_weights(start_day, tp.quiet_days.get(tenant))
    cdf = np.cumsum(weights) / weights.sum()
    day = (times_us // US_PER_DAY) - WINDOW_START_DAY - start_day
    frac = np.where(day < 0, 0.0, cdf[np.clip(day, 0, len(cdf) - 1)])
    return np.maximum(1, np.floor(frac * count)).astype(np.int64)
