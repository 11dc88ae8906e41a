"""Shared fixtures: one real PostgreSQL for the whole test session, never the user's.

The server runs from the embedded wheel on its own port and in a temporary data folder, so running
the tests never touches a developer's databases. ``HERON_TEST_DSN`` points the suite at an external
PostgreSQL 16+ instead (its maintenance database; the tests create and drop their own databases).

Parallel runs (``make test``: ``pytest -n 2``, pytest-xdist): every worker is a session of its own — its
own server, data folder, port, artifact roots and tmp folders — so no test shares a server, a database,
a role or a file with a test on another worker. Tests are handed out by group (the scheduler made by
``pytest_xdist_make_scheduler`` below): a module is one group, so its module fixtures are made once and
its tests keep their order; modules that reuse one costly session state (the small states) share a
group, so that state is built by one worker only (``SHARED_GROUPS``); the longest groups are handed out
first (``LONGEST_FIRST``) so no worker is left with a long one at the end. A new test needs nothing more;
a new module that builds a costly state another module also builds joins that module's group here, and
a new module of a minute or more joins ``LONGEST_FIRST``.
"""

from __future__ import annotations

import os
import shutil
import socket
import tempfile
from pathlib import Path

import pytest

from heron_pipeline.config import Settings
from heron_pipeline.database.server import Server


#: module -> group, for modules that must run on one worker with another module: they build the same
#: costly states into the session's server (small 42/43/44: minutes each on 2 cores).
SHARED_GROUPS = {
    "tests/bench/test_instances_audit.py": "small-states",
    "tests/submissions/test_committed.py": "small-states",
}
#: Groups in the order they are handed out first, longest first (measured with --durations, issue 30);
#: the other groups follow in collection order.
LONGEST_FIRST = (
    "small-states",
    "tests/defs/test_dagster_ui.py",
    "tests/hidden/test_hidden_board.py",
    "tests/bench/test_overlap.py",
    "tests/defs/test_celery.py",
    "tests/bench/test_object_store_bench.py",
    "tests/database/test_fault_injection.py",
    "tests/defs/test_flow.py",
)


def group_of(nodeid: str) -> str:
    """The group a test runs in: its module's, or the shared group its module joins."""
    module = nodeid.split("::", 1)[0]
    return SHARED_GROUPS.get(module, module)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Under xdist, the longest groups first (the scheduler hands groups out in collection order). A serial
    run keeps the collection order."""
    if os.environ.get("PYTEST_XDIST_WORKER"):
        rank = {group: i for i, group in enumerate(LONGEST_FIRST)}
        items.sort(key=lambda item: rank.get(group_of(item.nodeid), len(rank)))  # stable within a rank


@pytest.hookimpl(optionalhook=True)  # a hook of pytest-xdist (a run with -p no:xdist has no such hook)
def pytest_xdist_make_scheduler(config: pytest.Config, log):
    """xdist's module-scoped scheduling (``--dist loadscope``) with the groups above as scopes, handed out in
    collection order (its default hands out the modules with the most tests first)."""
    from xdist.scheduler import LoadScopeScheduling

    class GroupScheduling(LoadScopeScheduling):
        def _split_scope(self, nodeid: str) -> str:
            return group_of(nodeid)

    if config.getvalue("dist") == "each":
        return None
    config.option.loadscopereorder = False
    return GroupScheduling(config, log)


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.fixture(scope="session")
def free_port():
    """A function returning a TCP port nobody listens on right now (for servers a test starts)."""
    return _free_port


def server_dir() -> Path:
    """A data folder outside pytest's tmp tree: pytest resets its base folder to 0700 at every
    session start, which would lock the server's unprivileged account out mid-run."""
    return Path(tempfile.mkdtemp(prefix="heron-test-"))


@pytest.fixture
def pg_tmp() -> Path:
    path = server_dir()
    yield path
    shutil.rmtree(path, ignore_errors=True)


@pytest.fixture(scope="session")
def settings() -> Settings:
    """The test session's settings; its data folder (the server's databases, a few GB once the small
    states are built) is removed when the session ends, after the server fixture has stopped."""
    data_dir = server_dir()
    external = os.environ.get("HERON_TEST_DSN")
    yield Settings(dsn=external or None, data_dir=data_dir, port=_free_port())
    shutil.rmtree(data_dir, ignore_errors=True)


@pytest.fixture(scope="session")
def server(settings: Settings):
    server = Server(settings)
    server.up()
    yield server
    if settings.is_embedded:
        server.down()


@pytest.fixture(scope="session")
def schema_db(server: Server) -> str:
    """A database holding the schema only (both phases), loaded once per session."""
    from heron_pipeline.database.schema_load import load_schema

    name = "heron_test_schema"
    server.create_database(name, replace=True)
    with server.connect(name, autocommit=False) as conn:
        load_schema(conn)
        conn.commit()
    return name


@pytest.fixture(scope="session")
def project_root() -> Path:
    return Path(__file__).resolve().parent.parent


@pytest.fixture(scope="session")
def tiny42(server: Server) -> Server:
    """heron_tiny_42 built once on the test server (≈10 s); the server is returned."""
    from heron_pipeline.seeding.build import build

    if not server.database_exists("heron_tiny_42"):
        build(server, "tiny", 42)
    return server


@pytest.fixture(scope="session")
def s3_server():
    """A real S3-compatible server on 127.0.0.1: moto in server mode (``moto.server.ThreadedMotoServer``,
    moto's own HTTP server, not its in-process mock), on a free port; its endpoint URL. The standard
    AWS variables that botocore reads point at it for the session (fake credentials, a region)."""
    import logging

    from moto.server import ThreadedMotoServer

    logging.getLogger("werkzeug").setLevel(logging.ERROR)  # one log line per request otherwise
    server = ThreadedMotoServer(ip_address="127.0.0.1", port=_free_port(), verbose=False)
    server.start()
    host, port = server.get_host_and_port()
    endpoint = f"http://{host}:{port}"
    aws = {"AWS_ACCESS_KEY_ID": "testing", "AWS_SECRET_ACCESS_KEY": "testing", "AWS_DEFAULT_REGION": "us-east-1"}
    saved = {name: os.environ.get(name) for name in aws}
    os.environ.update(aws)
    yield endpoint
    for name, value in saved.items():
        if value is None:
            os.environ.pop(name, None)
        else:
            os.environ[name] = value
    server.stop()


@pytest.fixture
def s3_bucket(s3_server):
    """A fresh, empty bucket on the test S3 server; its name."""
    import uuid

    import boto3

    name = f"heron-test-{uuid.uuid4().hex[:12]}"
    boto3.client("s3", endpoint_url=s3_server).create_bucket(Bucket=name)
    return name
