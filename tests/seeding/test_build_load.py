"""The loader creates each table itself and adds foreign keys while it loads; the end state must
still be exactly the schema's: same catalog as a schema-only load, every key validated, every
table analysed and durable."""

from __future__ import annotations

import psycopg

from heron_pipeline.catalog import load_catalog
from heron_pipeline.catalog.ddl import ddl_files, split_statements
from heron_pipeline.database.introspect import describe_structure
from heron_pipeline.database.server import Server
from heron_pipeline.seeding.build import (
    BUILD_STATISTICS_TARGET,
    SERIAL_INDEX_ROWS,
    SMALL_TABLE_ROWS,
    build,
    index_workers_statement,
    load_order,
)
from heron_pipeline.seeding.generate import Generator
from heron_pipeline.seeding.prepared import load_prepared, split_phase_one


def test_phase_one_split_keeps_every_statement_once_and_each_table_whole() -> None:
    texts = [path.read_text() for path in ddl_files().phase_one]
    prelude, tables = split_phase_one(texts)
    assert set(tables) == set(load_catalog().tables)
    for table, script in tables.items():
        assert script.startswith(f"CREATE TABLE {table} ("), table
        assert script.count("CREATE TABLE") == 1
    assert "CREATE TABLE" not in prelude
    parts = [s for s in split_statements(prelude)] + [s for t in tables.values() for s in split_statements(t)]
    assert len(parts) == sum(len(split_statements(text)) for text in texts)


def test_load_order_puts_small_referenced_tables_first_then_largest_first() -> None:
    generator = Generator.for_state("tiny", 42)
    tables = list(generator.plan.tables)
    ordered = load_order(generator, tables)
    assert sorted(ordered) == sorted(tables)
    referenced = set(load_prepared().fk_parent.values())
    rows = {t: generator.plan.tables[t].total for t in tables}
    early = [t in referenced and rows[t] <= SMALL_TABLE_ROWS for t in ordered]
    first_late = early.index(False)
    assert "tenancy.tenants" in ordered[:first_late] and not any(early[first_late:])
    late = ordered[first_late:]
    assert [rows[t] for t in late] == sorted((rows[t] for t in late), reverse=True)


def test_built_database_has_the_schema_every_key_validated_and_every_table_analysed(
        server: Server, schema_db: str) -> None:
    build(server, "tiny", 45)
    catalog = load_catalog()
    with server.connect(schema_db) as one, server.connect("heron_tiny_45") as two:
        assert describe_structure(one) == describe_structure(two)
    with psycopg.connect(server.benchmark_dsn("tiny", 45)) as conn:
        fks = conn.execute("SELECT count(*), count(*) FILTER (WHERE convalidated) FROM pg_constraint "
                           "WHERE contype = 'f'").fetchone()
        assert fks == (len(catalog.foreign_keys), len(catalog.foreign_keys))
        analysed = conn.execute("SELECT count(*) FILTER (WHERE last_analyze IS NOT NULL), count(*) "
                                "FROM pg_stat_user_tables").fetchone()
        assert analysed == (len(catalog.tables), len(catalog.tables))
        # ANALYZE ran at the build's statistics target, not the server's default of 100: no
        # histogram or MCV list is longer than the target allows, and some column reaches it (tiny
        # tables have columns with more distinct values than that), so a target left at 100 fails.
        longest = conn.execute(
            "SELECT max(cardinality(histogram_bounds::text::text[])), max(cardinality(most_common_vals::text::text[])) "
            "FROM pg_stats WHERE schemaname <> ALL (ARRAY['pg_catalog', 'information_schema'])").fetchone()
        assert longest == (BUILD_STATISTICS_TARGET + 1, BUILD_STATISTICS_TARGET)
        persistence = conn.execute(
            "SELECT array_agg(DISTINCT relpersistence::text) FROM pg_class c JOIN pg_namespace n "
            "ON n.oid = c.relnamespace WHERE c.relkind IN ('r', 'i') AND n.nspname <> ALL "
            "(ARRAY['pg_catalog', 'information_schema', 'pg_toast'])").fetchone()[0]
        assert persistence == ["p"]
    server.drop_database("heron_tiny_45")


def test_index_builds_are_serial_below_the_threshold_and_the_server_default_from_it(server: Server) -> None:
    """The loader's keys script starts with this statement: it must set the workers for its own
    transaction only, to 0 below SERIAL_INDEX_ROWS and back to the server's setting from there
    (several small tables share a transaction, and a large one may follow them on the connection)."""
    with server.connect("postgres", autocommit=False) as conn:
        default = conn.execute("SHOW max_parallel_maintenance_workers").fetchone()[0]
        assert default != "0"  # otherwise this test could not tell the two apart
        conn.execute(index_workers_statement(SERIAL_INDEX_ROWS - 1) + "SELECT 1")
        assert conn.execute("SHOW max_parallel_maintenance_workers").fetchone()[0] == "0"
        conn.execute(index_workers_statement(SERIAL_INDEX_ROWS) + "SELECT 1")
        assert conn.execute("SHOW max_parallel_maintenance_workers").fetchone()[0] == default
        conn.execute(index_workers_statement(10) + "SELECT 1")
        conn.commit()
        assert conn.execute("SHOW max_parallel_maintenance_workers").fetchone()[0] == default
