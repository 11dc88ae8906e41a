"""The parser layer as a table: SQL in, accepted or the reason it is rejected. No database."""

from __future__ import annotations

import pytest

from heron_pipeline.sandbox.errors import Rejected
from heron_pipeline.sandbox.guard import check_sql

ACCEPTED = [
    "SELECT 1",
    "SELECT 1;",
    "SELECT 1;;",
    "SELECT 1; -- trailing comment",
    "-- leading comment\nSELECT 1",
    "SELECT 'DROP TABLE orders.orders; DELETE FROM x' AS s",
    "SELECT 1 /* ; DROP TABLE orders.orders; */",
    "SELECT 1 -- ; INSERT INTO t VALUES (1)\n",
    "SELECT $$ ; UPDATE t SET a = 1 $$",
    "SELECT $body$pg_sleep(10); pg_read_file('/etc/passwd')$body$",
    "SELECT E'it''s \\'; DROP TABLE x'",
    "SELECT name FROM tenancy.tenants WHERE name LIKE '%delete%' OR name ILIKE 'drop%'",
    "SELECT \"update\", \"delete\" FROM (SELECT 1 AS \"update\", 2 AS \"delete\") s",
    "WITH t AS (SELECT 1 AS a) SELECT a FROM t",
    "WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r WHERE n < 10) SELECT n FROM r",
    "SELECT 1 UNION SELECT 2",
    "SELECT 1 UNION ALL SELECT 2 EXCEPT SELECT 3 INTERSECT SELECT 4",
    "(SELECT 1) UNION (SELECT 2) ORDER BY 1",
    "VALUES (1, 'a'), (2, 'b')",
    "TABLE tenancy.tenants",
    "SELECT id, row_number() OVER (PARTITION BY tenant_id ORDER BY created_at DESC) FROM orders.orders",
    "SELECT sum(total) FILTER (WHERE status = 'paid') OVER w FROM orders.orders WINDOW w AS (ORDER BY id)",
    "SELECT * FROM orders.orders o JOIN LATERAL (SELECT 1) x ON true",
    "SELECT count(*) FROM orders.orders WHERE id IN (SELECT order_id FROM orders.order_lines)",
    "SELECT date_trunc('month', created_at), count(*) FROM orders.orders GROUP BY 1 ORDER BY 1",
    "SELECT current_setting('TimeZone'), now()",
    "SELECT x::jsonb ->> 'k' FROM (SELECT '{\"k\": 1}' AS x) s",
    "SELECT * FROM generate_series(1, 10) g",
]

REJECTED = [
    ("", "empty"),
    ("   ", "empty"),
    ("-- only a comment", "exactly one statement"),
    ("SELECT 1; SELECT 2", "exactly one statement"),
    ("SELECT 1; DROP TABLE t", "exactly one statement"),
    ("DROP TABLE t", "DROP"),
    ("DELETE FROM t", "DELETE"),
    ("INSERT INTO t VALUES (1)", "INSERT"),
    ("UPDATE t SET a = 1", "UPDATE"),
    ("MERGE INTO t USING s ON true WHEN MATCHED THEN DELETE", "MERGE"),
    ("WITH d AS (DELETE FROM t RETURNING *) SELECT * FROM d", "DELETE"),
    ("SELECT * FROM (WITH u AS (UPDATE t SET a = 1 RETURNING a) SELECT a FROM u) s", "UPDATE"),
    ("SELECT * FROM t WHERE a IN (WITH i AS (INSERT INTO t VALUES (1) RETURNING a) SELECT a FROM i)", "INSERT"),
    ("SELECT * INTO new_table FROM t", "SELECT INTO"),
    ("SELECT * FROM t FOR UPDATE", "locking"),
    ("SELECT * FROM t FOR NO KEY UPDATE", "locking"),
    ("SELECT * FROM t FOR SHARE", "locking"),
    ("SELECT * FROM t FOR KEY SHARE SKIP LOCKED", "locking"),
    ("SELECT 1 UNION ALL (SELECT 2 FROM t FOR UPDATE)", "locking"),
    ("COPY t TO PROGRAM 'id'", "COPY"),
    ("DO $$ BEGIN END $$", "DO"),
    ("PREPARE p AS SELECT 1", "PREPARE"),
    ("EXECUTE p", "EXECUTE"),
    ("EXPLAIN ANALYZE DELETE FROM t", "EXPLAIN"),
    ("EXPLAIN SELECT 1", "EXPLAIN"),
    ("SET ROLE postgres", "SET"),
    ("RESET ROLE", "RESET"),
    ("SHOW ALL", "SHOW"),
    ("LOCK TABLE t", "LOCK"),
    ("BEGIN", "TRANSACTION"),
    ("COMMIT", "COMMIT"),
    ("VACUUM", "VACUUM"),
    ("CALL p()", "CALL"),
    ("CREATE TABLE x (a int)", "CREATE"),
    ("SELECT pg_sleep(1)", "pg_sleep"),
    ("SELECT \"pg_sleep\"(1)", "pg_sleep"),
    ("SELECT PG_CATALOG.PG_SLEEP(1)", "pg_sleep"),
    ("SELECT pg_read_file('/etc/passwd')", "pg_read_file"),
    ("SELECT pg_read_binary_file('x')", "pg_read_binary_file"),
    ("SELECT * FROM pg_ls_dir('.')", "pg_ls_dir"),
    ("SELECT lo_import('/etc/passwd')", "lo_import"),
    ("SELECT lo_export(1, '/tmp/x')", "lo_export"),
    ("SELECT * FROM dblink('x', 'y') AS t(a int)", "dblink"),
    ("SELECT set_config('statement_timeout', '0', false)", "set_config"),
    ("SELECT pg_terminate_backend(1)", "pg_terminate_backend"),
    ("SELECT pg_cancel_backend(1)", "pg_cancel_backend"),
    ("SELECT pg_advisory_lock(1)", "pg_advisory_lock"),
    ("SELECT pg_try_advisory_xact_lock(1)", "pg_try_advisory_xact_lock"),
    ("SELECT txid_current()", "txid_current"),
    ("SELECT pg_notify('c', 'x')", "pg_notify"),
    ("SELECT nextval('s')", "nextval"),
    ("SELECT setval('s', 1)", "setval"),
    ("SELECT currval('s')", "currval"),
    ("SELECT query_to_xml('DELETE FROM t', true, false, '')", "query_to_xml"),
    ("SELECT a FROM t WHERE EXISTS (SELECT pg_sleep(10))", "pg_sleep"),
    ("SELECT FROM WHERE", "parse"),
    ("SELECT 1\x00", "NUL"),
]


@pytest.mark.parametrize("sql", ACCEPTED)
def test_accepted(sql: str) -> None:
    check_sql(sql)


@pytest.mark.parametrize(("sql", "reason"), REJECTED)
def test_rejected(sql: str, reason: str) -> None:
    with pytest.raises(Rejected) as caught:
        check_sql(sql)
    assert reason.lower() in caught.value.message.lower()
    line = caught.value.line()
    assert line.startswith("rejected: ") and "\n" not in line


def test_verdict_names_the_root_and_functions() -> None:
    verdict = check_sql("SELECT lower(name) FROM t UNION SELECT upper(name) FROM u")
    assert verdict.kind == "union"
    assert {"lower", "upper"} <= verdict.functions
