"""The role layer on its own: connected as the reader with plain psycopg (no guard, no cursor
wrapper, autocommit), it still cannot write, escalate, read secrets or raise its limits."""

from __future__ import annotations

import time

import psycopg
import pytest

from heron_pipeline.database.server import Server
from heron_pipeline.sandbox.errors import Timeout
from heron_pipeline.sandbox.execute import Sandbox, _classify, _Watchdog, prepare_sandbox, run_prediction
from heron_pipeline.sandbox.limits import Limits

from conftest import TEST_ROLE


@pytest.fixture
def reader(sandbox: Sandbox):
    with psycopg.connect(sandbox.dsn, autocommit=True) as conn:
        yield conn


@pytest.fixture
def read_write_reader(reader: psycopg.Connection) -> psycopg.Connection:
    """The reader with its default read-only transactions switched off (it may do that itself), so
    that what is tested is the privileges alone."""
    reader.execute("SET default_transaction_read_only = off")
    return reader


@pytest.mark.parametrize(("statement", "error"), [
    ("SELECT rolpassword FROM pg_authid", psycopg.errors.InsufficientPrivilege),
    ("SELECT passwd FROM pg_shadow", psycopg.errors.InsufficientPrivilege),
    ("CREATE TEMP TABLE t (a int)", psycopg.errors.InsufficientPrivilege),
    ("CREATE TABLE public.t (a int)", psycopg.errors.InsufficientPrivilege),
    ("CREATE TABLE orders.t (a int)", psycopg.errors.InsufficientPrivilege),
    ("SET ROLE postgres", psycopg.errors.InsufficientPrivilege),
    ("SET SESSION AUTHORIZATION postgres", psycopg.errors.InsufficientPrivilege),
    ("SET temp_file_limit = '100GB'", psycopg.errors.InsufficientPrivilege),
    ("SELECT set_config('statement_timeout', '0', false)", psycopg.errors.InsufficientPrivilege),
    ("SELECT pg_advisory_lock(1)", psycopg.errors.InsufficientPrivilege),
    ("SELECT pg_read_file('/etc/passwd')", psycopg.errors.InsufficientPrivilege),
    ("COPY tenancy.tenants TO PROGRAM 'id'", psycopg.errors.InsufficientPrivilege),
    ("CREATE DATABASE pwned", psycopg.errors.InsufficientPrivilege),
    ("ALTER ROLE heron_reader_test SUPERUSER", psycopg.errors.InsufficientPrivilege),
    # A role may change its own user-settable defaults (PostgreSQL allows ALTER ROLE self SET
    # statement_timeout outside a read-only transaction), which is why the sandbox also sets its
    # timeouts per transaction; superuser-only ones like temp_file_limit stay out of reach.
    ("ALTER ROLE heron_reader_test SET temp_file_limit = -1", psycopg.errors.InsufficientPrivilege),
])
def test_the_reader_role_refuses(read_write_reader: psycopg.Connection, statement: str, error: type) -> None:
    with pytest.raises(error):
        read_write_reader.execute(statement)


def test_the_reader_starts_read_only(reader: psycopg.Connection) -> None:
    with pytest.raises(psycopg.errors.ReadOnlySqlTransaction):
        reader.execute("DELETE FROM orders.order_lines")


def test_writes_fail_on_privileges_even_with_read_only_turned_off(read_write_reader: psycopg.Connection) -> None:
    reader = read_write_reader
    for statement in ("DELETE FROM orders.order_lines", "UPDATE tenancy.tenants SET name = 'x'",
                      "INSERT INTO tenancy.tenants (id) VALUES (999999)", "TRUNCATE orders.order_lines",
                      "DROP TABLE orders.order_lines"):
        with pytest.raises((psycopg.errors.InsufficientPrivilege, psycopg.errors.DependentObjectsStillExist)):
            reader.execute(statement)


def test_the_role_carries_its_limits(reader: psycopg.Connection, sandbox: Sandbox) -> None:
    shown = {name: reader.execute(f"SHOW {name}").fetchone()[0]
             for name in ("statement_timeout", "temp_file_limit", "work_mem", "default_transaction_read_only")}
    assert shown == {"statement_timeout": "1500ms", "temp_file_limit": "20MB", "work_mem": "4MB",
                     "default_transaction_read_only": "on"}
    attributes = reader.execute("SELECT rolsuper, rolcreaterole, rolcreatedb, rolinherit, rolbypassrls "
                                "FROM pg_roles WHERE rolname = current_user").fetchone()
    assert attributes == (False, False, False, False, False)
    assert reader.execute("SELECT count(*) FROM tenancy.tenants").fetchone()[0] > 0


def test_preparing_twice_is_idempotent(server: Server, seeded: str, sandbox: Sandbox) -> None:
    again = prepare_sandbox(server, seeded, limits=sandbox.limits, role=TEST_ROLE)
    assert again.dsn == sandbox.dsn
    assert run_prediction("SELECT count(*) FROM orders.orders", dsn=again.dsn, limits=again.limits).rows[0][0] > 0


def test_a_long_query_with_a_one_second_timeout_is_a_timeout(sandbox: Sandbox) -> None:
    limits = Limits(statement_timeout_s=1.0, watchdog_grace_s=3.0)
    started = time.perf_counter()
    with pytest.raises(Timeout) as caught:
        run_prediction("SELECT count(*) FROM orders.order_lines a, orders.order_lines b, orders.order_lines c",
                       dsn=sandbox.dsn, limits=limits, parser=False)
    elapsed = time.perf_counter() - started
    assert 0.9 <= elapsed < 3.0, elapsed
    assert "statement timeout" in caught.value.message


#: Issue 11, item 2: one function of each family the parser refuses by name, called as the reader
#: with no parser, no cursor wrapper and no read-only transaction: the privilege layer alone.
DENIED_CALLS = [
    "SELECT pg_sleep(0)", "SELECT pg_sleep_for('0 seconds')", "SELECT pg_sleep_until(now())",
    "SELECT pg_read_file('/etc/passwd')", "SELECT pg_read_binary_file('/etc/passwd')", "SELECT pg_ls_dir('.')",
    "SELECT pg_stat_file('postgresql.conf')", "SELECT pg_ls_waldir()", "SELECT pg_current_logfile()",
    "SELECT lo_import('/etc/passwd')", "SELECT lo_export(1, '/tmp/heron_sandbox_pwned')", "SELECT lo_creat(-1)",
    "SELECT lo_create(0)", "SELECT lo_open(1, 262144)", "SELECT lo_get(1)", "SELECT lo_from_bytea(0, 'x')",
    "SELECT lo_unlink(1)", "SELECT loread(0, 1)",
    "SELECT pg_advisory_lock(1)", "SELECT pg_try_advisory_lock(1)", "SELECT pg_advisory_xact_lock(1)",
    "SELECT pg_advisory_lock_shared(1)", "SELECT pg_try_advisory_xact_lock(1, 2)", "SELECT pg_advisory_unlock_all()",
    "SELECT pg_terminate_backend(1)", "SELECT pg_cancel_backend(1)", "SELECT pg_reload_conf()",
    "SELECT pg_rotate_logfile()", "SELECT pg_log_backend_memory_contexts(1)",
    "SELECT set_config('statement_timeout', '0', false)", "SELECT pg_notify('c', 'x')",
    "SELECT txid_current()", "SELECT pg_current_xact_id()", "SELECT nextval(0::regclass)",
    "SELECT query_to_xml('SELECT 1', true, false, '')", "SELECT ts_stat('SELECT 1')",
    'SELECT U&"pg\\005Fsleep"(0)', 'SELECT U&"pg\\005Fread\\005Ffile"(\'/etc/passwd\')',
]


@pytest.mark.parametrize("statement", DENIED_CALLS)
def test_the_reader_cannot_execute_what_the_parser_refuses(reader: psycopg.Connection, statement: str) -> None:
    with pytest.raises(psycopg.errors.InsufficientPrivilege, match="permission denied for function"):
        reader.execute(statement)


def test_every_function_the_parser_denies_is_not_executable_by_the_reader(server: Server, seeded: str,
                                                                          sandbox: Sandbox) -> None:
    """The whole denylist, every overload, as the catalog sees it: the two layers cannot disagree."""
    from heron_pipeline.sandbox.guard import function_denied

    with server.connect(seeded) as conn:
        rows = conn.execute("SELECT p.oid::regprocedure::text, p.proname, has_function_privilege(%s, p.oid, "
                            "'EXECUTE') FROM pg_proc p", (TEST_ROLE,)).fetchall()
    denied = [(signature, executable) for signature, name, executable in rows if function_denied(name)]
    assert len(denied) > 100
    assert [signature for signature, executable in denied if executable] == []
    # and the ordinary functions predictions use stay callable
    allowed = {name for _, name, executable in rows if executable}
    assert {"count", "lower", "date_trunc", "generate_series", "current_setting", "now"} <= allowed


def test_the_watchdog_cancels_when_the_server_would_not(server: Server) -> None:
    """A superuser session with no timeout at all: only the client-side watchdog can stop it."""
    with psycopg.connect(server.dsn(), autocommit=True) as conn:
        conn.execute("SET statement_timeout = 0")
        started = time.perf_counter()
        with _Watchdog(conn, 0.5) as watchdog, pytest.raises(psycopg.errors.QueryCanceled) as caught:
            conn.execute("SELECT pg_sleep(10)")
        assert time.perf_counter() - started < 3.0
        assert watchdog.fired.is_set()
        assert isinstance(_classify(caught.value, watchdog.fired.is_set()), Timeout)
        assert conn.execute("SELECT 1").fetchone() == (1,)


# -- Hardening II: what a prediction may see of the server -------------------------------------------

#: Each names other databases (every state's name, a hidden state's included), shows the server's
#: settings or other sessions, or tests whether a guessed database name exists.
HIDDEN_READS = [
    "SELECT datname FROM pg_database",
    "SELECT datname FROM pg_stat_database",
    "SELECT datname FROM pg_stat_database_conflicts",
    "SELECT description FROM pg_shdescription",
    "SELECT name, setting FROM pg_settings",
    "SELECT * FROM pg_show_all_settings()",
    "SELECT datname, application_name FROM pg_stat_activity",
    "SELECT * FROM pg_stat_get_activity(NULL)",
    "SELECT pg_database_size('postgres')",
    "SELECT has_database_privilege('heron_tiny_43', 'CONNECT')",
    "SELECT setdatabase FROM pg_db_role_setting",
    "SELECT database FROM pg_prepared_xacts",
]


@pytest.mark.parametrize("statement", HIDDEN_READS)
def test_the_reader_cannot_list_databases_settings_or_sessions(reader: psycopg.Connection, statement: str) -> None:
    with pytest.raises(psycopg.errors.InsufficientPrivilege, match="permission denied"):
        reader.execute(statement)


def test_what_a_query_over_the_benchmark_needs_stays_readable(reader: psycopg.Connection, seeded: str) -> None:
    assert reader.execute("SELECT count(*) FROM information_schema.columns WHERE table_schema = 'orders'"
                          ).fetchone()[0] > 0
    assert reader.execute("SELECT count(*) FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace "
                          "WHERE n.nspname = 'orders'").fetchone()[0] > 0
    assert reader.execute("SELECT format_type(23, NULL), current_setting('TimeZone')").fetchone() == ("integer", "UTC")
    # the database the query runs on is still its own name (see docs/METHODOLOGY.md §12)
    assert reader.execute("SELECT current_database()").fetchone() == (seeded,)


def test_a_prediction_reading_the_database_list_is_rejected(sandbox: Sandbox) -> None:
    from heron_pipeline.sandbox.errors import Rejected

    for parser in (True, False):
        with pytest.raises(Rejected, match="pg_database|permission denied"):
            run_prediction("SELECT datname FROM pg_database", dsn=sandbox.dsn, limits=sandbox.limits, parser=parser)
