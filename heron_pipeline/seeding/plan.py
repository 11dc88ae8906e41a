"""The row plan: how many rows each table has per tenant, and which ids they get.

Computed before any row exists, from (scale, seed, profiles, catalog) alone. Ids are dense per
table and laid out tenant after tenant, so the id block of (table, tenant) is known to every worker
and a child picks a same-tenant parent by drawing an ordinal inside the parent's block — no parent
data is read and no FK can cross tenants. The plan's types and the per-parent draw are in
seeding/row_plan.py, below this planner and the row layout it counts children with (seeding/rows.py).
"""

from __future__ import annotations

from graphlib import TopologicalSorter

import numpy as np

from heron_pipeline.catalog.model import Catalog, Table
from heron_pipeline.seeding.profiles import TableProfile
from heron_pipeline.seeding.row_plan import Plan, TablePlan, UniqueDimension
from heron_pipeline.seeding.scales import WINDOW_START, Scale
from heron_pipeline.seeding.streams import stream
from heron_pipeline.seeding.timeline import WINDOW_DAYS

#: Tenants' relative size follows Zipf's law with this exponent: a few huge tenants, a long tail.
TENANT_ZIPF = 1.05
#: Named anchor tenants (the largest ones) sign up in the first month of the window.
ANCHOR_TENANTS = 5
#: Mean rows per tenant for tables whose profile gives no size.
DEFAULT_PER_TENANT = 6.0
DEFAULT_PER_PARENT = 2.0

_CHILD_SUFFIXES = ("_lines", "_items", "_members", "_events", "_history", "_messages", "_entries",
                   "_updates", "_attempts", "_runs", "_participants", "_values", "_tiers", "_rules")


def tenant_weights(scale: Scale, seed: int) -> np.ndarray:
    ranks = np.arange(1, scale.tenants + 1, dtype=np.float64)
    jitter = stream(seed, "tenant-weights").lognormal(0.0, 0.08, scale.tenants)
    weights = ranks ** -TENANT_ZIPF * jitter
    # The anchors keep their rank order in every seed, so "the largest tenant" names one tenant.
    weights[:ANCHOR_TENANTS] = np.sort(weights[:ANCHOR_TENANTS])[::-1]
    weights[:ANCHOR_TENANTS] = np.maximum(weights[:ANCHOR_TENANTS], weights[ANCHOR_TENANTS:].max(initial=0) * 1.05)
    return weights / weights.sum()


def tenant_start_days(scale: Scale, seed: int) -> np.ndarray:
    rng = stream(seed, "tenant-start")
    days = rng.integers(0, 730, scale.tenants)
    days[:ANCHOR_TENANTS] = rng.integers(0, 30, min(ANCHOR_TENANTS, scale.tenants))
    return days.astype(np.int64)


def infer_parent(table: Table, profile: TableProfile, catalog: Catalog) -> str | None:
    """The FK column that drives a child table's rows, if any."""
    if profile.parent:
        return profile.parent
    for unique in table.uniques:
        rest = [c for c in unique.columns if c != "tenant_id"]
        fk = table.foreign_key_of(rest[0]) if rest else None
        if fk is not None and catalog.tables[fk.ref_table].is_tenant_scoped and fk.ref_table != table.qualified:
            return rest[0]
        if len(rest) == 1 and fk is not None and table.is_tenant_scoped and not catalog.tables[fk.ref_table].is_tenant_scoped:
            return "tenant"  # one row per tenant per global key (a tenant's override of a platform flag)
        if len(rest) == 1 and table.column(rest[0]).kind == "date" and table.is_tenant_scoped:
            return "tenant"
    if table.name.endswith(_CHILD_SUFFIXES):
        for fk in table.foreign_keys:
            own = fk.own_column
            if (fk.ref_table.split(".")[0] == table.schema and fk.ref_table != table.qualified
                    and catalog.tables[fk.ref_table].is_tenant_scoped and not table.column(own).nullable):
                return own
    return None


def _unique_dimension(table: Table, parent: str, catalog: Catalog, plan: Plan) -> UniqueDimension | None:
    for unique in table.uniques:
        rest = [c for c in unique.columns if c != "tenant_id"]
        if rest == [parent]:  # one-to-one with the parent
            return UniqueDimension(parent, "one", np.ones(plan.tenants, dtype=np.int64))
    for unique in table.uniques:
        rest = [c for c in unique.columns if c != "tenant_id"]
        if parent == "tenant" and len(rest) == 1:
            other = rest[0]
        elif len(rest) == 2 and parent in rest:
            other = rest[1] if rest[0] == parent else rest[0]
        else:
            continue
        column = table.column(other)
        fk = table.foreign_key_of(other)
        if fk is not None:
            target = plan.tables[fk.ref_table]
            size = target.counts if target.tenant_scoped else np.full(plan.tenants, target.total)
            return UniqueDimension(other, "fk", size.astype(np.int64))
        if column.kind == "enum":
            return UniqueDimension(other, "enum", np.full(plan.tenants, len(catalog.enums[column.type_sql])))
        if column.kind == "date":
            return UniqueDimension(other, "date", WINDOW_DAYS - plan.tenant_start_days)
    return None


def build_plan(catalog: Catalog, profiles: dict[str, TableProfile], scale: Scale, seed: int) -> Plan:
    """Row counts per table and tenant, parents before children."""
    plan = Plan(scale, seed, tenant_weights(scale, seed), tenant_start_days(scale, seed))
    deps = {name: _planning_dependencies(t) for name, t in catalog.tables.items()}
    for name in TopologicalSorter(deps).static_order():
        table, profile = catalog.tables[name], profiles[name]
        plan.tables[name] = _plan_table(table, profile, catalog, plan)
    if "tenancy.exchange_rates" in plan.tables:  # one row per currency per day of the window
        currencies = profiles["tenancy.currencies"].data or []
        plan.tables["tenancy.exchange_rates"].counts = np.array([len(currencies) * WINDOW_DAYS])
    return plan


def _planning_dependencies(table: Table) -> set[str]:
    """Tables whose counts this table's plan reads: required parents and unique-key targets.
    Optional (nullable) references are resolved only when values are drawn, so they may form
    cycles (an experiment's winning variant) without troubling the plan."""
    in_unique = {c for u in table.uniques for c in u.columns}
    return {
        fk.ref_table for fk in table.foreign_keys
        if not fk.is_back_reference and fk.ref_table != table.qualified
        and (not table.column(fk.own_column).nullable or fk.own_column in in_unique)
    }


def _plan_table(table: Table, profile: TableProfile, catalog: Catalog, plan: Plan) -> TablePlan:
    name, tenants = table.qualified, plan.tenants
    if name == "tenancy.tenants":
        return TablePlan(name, False, np.array([tenants]), setup=True)
    if not table.is_tenant_scoped:
        n = len(profile.data) if profile.data else int(profile.rows or 10)
        return TablePlan(name, False, np.array([n]), setup=True)

    jitter = stream(plan.seed, "table-jitter", name).lognormal(0.0, 0.03, tenants)
    parent = infer_parent(table, profile, catalog)
    if profile.fixed_rows is not None:
        return TablePlan(name, True, np.full(tenants, len(profile.fixed_rows), dtype=np.int64), setup=True)
    if profile.rows is not None:
        target = profile.rows * plan.scale.factor * plan.tenant_weights * jitter
        setup = False
    elif parent is None or profile.per_tenant is not None:
        per = profile.per_tenant if profile.per_tenant is not None else DEFAULT_PER_TENANT
        target = np.maximum(1, per * (plan.tenant_weights * tenants) ** 0.35 * jitter)
        setup = True
    else:
        target, setup = None, False
    if parent is None:
        counts = _respect_required_parents(table, np.rint(target).astype(np.int64), plan)
        return TablePlan(name, True, counts, setup=setup, quiet_days=_quiet_days(profile, tenants))

    # Rows laid out under a parent (or under the tenant itself, one per day).
    from heron_pipeline.seeding.rows import children_layout

    parent_table = None if parent == "tenant" else table.foreign_key_of(parent).ref_table  # type: ignore[union-attr]
    parent_counts = np.ones(tenants) if parent_table is None else plan.tables[parent_table].counts
    if target is None:
        means = np.full(tenants, profile.per_parent if profile.per_parent is not None else DEFAULT_PER_PARENT)
    else:
        means = np.where(parent_counts > 0, target / np.maximum(parent_counts, 1), 0.0)
    tp = TablePlan(name, True, np.zeros(tenants, dtype=np.int64), parent, parent_table, means,
                   _unique_dimension(table, parent, catalog, plan), setup,
                   (float(profile.empty_share or 0.0), float(profile.extra_share or 0.0)),
                   opens_with=profile.opens_with is not None)
    tp.counts = np.array([children_layout(plan, tp, t)[0].sum() for t in range(tenants)], dtype=np.int64)
    return tp


def _respect_required_parents(table: Table, counts: np.ndarray, plan: Plan) -> np.ndarray:
    """A tenant without any row of a required parent table can have no rows here."""
    for fk in table.foreign_keys:
        if fk.is_back_reference or fk.ref_table == table.qualified or "tenant_id" not in fk.columns:
            continue
        if table.column(fk.own_column).nullable or fk.ref_table not in plan.tables:
            continue
        counts = np.where(plan.tables[fk.ref_table].counts > 0, counts, 0)
    return counts


def _quiet_days(profile: TableProfile, tenants: int) -> dict[int, tuple[int, int]]:
    """The profile's quiet spells as tenant index -> [first, end) window days (tenants the scale
    does not have are skipped, like a pin on a row the scale does not have)."""
    spells = {}
    for spell in profile.quiet or []:
        tenant = int(spell["tenant"]) - 1
        if 0 <= tenant < tenants:
            first, end = (int((np.datetime64(str(spell[k]), "D") - np.datetime64(WINDOW_START, "D")).astype(int))
                          for k in ("from", "to"))
            spells[tenant] = (first, end)
    return spells
