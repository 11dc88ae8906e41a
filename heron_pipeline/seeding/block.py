"""A block: a run of one table's rows in id order, and what each row's place gives it for free.

The value generator (seeding/values.py) fills a block column by column; the few tables with values
of their own (seeding/special.py) read the same block, so it sits below both.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

import numpy as np

from heron_pipeline.catalog.model import Catalog, Table
from heron_pipeline.seeding.row_plan import Plan, TablePlan
from heron_pipeline.seeding.profiles import TableProfile
from heron_pipeline.seeding.rows import parent_positions, row_times
from heron_pipeline.seeding.streams import BLOCK_ROWS, stream


@dataclass
class Block:
    """Rows ``rows`` of ``table``: their tenants, ordinals, creation times and parents (from the
    plan alone), and the values generated so far, column by column."""

    catalog: Catalog
    plan: Plan
    table: Table
    tp: TablePlan
    profile: TableProfile
    rows: np.ndarray  # positions in the whole table (id - 1), ascending and contiguous
    rng: np.random.Generator
    reference: dict[str, list[dict[str, Any]]]  # global tables' explicit rows
    #: every table's profile: a parent-side ``tie`` regenerates the parent's blocks (seeding/ties.py)
    profiles: dict[str, TableProfile] = field(default_factory=dict)
    tenants: np.ndarray = field(init=False)  # per row: 0-based tenant index (tenant_id - 1); 0 if global
    ordinals: np.ndarray = field(init=False)  # per row: position among its tenant's rows
    segments: list[tuple[int, slice]] = field(init=False)  # (tenant, its rows in the block)
    created: np.ndarray = field(init=False)
    parents: np.ndarray | None = field(init=False, default=None)
    siblings: np.ndarray | None = field(init=False, default=None)
    values: dict[str, Any] = field(init=False, default_factory=dict)

    @classmethod
    def numbered(cls, catalog: Catalog, plan: Plan, table: str, number: int, profiles: dict[str, TableProfile],
                 reference: dict[str, list[dict[str, Any]]]) -> "Block":
        """Block ``number`` of ``table``: rows ``number * BLOCK_ROWS`` up to the next block, with the
        block's own stream. The one definition of a block, for every maker of one (the generator,
        and a parent-side tie that makes its parents' blocks again and needs the same bytes)."""
        tp = plan.tables[table]
        rows = np.arange(number * BLOCK_ROWS, min(tp.total, (number + 1) * BLOCK_ROWS), dtype=np.int64)
        return cls(catalog, plan, catalog.tables[table], tp, profiles[table], rows,
                   stream(plan.seed, "rows", table, number), reference, profiles)

    def __post_init__(self) -> None:
        n = len(self.rows)
        if self.tp.tenant_scoped:
            offsets = self.tp.offsets
            # side="right": a tenant with no rows shares its offset with the next and is skipped.
            self.tenants = np.searchsorted(offsets, self.rows, side="right") - 1
            self.ordinals = self.rows - offsets[self.tenants]
        else:
            self.tenants, self.ordinals = np.zeros(n, dtype=np.int64), self.rows
        cuts = np.flatnonzero(np.diff(self.tenants)) + 1
        self.segments = [(int(self.tenants[a]), slice(int(a), int(b)))
                         for a, b in zip(np.r_[0, cuts], np.r_[cuts, n])]
        self.created = self.per_tenant(lambda t, s: row_times(self.plan, self.tp, t, self.ordinals[s]))
        if self.tp.per_parent_means is not None:
            pairs = [parent_positions(self.plan, self.tp, t, self.ordinals[s]) for t, s in self.segments]
            self.parents = np.concatenate([p for p, _ in pairs])
            self.siblings = np.concatenate([q for _, q in pairs])

    def per_tenant(self, fn: Callable[[int, slice], np.ndarray]) -> np.ndarray:
        """``fn(tenant, rows of the block)`` for each tenant segment, concatenated in row order:
        for the plan functions that are defined per tenant (time curves, parent layouts)."""
        if len(self.segments) == 1:
            tenant, part = self.segments[0]
            return fn(tenant, part)
        return np.concatenate([fn(tenant, part) for tenant, part in self.segments])

    @property
    def n(self) -> int:
        return len(self.rows)

    @property
    def ids(self) -> np.ndarray:
        return self.rows + 1  # dense per table, tenant after tenant
