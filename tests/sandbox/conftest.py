"""A seeded tiny database and a prepared sandbox on the session's test server, shared by the module
files here. The caps are tightened so timeouts and limits trip in about a second."""

from __future__ import annotations

import pytest

from heron_pipeline.database.server import Server
from heron_pipeline.sandbox.execute import Sandbox, prepare_sandbox
from heron_pipeline.sandbox.limits import Limits

SCALE, SEED = "tiny", 42
DATABASE = f"heron_{SCALE}_{SEED}"
TEST_ROLE = "heron_reader_test"

TEST_LIMITS = Limits(statement_timeout_s=1.5, lock_timeout_s=1.0, watchdog_grace_s=2.0, max_rows=100_000,
                     max_bytes=8 * 1024 * 1024, work_mem="4MB", temp_file_limit="20MB", max_concurrent=4,
                     queue_timeout_s=120.0)


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "fault_injection: the issue-11 fault-injection suite (concurrency, hostile "
                                       "load); runs in CI")


@pytest.fixture(scope="session")
def seeded(server: Server) -> str:
    """heron_tiny_42 on the test server (built once per session; ~15 s)."""
    from heron_pipeline.seeding.build import build

    if not server.database_exists(DATABASE):
        build(server, SCALE, SEED)
    return DATABASE


@pytest.fixture(scope="session")
def sandbox(server: Server, seeded: str) -> Sandbox:
    """The caps live on the role, cluster-wide: the tests use their own role so that ``heron query``
    (which sets up ``heron_reader`` with the default caps) cannot change them mid-session."""
    return prepare_sandbox(server, seeded, limits=TEST_LIMITS, role=TEST_ROLE)
