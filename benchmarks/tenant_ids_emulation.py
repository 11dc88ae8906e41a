"""What per-tenant ids would do to the tenant-isolation mutants, measured without a generator change.

The generator numbers ids densely, tenant after tenant, so a tenant's rows of a table hold one
contiguous id range. Subtracting the tenant's first id minus one renumbers them 1..n per tenant —
what a system that numbers rows per tenant would store — and subtracting the *parent's* offset from
each tenant-safe FK column ``(tenant_id, x_id) → P(tenant_id, id)`` keeps every reference pointing
at the same row. This script builds such a view of every tenant-scoped table a query reads (TEMP
views over the real state, offsets in TEMP tables), rewrites the gold and its mutants to read the
views, and reports, for the drop-tenant-filter mutants that id-implies-tenant / fk-implies-tenant
set aside today, whether they would be killed under per-tenant ids. Same rows, same values, only
ids renumbered; ``tenancy.tenants`` (not tenant-scoped) is read unchanged.

    HERON_PORT=… HERON_DATA_DIR=… python benchmarks/tenant_ids_emulation.py --scale small --seeds 42,43,44

Prints one line per set-aside mutant and a summary per tagged question.
"""

from __future__ import annotations

import argparse
import contextlib
from collections import Counter
from pathlib import Path

import sqlglot
from sqlglot import exp

from heron_pipeline.catalog.ddl import load_catalog
from heron_pipeline.config import load_settings
from heron_pipeline.database.names import benchmark_database
from heron_pipeline.database.server import Server
from heron_pipeline.mutants import mutants
from heron_pipeline.questions import load_questions
from heron_pipeline.results import fetch_result
from heron_pipeline.scoring import compare


def view_name(qualified: str) -> str:
    return "pt_" + qualified.replace(".", "__")


def offset_name(qualified: str) -> str:
    return "off_" + qualified.replace(".", "__")


class Emulation:
    """TEMP offsets and views of per-tenant ids on one connection, made on first use of a table."""

    def __init__(self, conn, catalog) -> None:
        self.conn, self.catalog, self.views, self.offsets = conn, catalog, set(), set()

    def _offset(self, table: str) -> str:
        if table not in self.offsets:
            self.conn.execute(f"CREATE TEMP TABLE {offset_name(table)} AS SELECT tenant_id, min(id) - 1 AS off "
                              f"FROM {table} GROUP BY tenant_id")
            self.conn.execute(f"CREATE UNIQUE INDEX ON {offset_name(table)} (tenant_id)")
            self.offsets.add(table)
        return offset_name(table)

    def view(self, table: str) -> str:
        if table in self.views:
            return view_name(table)
        t = self.catalog.tables[table]
        joins, columns = [f"JOIN {self._offset(table)} AS o0 ON o0.tenant_id = x.tenant_id"], []
        parents = {}
        for fk in t.foreign_keys:
            if len(fk.columns) == 2 and fk.columns[0] == "tenant_id" and fk.ref_columns == ("tenant_id", "id"):
                parents[fk.columns[1]] = fk.ref_table
        for i, (column, parent) in enumerate(sorted(parents.items()), start=1):
            joins.append(f"LEFT JOIN {self._offset(parent)} AS o{i} ON o{i}.tenant_id = x.tenant_id")
        index = {column: i for i, column in enumerate(sorted(parents), start=1)}
        for c in t.columns:
            if c.name == "id":
                columns.append("x.id - o0.off AS id")
            elif c.name in index:
                columns.append(f"x.{c.name} - o{index[c.name]}.off AS {c.name}")
            else:
                columns.append(f"x.{c.name}")
        self.conn.execute(f"CREATE TEMP VIEW {view_name(table)} AS SELECT {', '.join(columns)} FROM {table} AS x "
                          + " ".join(joins))
        self.views.add(table)
        return view_name(table)

    def rewrite(self, sql: str) -> str:
        tree = sqlglot.parse_one(sql, read="postgres")
        for node in list(tree.find_all(exp.Table)):
            qualified = f"{node.db}.{node.name}" if node.db else None
            if qualified in self.catalog.tables and self.catalog.tables[qualified].is_tenant_scoped:
                alias = node.alias_or_name
                node.replace(exp.Table(this=exp.to_identifier(self.view(qualified)),
                                       alias=exp.TableAlias(this=exp.to_identifier(alias))))
        return tree.sql(dialect="postgres")


def run(conn, sql: str) -> list[tuple] | None:
    try:
        with conn.transaction(force_rollback=True), conn.cursor() as cursor:
            cursor.execute("SET LOCAL statement_timeout = 20000")
            cursor.execute(sql)
            return fetch_result(cursor, max_rows=100_000).rows
    except Exception as err:  # noqa: BLE001 - reported, the mutant proves nothing then
        return None if "row" not in str(err) else []


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--scale", default="small")
    parser.add_argument("--seeds", default="42,43,44")
    parser.add_argument("--questions", default="questions")
    args = parser.parse_args()
    catalog = load_catalog()
    server = Server(load_settings())
    questions = load_questions(Path(args.questions))
    seeds = [int(s) for s in args.seeds.split(",")]
    outcome = Counter()
    with contextlib.ExitStack() as stack:
        conns = {seed: stack.enter_context(server.connect(benchmark_database(args.scale, seed), autocommit=True))
                 for seed in seeds}
        emulations = {seed: Emulation(conn, catalog) for seed, conn in conns.items()}
        for q in questions:
            if q.empty_probe:
                continue
            aside = [m for m in mutants(q.gold_sql, catalog) if m.operator == "drop-tenant-filter" and m.equivalent
                     and m.equivalent.split(":")[0] in ("id-implies-tenant", "fk-implies-tenant")]
            if not aside:
                continue
            for m in aside:
                killed, failed = None, False
                for seed in seeds:
                    e = emulations[seed]
                    gold = run(conns[seed], e.rewrite(q.gold_sql))
                    mutant = run(conns[seed], e.rewrite(m.sql))
                    if gold is None or mutant is None:
                        failed = True
                        continue
                    if not compare(q.gold_sql, gold, mutant):
                        killed = seed
                        break
                verdict = f"killed on {args.scale}_{killed}" if killed else ("failed" if failed else "survives")
                outcome[verdict.split(" on ")[0]] += 1
                tagged = "tagged" if any(t.value == "tenant-isolation" for t in q.traps) else "untagged"
                print(f"{q.id} ({tagged}) {m.equivalent.split(':')[0]}: {m.description} -> {verdict}")
    print("summary:", dict(outcome))


if __name__ == "__main__":
    main()
