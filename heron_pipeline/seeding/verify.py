"""`heron verify-data`: check a built database by querying it, not by trusting its constraints.

Every check is a query an auditor could run by hand: orphaned foreign keys, references that cross
tenants, duplicate ids and unique keys, and the trap rates (soft-deleted share, NULL share of
optional references) that the questions rely on.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import psycopg

from heron_pipeline.catalog.model import Catalog

#: Soft-deleted share expected in soft-deletable tables with enough rows to measure it.
SOFT_DELETE_RANGE = (0.01, 0.12)
MIN_ROWS_FOR_RATES = 300


@dataclass
class VerifyReport:
    violations: list[str] = field(default_factory=list)
    soft_delete_rates: dict[str, float] = field(default_factory=dict)
    null_fk_rates: dict[str, float] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        return not self.violations


def _q(conn: psycopg.Connection, query: str) -> int:
    return int(conn.execute(query).fetchone()[0])


def verify_database(conn: psycopg.Connection, catalog: Catalog) -> VerifyReport:
    report = VerifyReport()
    for name, table in catalog.tables.items():
        rows = _q(conn, f"SELECT count(*) FROM {name}")
        if table.primary_key and "id" in table.primary_key:
            dupes = _q(conn, f"SELECT count(*) - count(DISTINCT id) FROM {name}")
            if dupes:
                report.violations.append(f"{name}: {dupes} duplicate ids")
        for unique in table.uniques:
            cols = ", ".join(unique.columns)
            dupes = _q(conn, f"SELECT count(*) FROM (SELECT 1 FROM {name} WHERE ({cols}) IS NOT NULL "
                             f"GROUP BY {cols} HAVING count(*) > 1) d")
            if dupes:
                report.violations.append(f"{name}: {dupes} duplicated values of unique key ({cols})")
        for fk in table.foreign_keys:
            join = " AND ".join(f"p.{r} = c.{c}" for c, r in zip(fk.columns, fk.ref_columns))
            present = " AND ".join(f"c.{c} IS NOT NULL" for c in fk.columns)
            orphans = _q(conn, f"SELECT count(*) FROM {name} c WHERE {present} AND NOT EXISTS "
                               f"(SELECT 1 FROM {fk.ref_table} p WHERE {join})")
            if orphans:
                report.violations.append(f"{name}.{fk.own_column}: {orphans} rows reference no row of {fk.ref_table}")
            own = fk.own_column
            if "tenant_id" in fk.columns and catalog.tables[fk.ref_table].is_tenant_scoped:
                crossing = _q(conn, f"SELECT count(*) FROM {name} c JOIN {fk.ref_table} p ON p.id = c.{own} "
                                    f"WHERE p.tenant_id <> c.tenant_id")
                if crossing:
                    report.violations.append(f"{name}.{own}: {crossing} references cross tenants")
            if rows >= MIN_ROWS_FOR_RATES and table.column(own).nullable:
                report.null_fk_rates[f"{name}.{own}"] = _q(conn, f"SELECT count(*) FROM {name} WHERE {own} IS NULL") / rows
        if table.is_soft_deletable and rows >= MIN_ROWS_FOR_RATES:
            rate = _q(conn, f"SELECT count(*) FROM {name} WHERE deleted_at IS NOT NULL") / rows
            report.soft_delete_rates[name] = rate
            low, high = SOFT_DELETE_RANGE
            if not low <= rate <= high:
                report.violations.append(f"{name}: soft-deleted share {rate:.1%} outside {low:.0%}–{high:.0%}")
    return report
