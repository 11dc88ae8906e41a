"""The sandbox under concurrency (issue 11, items 1 and 3): role setup races, hostile load beside
benign work, and what the client holds while fetching a result over its cap.

Everything runs against the session's real server. The races are real threads doing what eight
``heron query`` processes or a bench's workers do; the memory figures are a child process's own
peak RSS (``ru_maxrss``), so libpq's buffers count as well as Python's objects.
"""

from __future__ import annotations

import json
import subprocess
import sys
import threading
from dataclasses import replace

import pytest

from heron_pipeline.database.server import Server
from heron_pipeline.harness.state_run import classify_failure
from heron_pipeline.sandbox.errors import LimitExceeded, SandboxError, SandboxUnavailable
from heron_pipeline.sandbox.execute import Sandbox, prepare_sandbox, run_prediction
from heron_pipeline.sandbox.roles import SETUP_LOCK, sandbox_drift

from conftest import TEST_LIMITS, TEST_ROLE

BENIGN = [
    "SELECT count(*) FROM orders.orders",
    "SELECT id, name FROM tenancy.tenants ORDER BY id",
    "SELECT count(*) FROM orders.order_lines",
    "SELECT tenant_id, count(*) FROM orders.orders GROUP BY tenant_id ORDER BY tenant_id",
]

#: Each holds a server backend until the statement timeout or a server-side cap stops it.
HOSTILE = [
    ("SELECT count(*) FROM orders.order_lines a, orders.order_lines b, orders.order_lines c", {"timeout"}),
    ("SELECT count(*) FROM (SELECT a.id, b.id FROM orders.order_lines a, orders.order_lines b "
     "ORDER BY 1 DESC, 2 DESC) s", {"limit", "timeout"}),
    ("WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r) SELECT count(*) FROM r", {"limit", "timeout"}),
    ("SELECT length(string_agg(repeat('x', 10000000), '')) FROM generate_series(1, 200)", {"limit", "timeout"}),
]


@pytest.fixture(scope="module")
def expected(server: Server, seeded: str) -> dict[str, list]:
    from heron_pipeline.results import execute_readonly

    with server.connect(seeded) as conn:
        return {sql: execute_readonly(conn, sql).rows for sql in BENIGN}


def _all_at_once(jobs: list) -> list:
    """Run every zero-argument job in its own thread, released together; results or exceptions."""
    barrier = threading.Barrier(len(jobs))
    out: list = [None] * len(jobs)

    def one(index: int) -> None:
        barrier.wait()
        try:
            out[index] = jobs[index]()
        except Exception as exc:  # noqa: BLE001 - collected and asserted on below
            out[index] = exc

    threads = [threading.Thread(target=one, args=(i,)) for i in range(len(jobs))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=300)
    return out


def _check(sqls: list[str], outcomes: list, expected: dict[str, list], hostile: int) -> None:
    wrong = []
    for index, (sql, outcome) in enumerate(zip(sqls, outcomes)):
        if index < hostile:
            kinds = dict(HOSTILE)[sql]
            if not isinstance(outcome, SandboxError) or outcome.kind not in kinds:
                wrong.append(f"hostile {sql[:40]}: expected {sorted(kinds)}, got {outcome!r}"[:200])
        elif isinstance(outcome, BaseException) or outcome.rows != expected[sql]:
            wrong.append(f"benign {sql[:40]}: {outcome!r}"[:200])
    assert wrong == []


@pytest.mark.fault_injection
def test_8_hostile_and_16_benign_on_one_sandbox_every_benign_one_succeeds(sandbox: Sandbox, expected) -> None:
    """A bench's workers share one Sandbox: its slots queue the work; none of it fails."""
    sqls = [sql for sql, _ in HOSTILE] * 2 + BENIGN * 4
    outcomes = _all_at_once([lambda sql=sql: sandbox.run(sql) for sql in sqls])
    _check(sqls, outcomes, expected, hostile=8)


@pytest.mark.fault_injection
def test_8_hostile_and_16_benign_each_preparing_its_own_sandbox(server: Server, seeded: str, expected) -> None:
    """What 24 ``heron query`` processes do: each prepares the sandbox (the role setup races) and
    runs one prediction; the role's connection limit makes the 24 queue for 4 server slots."""
    sqls = [sql for sql, _ in HOSTILE] * 2 + BENIGN * 4

    def job(sql: str):
        return prepare_sandbox(server, seeded, limits=TEST_LIMITS, role=TEST_ROLE).run(sql)

    outcomes = _all_at_once([lambda sql=sql: job(sql) for sql in sqls])
    _check(sqls, outcomes, expected, hostile=8)


def test_setting_up_a_new_role_from_8_threads_at_once_fails_none(server: Server, seeded: str, expected) -> None:
    """Eight first-time setups race: one changes the catalogs under the lock, the rest find it done."""
    role = "heron_reader_race"
    with server.connect() as conn:
        assert conn.execute("SELECT 1 FROM pg_roles WHERE rolname = %s", (role,)).fetchone() is None
    try:
        outcomes = _all_at_once([lambda: prepare_sandbox(server, seeded, limits=TEST_LIMITS, role=role).run(BENIGN[0])
                                 for _ in range(8)])
        assert [o if isinstance(o, BaseException) else o.rows for o in outcomes] == [expected[BENIGN[0]]] * 8
        with server.connect(seeded) as conn:
            assert sandbox_drift(conn, TEST_LIMITS, role=role) == []
    finally:
        with server.connect(seeded) as conn:
            conn.execute(f"DROP OWNED BY {role}")
        with server.connect() as conn:
            conn.execute(f"DROP OWNED BY {role}")
            conn.execute(f"DROP ROLE IF EXISTS {role}")


def test_repairing_drift_never_revokes_what_a_running_query_reads(server: Server, seeded: str, sandbox: Sandbox,
                                                                 expected) -> None:
    """Someone grants the reader INSERT (drift); setups repair it while queries read the same tables.
    Revoking only INSERT, in one transaction, leaves SELECT in place throughout."""
    stop = threading.Event()
    failures: list[str] = []

    def drift_and_repair() -> None:
        while not stop.is_set():
            # The drift is made under the setup lock too, or it would race the repairs' GRANTs.
            with server.connect(seeded) as conn, server.connect() as lock:
                lock.execute("SELECT pg_advisory_lock(%s, %s)", SETUP_LOCK)
                try:
                    conn.execute(f"GRANT INSERT, UPDATE ON ALL TABLES IN SCHEMA orders TO {TEST_ROLE}")
                finally:
                    lock.execute("SELECT pg_advisory_unlock(%s, %s)", SETUP_LOCK)
            try:
                prepare_sandbox(server, seeded, limits=TEST_LIMITS, role=TEST_ROLE)
            except SandboxError as err:
                failures.append(err.line())

    def read() -> None:
        for _ in range(15):
            for sql in (BENIGN[0], BENIGN[2], BENIGN[3]):
                try:
                    if sandbox.run(sql).rows != expected[sql]:
                        failures.append(f"wrong rows for {sql}")
                except SandboxError as err:
                    failures.append(err.line())

    repairers = [threading.Thread(target=drift_and_repair) for _ in range(2)]
    readers = [threading.Thread(target=read) for _ in range(3)]
    for thread in repairers + readers:
        thread.start()
    for thread in readers:
        thread.join(timeout=300)
    stop.set()
    for thread in repairers:
        thread.join(timeout=300)
    assert failures == []
    with server.connect(seeded) as conn:
        assert sandbox_drift(conn, TEST_LIMITS, role=TEST_ROLE) == []
        assert conn.execute("SELECT has_table_privilege(%s, 'orders.orders', 'INSERT'), "
                            "has_table_privilege(%s, 'orders.orders', 'SELECT')", (TEST_ROLE, TEST_ROLE)).fetchone() \
            == (False, True)


def test_prepare_checks_first_and_changes_nothing_when_in_place(server: Server, seeded: str, sandbox: Sandbox) -> None:
    from heron_pipeline.sandbox.roles import ensure_sandbox

    with server.connect(seeded) as conn, server.connect() as lock:
        assert sandbox_drift(conn, TEST_LIMITS, role=TEST_ROLE) == []
        assert ensure_sandbox(conn, lock, TEST_LIMITS, role=TEST_ROLE) == 0


def test_a_setup_that_cannot_finish_is_unavailable_and_stops_the_run(server: Server, seeded: str) -> None:
    """Another setup holds the lock past our wait: the sandbox is unavailable, which the harness
    does not classify as the prediction's failure (it re-raises and the run stops)."""
    role = "heron_reader_blocked"
    with server.connect() as holder:
        holder.execute("SELECT pg_advisory_lock(%s, %s)", SETUP_LOCK)
        try:
            with pytest.raises(SandboxUnavailable) as caught:
                prepare_sandbox(server, seeded, limits=replace(TEST_LIMITS, queue_timeout_s=0.5), role=role)
        finally:
            holder.execute("SELECT pg_advisory_unlock(%s, %s)", SETUP_LOCK)
    assert caught.value.line().startswith("unavailable: sandbox role setup failed on heron_tiny_42")
    assert classify_failure(caught.value) is None
    with server.connect() as conn:
        assert conn.execute("SELECT 1 FROM pg_roles WHERE rolname = %s", (role,)).fetchone() is None


def test_a_server_that_refuses_the_reader_is_unavailable(sandbox: Sandbox) -> None:
    with pytest.raises(SandboxUnavailable):
        run_prediction("SELECT 1", dsn="host=127.0.0.1 port=1 user=nobody dbname=none connect_timeout=1")


# -- item 3: the client's memory ---------------------------------------------------------------------

_CHILD = r"""
import json, resource, sys
from heron_pipeline.sandbox.errors import SandboxError
from heron_pipeline.sandbox.execute import run_prediction
from heron_pipeline.sandbox.limits import Limits
dsn, cap, sql = sys.argv[1], int(sys.argv[2]), sys.argv[3]
limits = Limits(statement_timeout_s=120, max_bytes=cap, max_concurrent=4)
run_prediction("SELECT g, repeat('x', 100) FROM generate_series(1, 100) g", dsn=dsn, limits=limits)
base = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
try:
    outcome = "ok %d rows" % len(run_prediction(sql, dsn=dsn, limits=limits).rows)
except SandboxError as err:
    outcome = err.line()
print(json.dumps({"grown_kib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - base, "outcome": outcome}))
"""


@pytest.mark.parametrize(("sql", "cap_mib"), [
    # The query, 10 rows of 100 MB, at the default cap: refused at its first value.
    ("SELECT g, repeat('x', 100000000) FROM generate_series(1, 10) g", 256),
    # 100 rows of 10 MB under a 64 MiB cap: every value passes, the running total stops the fetch.
    ("SELECT g, repeat('x', 10000000) FROM generate_series(1, 100) g", 64),
])
def test_a_fetch_over_the_cap_keeps_the_client_under_twice_the_cap(sandbox: Sandbox, sql: str, cap_mib: int) -> None:
    done = subprocess.run([sys.executable, "-c", _CHILD, sandbox.dsn, str(cap_mib << 20), sql],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert report["outcome"].startswith("limit:"), report
    assert report["grown_kib"] < 2 * cap_mib * 1024, report


def test_one_value_over_the_value_cap_is_a_limit(sandbox: Sandbox) -> None:
    with pytest.raises(LimitExceeded, match="cap on one value"):
        sandbox.run("SELECT 1 AS a, repeat('x', 9000000) AS b")  # 9 MB > the 8 MiB test cap
    with pytest.raises(LimitExceeded, match="more than 8,388,608 bytes"):
        sandbox.run("SELECT repeat('x', 1000000) FROM generate_series(1, 9)")  # 9 values of 1 MB
    assert len(sandbox.run("SELECT repeat('x', 1000000) FROM generate_series(1, 7)").rows) == 7


def test_the_streamed_fetch_keeps_types_and_empty_results(sandbox: Sandbox, server: Server, seeded: str) -> None:
    sql = ("SELECT id, name, created_at, ARRAY[id, id] AS pair, 1.50::numeric(6,2) AS price, NULL::text AS nothing "
           "FROM tenancy.tenants ORDER BY id")
    result = sandbox.run(sql)
    with server.connect(seeded) as conn:
        assert result.rows == conn.execute(sql).fetchall()
    assert [c.type for c in result.columns][3:] == ["bigint[]", "numeric", "text"]
    empty = sandbox.run("SELECT id FROM tenancy.tenants WHERE false")
    assert empty.rows == [] and [c.name for c in empty.columns] == ["id"]
    with pytest.raises(SandboxError, match="division by zero"):
        sandbox.run("SELECT 1 / 0")


# -- Hardening II: the wait for a slot is said, once ----------------------------------------------------

def test_a_query_waiting_for_a_slot_says_so_once(server: Server, seeded: str) -> None:
    """Every connection the role may hold is taken (its CONNECTION LIMIT is 1 here): the query
    says once that it waits and how many are busy, then runs when the slot frees (it used to wait
    without a word, 29.8 s in the issue)."""
    import logging

    import psycopg

    limits = replace(TEST_LIMITS, max_concurrent=1)
    sandbox = prepare_sandbox(server, seeded, limits=limits, role="heron_reader_one_slot")
    records: list[logging.LogRecord] = []
    handler = logging.Handler()
    handler.emit = records.append  # type: ignore[method-assign]
    logger = logging.getLogger("heron_pipeline.sandbox.execute")
    logger.addHandler(handler)
    try:
        holder = psycopg.connect(sandbox.dsn)  # the one slot, held by "another process"
        outcome: list = []
        waiter = threading.Thread(target=lambda: outcome.append(sandbox.run("SELECT 42")))
        waiter.start()
        waiter.join(timeout=1.5)
        assert waiter.is_alive(), "the query did not wait for the slot"
        holder.close()
        waiter.join(timeout=60)
    finally:
        logger.removeHandler(handler)
    assert outcome and outcome[0].rows == [(42,)]
    lines = [r.getMessage() for r in records]
    assert len(lines) == 1, lines
    assert lines[0].startswith("waiting for a sandbox slot: 1 of the 1 connections the reader role "
                               "heron_reader_one_slot may hold (its CONNECTION LIMIT) are busy"), lines
    assert f"waits up to {limits.queue_timeout_s:g} s" in lines[0]


# -- Hardening II: one value over the cap never reaches the client -------------------------------------

def test_a_value_over_the_cap_is_refused_by_the_server_before_it_is_sent(sandbox: Sandbox) -> None:
    """A 60 MB value under a 16 MiB cap: the server refuses the row, so the client's peak memory
    does not grow by the value (it grew by ~114 MiB, libpq's buffer and result, when only the
    client checked it), and the failure is still a ``limit``."""
    sql = "SELECT 1 AS n, string_agg(repeat('y', 1000000), '') AS big FROM generate_series(1, 60)"
    done = subprocess.run([sys.executable, "-c", _CHILD, sandbox.dsn, str(16 << 20), sql],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert report["outcome"] == ("limit: a value of 60,000,000 bytes (column big) is over the 16,777,216-byte cap on "
                                 "one value (refused by the server before it was sent)"), report
    assert report["grown_kib"] < 16 * 1024, report


def test_a_row_over_the_byte_cap_is_refused_by_the_server(sandbox: Sandbox) -> None:
    with pytest.raises(LimitExceeded, match="a row of 10,000,000 bytes is more than the 8,388,608-byte cap on the "
                                            "result \\(refused by the server"):
        sandbox.run("SELECT repeat('x', 5000000) AS a, 7 AS b, repeat('y', 5000000) AS c")
