"""The pieces of heron's one-line errors, case by case, and the state lock within one process."""

from __future__ import annotations

import logging
import threading
import time

import psycopg
import pytest

from heron_pipeline.database.errors import failure_reason, is_connect_failure, is_connection_lost, redacted_dsn
from heron_pipeline.database.server import Server
from heron_pipeline.database.state_lock import holding_name, state_lock, waiting_name


@pytest.mark.parametrize("dsn, shown", [
    ("postgresql://u:pw@db.example:5433/postgres", "postgresql://u:***@db.example:5433/postgres"),
    ("postgresql://u@db:5432/postgres", "postgresql://u@db:5432/postgres"),
    ("postgres://u:p%40ss@10.0.0.1/heron?sslmode=require", "postgres://u:***@10.0.0.1/heron?sslmode=require"),
    ("host=db user=u password=secret dbname=x", "host=db user=u password=*** dbname=x"),
    ("host=db password='a b' dbname=x", "host=db password=*** dbname=x"),
    ("host=db dbname=x", "host=db dbname=x"),
])
def test_redacted_dsn_hides_only_the_password(dsn: str, shown: str) -> None:
    assert redacted_dsn(dsn) == shown


@pytest.mark.parametrize("message, reason", [
    ('connection failed: connection to server at "127.0.0.1", port 1 failed: Connection refused\n'
     '\tIs the server running on that host and accepting TCP/IP connections?', "Connection refused"),
    ('connection failed: connection to server at "127.0.0.1", port 5432 failed: FATAL:  database "heron_tiny_9" '
     'does not exist', 'FATAL: database "heron_tiny_9" does not exist'),
    ('connection failed: connection to server at "db" (10.0.0.5), port 5432 failed: FATAL:  password '
     'authentication failed for user "u"', 'FATAL: password authentication failed for user "u"'),
    ("consuming input failed: server closed the connection unexpectedly\n\tThis probably means the server "
     "terminated abnormally\n\tbefore or while processing the request.", "server closed the connection unexpectedly"),
    ("failed to resolve host 'nohost.invalid': [Errno -2] Name or service not known",
     "failed to resolve host 'nohost.invalid': [Errno -2] Name or service not known"),
])
def test_failure_reason_keeps_the_part_a_user_acts_on(message: str, reason: str) -> None:
    assert failure_reason(psycopg.OperationalError(message)) == reason


@pytest.mark.parametrize("err, lost, connect", [
    (psycopg.OperationalError("consuming input failed: server closed the connection unexpectedly"), True, False),
    (psycopg.OperationalError("the connection is lost"), True, False),
    (psycopg.errors.AdminShutdown("terminating connection due to administrator command"), True, False),
    (psycopg.OperationalError('connection failed: connection to server at "h", port 1 failed: refused'), False, True),
    (psycopg.errors.UndefinedTable('relation "x" does not exist'), False, False),
    (ValueError("server closed the connection"), False, False),
])
def test_lost_connections_are_told_from_failed_statements(err: BaseException, lost: bool, connect: bool) -> None:
    assert is_connection_lost(err) is lost
    assert is_connect_failure(err) is connect


def _sessions(server: Server, name: str) -> int:
    with server.connect() as conn:
        return conn.execute("SELECT count(*) FROM pg_stat_activity WHERE application_name = %s",
                            (name,)).fetchone()[0]


def test_a_second_holder_waits_says_so_and_gets_the_lock_after(server: Server, caplog) -> None:
    got: list[float | None] = []
    release = threading.Event()

    def first() -> None:
        with state_lock(server, "large", 123) as waited:
            got.append(waited)
            release.wait(60)

    holder = threading.Thread(target=first)
    holder.start()
    deadline = time.monotonic() + 30
    while _sessions(server, holding_name("large", 123)) == 0:
        assert time.monotonic() < deadline
        time.sleep(0.05)
    def then() -> None:
        with state_lock(server, "large", 123) as waited:
            got.append(waited)

    second = threading.Thread(target=then)
    with caplog.at_level(logging.WARNING, logger="heron_pipeline"):
        second.start()
        while _sessions(server, waiting_name("large", 123)) == 0:
            assert time.monotonic() < deadline
            time.sleep(0.05)
        assert got == [None], "the second must not get the lock while the first holds it"
        release.set()
        holder.join()
        second.join(30)
    assert len(got) == 2 and got[1] is not None and got[1] > 0
    assert any("waiting: heron_large_123 is being built by another heron process" in r.getMessage()
               for r in caplog.records)
