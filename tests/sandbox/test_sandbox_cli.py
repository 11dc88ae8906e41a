"""``heron query`` as a subprocess: stdout is the result document alone, failures are one stderr
line with their prefix and exit code (0 ok, 3 rejected, 4 timeout, 5 limit, 6 error, 7 unavailable)."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from heron_pipeline.config import Settings
from heron_pipeline.database.server import Server
from heron_pipeline.results import loads
from heron_pipeline.sandbox.execute import Sandbox


def heron(settings: Settings, *argv: str, stdin: str | None = None) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if not k.startswith("HERON_")}
    env.update({"HERON_DATA_DIR": str(settings.data_dir), "HERON_PORT": str(settings.port)})
    if settings.dsn:
        env["HERON_DSN"] = settings.dsn
    return subprocess.run([sys.executable, "-m", "heron_pipeline.cli", *argv], capture_output=True, text=True,
                          env=env, input=stdin, timeout=120)


def query(settings: Settings, sql: str, *extra: str) -> subprocess.CompletedProcess:
    return heron(settings, "query", "--scale", "tiny", "--seed", "42", *extra, sql)


def test_ok_prints_the_lossless_document_and_nothing_else(settings: Settings, server: Server, sandbox: Sandbox) -> None:
    sql = ("SELECT id, name, created_at, 1.50::numeric(6,2) AS price, ARRAY[1,2] AS a "
           "FROM tenancy.tenants WHERE name LIKE '%drop table%' OR id <= 2 ORDER BY id -- DELETE everything")
    done = query(settings, sql)
    assert done.returncode == 0, done.stderr
    result = loads(done.stdout)
    assert [c.name for c in result.columns] == ["id", "name", "created_at", "price", "a"]
    assert [c.type for c in result.columns][3:] == ["numeric", "integer[]"]
    with server.connect("heron_tiny_42") as conn:
        expected = conn.execute(sql).fetchall()
    assert result.rows == expected
    assert str(result.rows[0][3]) == "1.50"


@pytest.mark.parametrize(("sql", "extra", "code", "prefix"), [
    ("DELETE FROM orders.order_lines", (), 3, "rejected:"),
    ("SELECT 1; SELECT 2", (), 3, "rejected:"),
    ("SELECT rolpassword FROM pg_authid", (), 3, "rejected:"),
    ("SELECT count(*) FROM orders.order_lines a, orders.order_lines b, orders.order_lines c",
     ("--no-parser", "--timeout", "1"), 4, "timeout:"),
    # Issue 11: the sleep function is refused by the role whatever the parser says, and a name written
    # with Unicode escapes is decoded before the parser's denylist sees it.
    ("SELECT pg_sleep(5)", ("--no-parser", "--timeout", "1"), 3, "rejected:"),
    ('SELECT U&"pg\\005Fsleep"(5)', ("--timeout", "1"), 3, "rejected:"),
    ('SELECT U&"pg\\005Fsleep"(5)', ("--no-parser", "--timeout", "1"), 3, "rejected:"),
    ("SELECT 1 WHERE 1 IN (" + ",".join(["1"] * 30_000) + ")", (), 5, "limit:"),
    ("SELECT count(*) FROM orders.order_lines a, orders.order_lines b, orders.order_lines c", ("--timeout", "1"),
     4, "timeout:"),
    ("SELECT g FROM generate_series(1, 100) g", ("--max-rows", "10"), 5, "limit:"),
    ("SELECT repeat('x', 1000) FROM generate_series(1, 100)", ("--max-bytes", "10000"), 5, "limit:"),
    ("SELECT no_such_column FROM tenancy.tenants", (), 6, "error:"),
    ("SELECT 1 / 0", (), 6, "error:"),
    ("DROP TABLE orders.order_lines", ("--no-parser",), 6, "error:"),
])
def test_failures_are_one_line_with_a_distinct_exit_code(settings: Settings, sandbox: Sandbox, sql: str,
                                                         extra: tuple, code: int, prefix: str) -> None:
    done = query(settings, sql, *extra)
    assert done.returncode == code, (done.returncode, done.stderr)
    assert done.stdout == ""
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(prefix), done.stderr


def test_sql_from_stdin(settings: Settings, sandbox: Sandbox) -> None:
    done = heron(settings, "query", "--scale", "tiny", "--seed", "42", "-", stdin="-- a leading comment\nSELECT 7 AS x")
    assert done.returncode == 0, done.stderr
    assert loads(done.stdout).rows == [(7,)]


def test_missing_database_is_unavailable_not_an_sql_error(settings: Settings, sandbox: Sandbox) -> None:
    done = heron(settings, "query", "--scale", "tiny", "--seed", "9999", "SELECT 1")
    assert done.returncode == 7 and done.stdout == "", done.stderr
    assert done.stderr.startswith("unavailable: heron_tiny_9999 does not exist") and "heron seed" in done.stderr


def test_an_unreachable_external_server_is_unavailable_without_db_up_advice(free_port, pg_tmp) -> None:
    port = free_port()
    done = heron(Settings(dsn=f"postgresql://postgres@127.0.0.1:{port}/postgres", data_dir=pg_tmp, port=port),
                 "query", "--scale", "tiny", "--seed", "42", "SELECT 1")
    assert done.returncode == 7, done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("unavailable:") and f"127.0.0.1:{port}" in lines[0], done.stderr
    assert "heron db up" not in done.stderr and "HERON_DSN" in done.stderr


def test_a_stopped_embedded_server_is_unavailable_with_db_up_advice(free_port, pg_tmp) -> None:
    done = heron(Settings(data_dir=pg_tmp, port=free_port()), "query", "--scale", "tiny", "--seed", "42", "SELECT 1")
    assert done.returncode == 7 and done.stderr.startswith("unavailable:") and "heron db up" in done.stderr, done.stderr


def test_usage_errors_are_argparse_code_2(settings: Settings) -> None:
    assert heron(settings, "query", "SELECT 1").returncode == 2
