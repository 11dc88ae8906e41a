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
    ("BEGIN", "not BEGIN (transaction control)"),
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


#: Non-query commands, each named in its refusal (sqlglot read ``LISTEN x`` as a column aliased
#: ``x``: the refusal said "not ALIAS"; ``CHECKPOINT`` said "not COLUMN"; ``UNLISTEN *`` did not parse).
NAMED_COMMANDS = [
    ("LISTEN heron", "not LISTEN (asynchronous notification)"),
    ("listen heron", "not LISTEN (asynchronous notification)"),
    ("/* hi */ LISTEN heron", "not LISTEN (asynchronous notification)"),
    ("NOTIFY heron", "not NOTIFY (asynchronous notification)"),
    ("NOTIFY heron, 'payload'", "not NOTIFY (asynchronous notification)"),
    ("UNLISTEN *", "not UNLISTEN (asynchronous notification)"),
    ("UNLISTEN heron", "not UNLISTEN (asynchronous notification)"),
    ("CHECKPOINT", "not CHECKPOINT (a utility command)"),
    ("CLUSTER", "not CLUSTER (a utility command)"),
    ("DISCARD ALL", "not DISCARD (session settings)"),
    ("DEALLOCATE ALL", "not DEALLOCATE (prepared statements)"),
    ("CLOSE heron_prediction", "not CLOSE (cursor control)"),
    ("MOVE FORWARD 1 FROM c", "not MOVE (cursor control)"),
    ("FETCH ALL FROM c", "not FETCH (cursor control)"),
    ("SAVEPOINT s", "not SAVEPOINT (transaction control)"),
    ("RELEASE SAVEPOINT s", "not RELEASE (transaction control)"),
    ("START TRANSACTION READ WRITE", "not START TRANSACTION (transaction control)"),
    ("ABORT", "not ABORT (transaction control)"),
    ("END", "not END (transaction control)"),
    ("SECURITY LABEL ON TABLE t IS 'x'", "not SECURITY LABEL (it changes the database)"),
    ("IMPORT FOREIGN SCHEMA s FROM SERVER f INTO t", "not IMPORT FOREIGN SCHEMA (it changes the database)"),
    ("REFRESH MATERIALIZED VIEW v", "not REFRESH MATERIALIZED VIEW (it changes the database)"),
    ("REASSIGN OWNED BY a TO b", "not REASSIGN OWNED (it changes the database)"),
    ("TRUNCATE t", "not TRUNCATE (it changes the database)"),
    ("LOAD 'plpgsql'", "not LOAD (session settings)"),
    ("VACUUM", "not VACUUM (a utility command)"),
    ("WITH d AS (SELECT 1) DELETE FROM t", "not DELETE (it changes data)"),
]


@pytest.mark.parametrize(("sql", "named"), NAMED_COMMANDS)
def test_a_non_query_command_is_named_in_its_refusal(sql: str, named: str) -> None:
    with pytest.raises(Rejected) as caught:
        check_sql(sql)
    assert named in caught.value.message
    assert "ALIAS" not in caught.value.message and "COLUMN" not in caught.value.message


def test_a_query_may_use_command_words_as_names() -> None:
    check_sql('SELECT 1 AS listen, 2 AS "notify" FROM (SELECT 1) AS checkpoint')


def test_verdict_names_the_root_and_functions() -> None:
    verdict = check_sql("SELECT lower(name) FROM t UNION SELECT upper(name) FROM u")
    assert verdict.kind == "union"
    assert {"lower", "upper"} <= verdict.functions


# -- issue 11: Unicode-escaped names, and the parser's input bounds ----------------------------------

from hypothesis import given, settings, strategies as st  # noqa: E402

from heron_pipeline.sandbox.errors import LimitExceeded  # noqa: E402
from heron_pipeline.sandbox.guard import DENIED_FUNCTIONS, decode_unicode_escapes  # noqa: E402
from heron_pipeline.sandbox.limits import Limits  # noqa: E402

#: (body of a U&"…" identifier, escape character, what PostgreSQL reads), checked by hand.
DECODED = [
    (r"pg\005Fsleep", "\\", "pg_sleep"),
    (r"pg\005fsleep", "\\", "pg_sleep"),
    (r"pg\+00005Fsleep", "\\", "pg_sleep"),
    (r"\0070\0067\005F\0073leep", "\\", "pg_sleep"),
    (r"d\0061t\+000061", "\\", "data"),
    (r"a\\b", "\\", "a\\b"),
    ("pg!005Fsleep", "!", "pg_sleep"),
    ("a!!b\\0041", "!", "a!b\\0041"),
    (r"\D83D\DE00", "\\", "\U0001F600"),
    ("plain", "\\", "plain"),
]


@pytest.mark.parametrize(("body", "escape", "decoded"), DECODED)
def test_unicode_escapes_decode_as_postgresql_reads_them(body: str, escape: str, decoded: str) -> None:
    assert decode_unicode_escapes(body, escape) == decoded


@pytest.mark.parametrize("body", [r"pg\005", r"pg\zzzzsleep", r"\+0000", r"\D83D", r"\DE00x", r"\0000", r"\+110000"])
def test_malformed_unicode_escapes_are_rejected(body: str) -> None:
    with pytest.raises(Rejected, match="Unicode escape"):
        decode_unicode_escapes(body)


@pytest.mark.parametrize("sql", [
    r'SELECT U&"pg\005Fsleep"(40)',
    r'SELECT u&"pg\005fread\005ffile"(' + "'/etc/passwd')",
    r'SELECT pg_catalog.U&"pg\005Fsleep"(1)',
    r"""SELECT U&"pg!005Fsleep" UESCAPE '!' (1)""",
    r'SELECT * FROM U&"pg\005Fls\005Fdir"(' + "'.')",
    r'SELECT 1 FROM t WHERE x IN (SELECT U&"set\005Fconfig"(' + "'a', 'b', false))",
])
def test_unicode_escaped_denied_functions_are_rejected(sql: str) -> None:
    with pytest.raises(Rejected, match="not allowed"):
        check_sql(sql)


def test_unicode_escaped_ordinary_names_and_a_spaced_ampersand_are_accepted() -> None:
    assert check_sql(r'SELECT U&"n\0061me" FROM tenancy.tenants').kind == "select"
    assert check_sql(r'SELECT U & "pg_sleep" FROM t').kind == "select"  # a column U, bitwise-and a column


def _escape_some(name: str, mask: list[bool], six: list[bool]) -> str:
    out = []
    for char, escaped, wide in zip(name, mask, six):
        out.append((f"\\+{ord(char):06X}" if wide else f"\\{ord(char):04x}") if escaped else char)
    return "".join(out)


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(sorted(DENIED_FUNCTIONS)), st.lists(st.booleans(), min_size=40, max_size=40),
       st.lists(st.booleans(), min_size=40, max_size=40))
def test_any_escaping_of_a_denied_name_is_rejected(name: str, mask: list[bool], six: list[bool]) -> None:
    body = _escape_some(name, mask, six)
    assert decode_unicode_escapes(body) == name
    with pytest.raises(Rejected, match=f"function {name}\\(\\) is not allowed"):
        check_sql(f'SELECT U&"{body}"(1)')


SMALL = Limits(max_sql_chars=2_000, max_sql_tokens=300, max_sql_depth=5)


@pytest.mark.parametrize(("sql", "reason"), [
    ("SELECT 1 WHERE 1 IN (" + ",".join(["1"] * 1_000) + ")", "characters"),
    ("SELECT 1 WHERE 1 IN (" + ",".join(["1"] * 200) + ")", "tokens"),
    ("SELECT " + "(" * 6 + "1" + ")" * 6, "nests brackets 6 deep"),
    ("SELECT " + "ARRAY[" * 6 + "1" + "]" * 6, "nests brackets 6 deep"),
    ("SELECT " + "(" * 6, "nests brackets 6 deep"),  # never closed: still bounded before the parse
])
def test_input_over_a_parser_bound_is_a_limit(sql: str, reason: str) -> None:
    with pytest.raises(LimitExceeded, match=reason) as caught:
        check_sql(sql, SMALL)
    assert caught.value.line().startswith("limit: ")


@pytest.mark.parametrize("sql", [
    "SELECT 1 WHERE 1 IN (" + ",".join(["1"] * 140) + ")",  # 283 tokens
    "SELECT " + "(" * 5 + "1" + ")" * 5,
])
def test_input_at_the_parser_bounds_is_parsed(sql: str) -> None:
    assert check_sql(sql, SMALL).kind == "select"


def test_nesting_past_the_parsers_recursion_is_a_limit_not_a_crash() -> None:
    with pytest.raises(LimitExceeded, match="nests too deeply"):
        check_sql("SELECT " + "NOT " * 5_000 + "true")


def test_the_default_bounds_refuse_a_million_character_query_unparsed() -> None:
    with pytest.raises(LimitExceeded, match="1,000,023 characters; the parser takes at most 100,000"):
        check_sql("SELECT 1 WHERE 1 IN (" + "1," * 500_000 + "1)")


# -- Hardening II: the text the server-side cap wraps ---------------------------------------------------

from heron_pipeline.sandbox.execute import query_body  # noqa: E402

#: (prediction, the body put inside the wrapper's parentheses; None = declared as it is)
BODIES = [
    ("SELECT 1", "SELECT 1"),
    ("SELECT 1;", "SELECT 1"),
    ("SELECT 1;;  ", "SELECT 1"),
    ("SELECT 1; -- trailing comment", "SELECT 1"),
    ("SELECT 1 /* ; */ ;", "SELECT 1"),
    ("SELECT 'a;' ;", "SELECT 'a;'"),
    ("SELECT $$x;$$;", "SELECT $$x;$$"),
    ("SELECT $b$ ; $b$ ; -- end", "SELECT $b$ ; $b$"),
    ("SELECT E'it''s \\''  ;", "SELECT E'it''s \\''"),
    ("-- lead\nSELECT \"a;\" FROM t -- c ;\n ;", "-- lead\nSELECT \"a;\" FROM t"),
    ("SELECT 1 -- no semicolon", "SELECT 1"),
    ("VALUES (1);", "VALUES (1)"),
    ("(SELECT 1) UNION (SELECT 2) ORDER BY 1;", "(SELECT 1) UNION (SELECT 2) ORDER BY 1"),
    ("SELECT 1; SELECT 2", "SELECT 1; SELECT 2"),  # kept whole: PostgreSQL refuses it (two commands)
    ("EXPLAIN SELECT 1", None),
    ("LISTEN x;", None),
    ("SHOW work_mem", None),
    ("", None),
]


@pytest.mark.parametrize(("sql", "body"), BODIES)
def test_the_wrapped_body_is_the_query_without_its_trailing_semicolons(sql: str, body: str | None) -> None:
    assert query_body(sql) == body
