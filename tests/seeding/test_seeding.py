"""The generator end to end on a real server: determinism, variation, integrity, crash safety.

Builds tiny/42 twice (once with other worker and batch settings), tiny/43 and tiny/44 once; each
build takes seconds, so the module shares them.
"""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import threading
import time

from pathlib import Path

import numpy as np
import psycopg
import pytest

from heron_pipeline.database.fingerprint import RowDigest, RowDigestsAsLoaded, fingerprint_database, tables_with_keys
from heron_pipeline.database.names import BUILD_FOREIGN_KEYS, BUILD_LOADER, BUILD_ROW_DIGESTS, build_database
from heron_pipeline.database.server import Server
from heron_pipeline.seeding.build import build
from heron_pipeline.seeding.generate import Generator
from heron_pipeline.seeding.special import ANCHOR_TENANTS
from heron_pipeline.seeding.verify import verify_database
from heron_pipeline.catalog import load_catalog


@pytest.fixture(scope="module")
def built(server: Server) -> dict[int, str]:
    digests, taken = {}, {}
    for seed in (42, 43, 44):
        taken[seed] = build(server, "tiny", seed).fingerprint
        digests[seed] = fingerprint_database(server.benchmark_dsn("tiny", seed)).digest
    # The build hashes each table's rows while it loads (RowDigestsAsLoaded, libpq directly, in
    # another process): its fingerprint must be the standalone pass's, byte for byte.
    assert taken == digests, "the build's own fingerprint differs from the standalone pass"
    return digests


def test_build_fingerprints_are_the_committed_ones(built: dict[int, str]) -> None:
    """The tiny states' fingerprints are those in submissions/expected_fingerprints.json, so taking
    the fingerprint during the build did not change its definition."""
    expected = json.loads((Path(__file__).resolve().parents[2] / "submissions" / "expected_fingerprints.json")
                          .read_text(encoding="utf-8"))["states"]["tiny"]
    assert built == {int(seed): digest for seed, digest in expected.items()}


def test_fingerprint_rehashes_a_table_whose_order_changed(server: Server, built: dict[int, str]) -> None:
    """A row digest taken under other ordering columns, or a wrong one for a table that is not
    offered again, is not trusted blindly: the first is hashed again, so the digest is right;
    the second is used (the caller vouches for it) and moves the digest."""
    dsn = server.benchmark_dsn("tiny", 42)
    standalone = fingerprint_database(dsn)
    table = next(iter(standalone.tables))
    other_keys = fingerprint_database(dsn, known={table: RowDigest(("no_such_column",), "0" * 64)})
    assert other_keys.digest == built[42]
    keys = _ordering_keys(dsn, table)
    wrong = fingerprint_database(dsn, known={table: RowDigest(keys, "0" * 64)})
    assert wrong.digest != built[42] and wrong.tables[table] == "0" * 64


def test_row_digests_process_matches_the_standalone_pass_and_reports_failures(server: Server,
                                                                            built: dict[int, str]) -> None:
    dsn = server.benchmark_dsn("tiny", 43)
    standalone = fingerprint_database(dsn)
    some = sorted(standalone.tables)[:3]
    digests = RowDigestsAsLoaded(dsn)
    digests.loaded(some[:1])
    digests.loaded(some[1:])
    assert {t: d.digest for t, d in digests.close().items()} == {t: standalone.tables[t] for t in some}
    failing = RowDigestsAsLoaded(dsn)
    failing.loaded(["nowhere.no_table"])
    with pytest.raises(RuntimeError, match="no_table"):
        failing.close()


def test_an_abandoned_digest_process_stops_even_under_a_parent_that_ignores_sigterm(server: Server,
                                                                                     built: dict[int, str]) -> None:
    """A build run by a process that ignores SIGTERM passes that on to the digest process; when the
    server was killed, ``abandon`` then waited for ever for a process that idled between batches
    (tests/database/test_fault_injection.py hung so in a full suite)."""
    previous = signal.signal(signal.SIGTERM, signal.SIG_IGN)
    try:
        digests = RowDigestsAsLoaded(server.benchmark_dsn("tiny", 43))
    finally:
        signal.signal(signal.SIGTERM, previous)
    stopper = threading.Thread(target=digests.abandon, daemon=True)
    stopper.start()
    stopper.join(30)
    assert not stopper.is_alive(), "abandon() still waits for the digest process after 30 s"
    assert not digests.process.is_alive()


def _ordering_keys(dsn: str, table: str) -> tuple[str, ...]:
    with psycopg.connect(dsn) as conn:
        ((_schema, _table, keys),) = tables_with_keys(conn, [table])
    return tuple(keys)


def test_rebuild_with_other_workers_and_batches_gives_the_same_fingerprint(server: Server, built: dict[int, str]) -> None:
    """Also: while it loads, each of the build's connections says what it does in pg_stat_activity
    (database/names.py; benchmarks/bench_seed_build.py --roles splits the server's CPU by them)."""
    named: set[str] = set()
    wanted = {BUILD_LOADER, BUILD_FOREIGN_KEYS, BUILD_ROW_DIGESTS}

    def look(_table: str, _rows: int, _seconds: float) -> None:
        if not wanted <= named:  # the digest process may connect after the first tables are in
            with server.connect() as conn:
                named.update(name for (name,) in conn.execute(
                    "SELECT application_name FROM pg_stat_activity WHERE datname = %s", (build_database("tiny", 42),)))

    assert build(server, "tiny", 42, workers=1, batch_blocks=1, progress=look).fingerprint == built[42]
    assert fingerprint_database(server.benchmark_dsn("tiny", 42)).digest == built[42]
    assert wanted <= named, named


def test_seeds_differ_in_data_and_counts(server: Server, built: dict[int, str]) -> None:
    assert len(set(built.values())) == 3
    totals = {seed: Generator.for_state("tiny", seed).plan.total_rows for seed in built}
    assert len(set(totals.values())) == 3
    with server.connect("heron_tiny_42") as a, server.connect("heron_tiny_43") as b:
        query = "SELECT count(*) FROM orders.orders"
        assert a.execute(query).fetchone() != b.execute(query).fetchone()


def test_tiny_is_in_its_row_band() -> None:
    total = Generator.for_state("tiny", 42).plan.total_rows
    assert 150_000 <= total <= 250_000, total


@pytest.mark.parametrize("seed", [42, 43, 44])
def test_anchor_tenants_exist_in_every_seed(server: Server, built: dict[int, str], seed: int) -> None:
    with server.connect(f"heron_tiny_{seed}") as conn:
        rows = conn.execute("SELECT id, name FROM tenancy.tenants WHERE id <= %s ORDER BY id", (len(ANCHOR_TENANTS),)).fetchall()
        assert [name for _, name in rows] == [a[0] for a in ANCHOR_TENANTS]
        sizes = [conn.execute("SELECT count(*) FROM orders.orders WHERE tenant_id = %s", (tid,)).fetchone()[0]
                 for tid, _ in rows]
        assert sizes[0] == max(sizes), "the first anchor is the largest tenant"


@pytest.mark.parametrize("seed", [42, 43, 44])
def test_verify_data_passes(server: Server, built: dict[int, str], seed: int) -> None:
    with server.connect(f"heron_tiny_{seed}") as conn:
        report = verify_database(conn, load_catalog())
    assert report.ok, report.violations[:10]
    assert report.soft_delete_rates and all(0.01 <= r <= 0.12 for r in report.soft_delete_rates.values())


def test_verify_data_fails_on_a_corrupted_row(server: Server, built: dict[int, str]) -> None:
    server.drop_database("heron_corrupt")
    with server.connect() as conn:
        conn.execute("CREATE DATABASE heron_corrupt TEMPLATE heron_tiny_44")
    with server.connect("heron_corrupt") as conn:
        conn.execute("ALTER TABLE orders.order_lines DROP CONSTRAINT order_lines_order_id_fkey")
        conn.execute("UPDATE orders.order_lines SET order_id = 999999999 WHERE id = (SELECT min(id) FROM orders.order_lines)")
        report = verify_database(conn, load_catalog())
    server.drop_database("heron_corrupt")
    assert any("order_lines.order_id" in v for v in report.violations)


def test_tenant_sizes_are_zipf_skewed(server: Server, built: dict[int, str]) -> None:
    with server.connect("heron_tiny_42") as conn:
        counts = [r[0] for r in conn.execute(
            "SELECT count(*) FROM orders.orders GROUP BY tenant_id ORDER BY 1 DESC").fetchall()]
    assert counts[0] > 3 * np.median(counts)


def _wait_until_midway(server: Server, database: str, proc: subprocess.Popen, timeout: float = 120.0) -> None:
    """Block until the build has committed some rows but is not finished (a fixed sleep would race a
    fast machine to the end of the build)."""
    import psycopg

    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        assert proc.poll() is None, "the build finished before it could be killed mid-way"
        if server.database_exists(database):
            try:
                with psycopg.connect(server.dsn(database), connect_timeout=2) as conn:
                    if conn.execute("SELECT count(*) FROM tenancy.tenants").fetchone()[0] > 0:
                        return
            except psycopg.Error:
                pass  # schema still loading
        time.sleep(0.05)
    raise AssertionError("the build never reached its first committed rows")


def test_killed_build_leaves_no_finished_database_and_rerun_matches(server: Server, built: dict[int, str],
                                                                     settings) -> None:
    env = {"HERON_DATA_DIR": str(settings.data_dir), "HERON_PORT": str(settings.port), "PATH": "/usr/bin:/bin"}
    if settings.dsn:
        env["HERON_DSN"] = settings.dsn
    server.drop_database("heron_tiny_44")
    proc = subprocess.Popen([sys.executable, "-m", "heron_pipeline.cli", "seed", "--scale", "tiny", "--seed", "44"],
                            env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _wait_until_midway(server, "heron_build_tiny_44", proc)
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    assert not server.database_exists("heron_tiny_44"), "a killed build must not leave a finished database"
    build(server, "tiny", 44)
    assert fingerprint_database(server.benchmark_dsn("tiny", 44)).digest == built[44]
