"""The row plan as data: how many rows each table has per tenant, and how many children each parent.

Below both the planner that fills it (seeding/plan.py ``build_plan``) and the row layout that reads
it (seeding/rows.py): the planner counts a per-parent table's rows through the layout, so the types
and the per-parent draw both need must sit under the two.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from heron_pipeline.seeding.scales import Scale
from heron_pipeline.seeding.streams import stable_key
from heron_pipeline.seeding.timeline import unit_hash


@dataclass
class UniqueDimension:
    """The second column of a unique (parent, x) key, drawn without repeats per parent."""

    column: str
    kind: str  # "fk" (a tenant-scoped or global table), "enum", "date", "one" (one-to-one)
    size: np.ndarray  # per tenant: how many distinct values x can take


@dataclass
class TablePlan:
    name: str
    tenant_scoped: bool
    counts: np.ndarray  # rows per tenant (length = tenants), or [n] for a global table
    parent: str | None = None  # FK column driving the rows, or "tenant"
    parent_table: str | None = None
    per_parent_means: np.ndarray | None = None  # per tenant, for tables laid out under a parent
    unique_dim: UniqueDimension | None = None
    setup: bool = False  # configuration created when a tenant onboards, not over time
    #: (empty_share, extra_share) of a per-parent table: see ``children_per_parent``.
    child_shape: tuple[float, float] = (0.0, 0.0)
    #: tenant index -> [first, end) window days on which the tenant creates no rows here (``quiet``).
    quiet_days: dict[int, tuple[int, int]] = field(default_factory=dict)
    #: A per-parent table whose first row under each parent comes first in time (``opens_with``).
    opens_with: bool = False

    @property
    def offsets(self) -> np.ndarray:
        return np.concatenate([[0], np.cumsum(self.counts)[:-1]]).astype(np.int64)

    @property
    def total(self) -> int:
        return int(self.counts.sum())


@dataclass
class Plan:
    scale: Scale
    seed: int
    tenant_weights: np.ndarray
    tenant_start_days: np.ndarray  # day index in the window when each tenant signed up
    tables: dict[str, TablePlan] = field(default_factory=dict)

    @property
    def tenants(self) -> int:
        return len(self.tenant_weights)

    @property
    def total_rows(self) -> int:
        return sum(t.total for t in self.tables.values())


def children_per_parent(seed: int, table: str, mean: float, parent_count: int,
                        cap: np.ndarray | int | None, tenant: int,
                        shape: tuple[float, float] = (0.0, 0.0)) -> np.ndarray:
    """Rows of ``table`` under each of ``parent_count`` parents: a pure function of the parent
    ordinal, so any block of the child can find its parents without the others.

    A mean of at least 1 gives every parent one row or more, a mean below 1 gives none or one;
    ``shape`` = (empty_share, extra_share) breaks both habits where the profile asks for it,
    because real data has both: a share of parents left without rows (a promotion with no products
    yet, an account never scored) and a share of the parents that have rows given one more (a
    user with two security keys, a ticket escalated twice). Both are hashed from the parent
    ordinal like the counts, and (0, 0) leaves the counts exactly as they were."""
    ordinals = np.arange(parent_count, dtype=np.int64)
    salt = stable_key("per-parent", table, str(seed), str(tenant))
    u1, u2 = unit_hash(ordinals, salt), unit_hash(ordinals, salt + 7)
    if mean >= 1:
        counts = 1 + np.floor(-np.log1p(-u1 * 0.999999) * (mean - 1) + u2).astype(np.int64)
    else:
        counts = (u1 < mean).astype(np.int64)
    empty_share, extra_share = shape
    if extra_share > 0:
        counts = counts + ((counts > 0) & (unit_hash(ordinals, salt + 13) < extra_share))
    if empty_share > 0:
        counts = np.where(unit_hash(ordinals, salt + 29) < empty_share, 0, counts)
    if cap is not None:
        counts = np.minimum(counts, np.maximum(cap, 0))
    return counts
