"""The schema loads into a real server, and both load paths give the same catalog."""

from __future__ import annotations

import psycopg

from heron_pipeline.catalog import load_catalog
from heron_pipeline.database.introspect import describe_structure, foreign_keys
from heron_pipeline.database.schema_load import apply_phase_one
from heron_pipeline.database.server import Server
from heron_pipeline.seeding.build import apply_keys
from heron_pipeline.seeding.generate import Generator


def test_two_phase_path_gives_the_same_catalog_as_schema_only(server: Server, schema_db: str) -> None:
    server.create_database("heron_test_phased", replace=True)
    dsn = server.dsn("heron_test_phased")
    with psycopg.connect(dsn) as conn:
        apply_phase_one(conn)
        conn.commit()
    apply_keys(dsn, Generator.for_state("tiny", 42), workers=2)
    with server.connect(schema_db) as one, server.connect("heron_test_phased") as two:
        assert describe_structure(one) == describe_structure(two)
    server.drop_database("heron_test_phased")


def test_catalog_fk_graph_matches_the_database(server: Server, schema_db: str) -> None:
    catalog = load_catalog()
    parsed = {(fk.table, fk.columns, fk.ref_table, fk.ref_columns) for fk in catalog.foreign_keys}
    with server.connect(schema_db) as conn:
        assert foreign_keys(conn) == parsed


def test_database_reports_211_tables_in_14_schemas(server: Server, schema_db: str) -> None:
    with server.connect(schema_db) as conn:
        rows = conn.execute(
            "SELECT table_schema, count(*) FROM information_schema.tables WHERE table_type = 'BASE TABLE' "
            "AND table_schema NOT IN ('pg_catalog', 'information_schema') GROUP BY 1").fetchall()
    assert sum(n for _, n in rows) == 211 and len(rows) == 14
