"""A prediction sees one database; the cli DSN opens one database with bounds it cannot move (issue 33).

The enumeration test calls every function the sandbox's roles may EXECUTE and reads every catalog and
information_schema view they may SELECT, looking for a canary database's name or OID or an existence
oracle (tests/sandbox/database_leaks.py says how, and what it skips and why)."""

from __future__ import annotations

import logging

import psycopg
import pytest
from psycopg import sql

from heron_pipeline.database.server import Server
from heron_pipeline.sandbox.cli_role import CLI_ROLE, CliAccess
from heron_pipeline.sandbox.errors import Rejected
from heron_pipeline.sandbox.execute import Sandbox, prepare_sandbox
from heron_pipeline.sandbox.guard import check_sql
from heron_pipeline.sandbox.roles import per_database_settings, sandbox_drift

from conftest import TEST_LIMITS, TEST_ROLE
from database_leaks import canary_facts, confirm_oracles, enumerate_leaks, hold_canary, make_canary

OTHER = "heron_other_state_issue33"

#: The issue's four probes (names of every database; an existence oracle for a guessed name).
PROBES = {
    "pg_describe_object": "SELECT pg_describe_object(1262, o, 0) FROM pg_tablespace_databases(1663) o",
    "pg_identify_object": "SELECT (pg_identify_object(1262, o, 0)).identity FROM pg_tablespace_databases(1663) o",
    "pg_identify_object_as_address": "SELECT (pg_identify_object_as_address(1262, o, 0)).object_names "
                                     "FROM pg_tablespace_databases(1663) o",
    "pg_get_object_address": f"SELECT objid FROM pg_get_object_address('database', '{{{OTHER}}}', '{{}}')",
}


@pytest.fixture(scope="module")
def other_state(server: Server, seeded: str):
    """A second database on the server, standing for another (hidden) state."""
    with server.connect() as admin:
        admin.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(OTHER)))
        admin.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(OTHER)))
    yield OTHER
    with server.connect() as admin:
        admin.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(OTHER)))


@pytest.fixture(scope="module")
def cli(server: Server, seeded: str, other_state: str) -> CliAccess:
    access = CliAccess(server.dsn(seeded), server.settings.reader_password, TEST_LIMITS)
    access.reset()
    return access


@pytest.mark.parametrize("role_kind", ["sandbox", "cli"])
def test_no_function_or_view_names_or_tests_another_database(server: Server, sandbox: Sandbox, cli: CliAccess,
                                                             role_kind: str) -> None:
    dsn, role = (sandbox.dsn, TEST_ROLE) if role_kind == "sandbox" else (cli.dsn, CLI_ROLE)
    with server.connect() as admin:
        name = make_canary(admin)
        try:
            holder = hold_canary(server.dsn(name), role)
            try:
                canary = canary_facts(admin, name, holder)
                with psycopg.connect(dsn) as conn:
                    result = enumerate_leaks(conn, role, canary)
            finally:
                holder.close()
            admin.execute(sql.SQL("DROP DATABASE {} WITH (FORCE)").format(sql.Identifier(name)))
            with psycopg.connect(dsn) as conn:
                confirm_oracles(conn, canary, result)
        finally:
            admin.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name)))
    skipped = {reason: len(names) for reason, names in result.skipped.items()}
    print(f"\n{role}: {result.functions_checked} functions called ({result.calls} calls), "
          f"{result.views_checked} catalog and information_schema views read; skipped {skipped}")
    # The enumeration really ran: PostgreSQL 16-18 give the reader well over 2,000 callable functions.
    assert result.functions_checked > 2000 and result.views_checked > 100
    assert result.leaks == []


@pytest.mark.parametrize("probe", sorted(PROBES))
def test_the_issue_probes_are_refused_by_the_guard(probe: str) -> None:
    with pytest.raises(Rejected, match="not allowed"):
        check_sql(PROBES[probe])


@pytest.mark.parametrize("probe", sorted(PROBES))
def test_the_issue_probes_are_refused_by_the_privileges(sandbox: Sandbox, other_state: str, probe: str) -> None:
    """Without the guard (plain psycopg as the reader): PostgreSQL itself refuses them."""
    with psycopg.connect(sandbox.dsn) as conn, pytest.raises(psycopg.errors.InsufficientPrivilege):
        conn.execute(PROBES[probe]).fetchall()


@pytest.mark.parametrize("text", [
    'SELECT * FROM U&"pg_lock\\0073"',
    'SELECT U&"pg_describe\\005Fobject"(1262, 1, 0)',
    "SELECT * FROM pg_catalog.pg_shdepend",
    "SELECT pg_stat_get_db_numbackends(1)",
    "SELECT pg_stat_get_backend_dbid(1)",
])
def test_the_guard_refuses_the_names_also_written_with_escapes(text: str) -> None:
    with pytest.raises(Rejected):
        check_sql(text)


def test_the_cli_dsn_opens_only_its_state(server: Server, cli: CliAccess, seeded: str, other_state: str) -> None:
    with psycopg.connect(cli.dsn) as conn:
        assert conn.execute("SELECT current_user, current_database()").fetchone() == (CLI_ROLE, seeded)
        assert conn.execute("SELECT count(*) FROM tenancy.tenants").fetchone()[0] > 0
        with pytest.raises(psycopg.errors.ReadOnlySqlTransaction):
            conn.execute("DELETE FROM tenancy.tenants")
    for database in ("postgres", "template1", other_state):
        with pytest.raises(psycopg.OperationalError, match="permission denied for database"):
            psycopg.connect(psycopg.conninfo.make_conninfo(cli.dsn, dbname=database)).close()
    # heron's own sessions are unaffected: the admin anywhere, the sandbox reader on its state.
    with server.connect() as admin:
        assert admin.execute("SELECT 1").fetchone() == (1,)


def test_the_cli_login_cannot_move_the_sandbox_bounds(server: Server, sandbox: Sandbox, cli: CliAccess,
                                                      seeded: str) -> None:
    with psycopg.connect(cli.dsn, autocommit=True) as conn:
        conn.execute("SET default_transaction_read_only = off")
        for statement in (f"ALTER ROLE {TEST_ROLE} IN DATABASE {seeded} SET work_mem = '2GB'",
                          f"ALTER ROLE {TEST_ROLE} SET work_mem = '2GB'"):
            with pytest.raises(psycopg.errors.InsufficientPrivilege):
                conn.execute(statement)
        # What it may do to its own login is put back, and named.
        conn.execute(f"ALTER ROLE CURRENT_USER IN DATABASE {seeded} SET work_mem = '2GB'")
        conn.execute("ALTER ROLE CURRENT_USER SET max_parallel_workers_per_gather = 8")
    left = cli.tampered()
    assert any("work_mem=2GB" in item for item in left) and any("max_parallel" in item for item in left)
    cli.reset()
    assert cli.tampered() == []
    assert sandbox.run("SELECT current_setting('work_mem') AS w").rows == [(TEST_LIMITS.work_mem,)]


def test_a_per_database_setting_on_the_sandbox_role_is_found_repaired_and_never_used(
        server: Server, sandbox: Sandbox, seeded: str, caplog: pytest.LogCaptureFixture) -> None:
    """The old attack with the reader's own login: its per-database default is overridden in every
    prediction's session, the drift check lists it, and the next setup resets it with one line."""
    with psycopg.connect(sandbox.dsn, autocommit=True) as conn:
        conn.execute("SET default_transaction_read_only = off")
        conn.execute(f"ALTER ROLE CURRENT_USER IN DATABASE {seeded} SET work_mem = '2GB'")
        conn.execute(f"ALTER ROLE CURRENT_USER IN DATABASE {seeded} SET max_parallel_workers_per_gather = 8")
    try:
        shown = sandbox.run("SELECT current_setting('work_mem') AS w, "
                            "current_setting('max_parallel_workers_per_gather') AS p, "
                            "current_setting('statement_timeout') AS t")
        assert shown.rows == [(TEST_LIMITS.work_mem, "0", "1500ms")]
        with server.connect(seeded) as admin:
            drift = [s.as_string(admin) for s in sandbox_drift(admin, TEST_LIMITS, role=TEST_ROLE)]
            assert drift == [f'ALTER ROLE "{TEST_ROLE}" IN DATABASE "{seeded}" RESET ALL']
        with caplog.at_level(logging.WARNING):
            prepare_sandbox(server, seeded, limits=TEST_LIMITS, role=TEST_ROLE)
        assert any("work_mem=2GB" in r.getMessage() and "reset" in r.getMessage() for r in caplog.records)
    finally:
        with server.connect(seeded) as admin:
            admin.execute(sql.SQL("ALTER ROLE {} IN DATABASE {} RESET ALL").format(
                sql.Identifier(TEST_ROLE), sql.Identifier(seeded)))
            assert per_database_settings(admin, TEST_ROLE) == []
