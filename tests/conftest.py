"""Shared fixtures: one real PostgreSQL for the whole test session, never the user's.

The server runs from the embedded wheel on its own port and in a temporary data folder, so running
the tests never touches a developer's databases. ``HERON_TEST_DSN`` points the suite at an external
PostgreSQL 16+ instead (its maintenance database; the tests create and drop their own databases).
"""

from __future__ import annotations

import os
import socket
from pathlib import Path

import pytest

from heron_pipeline.config import Settings
from heron_pipeline.database.server import Server


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.fixture(scope="session")
def settings(tmp_path_factory: pytest.TempPathFactory) -> Settings:
    data_dir = tmp_path_factory.mktemp("heron-data")
    external = os.environ.get("HERON_TEST_DSN")
    return Settings(dsn=external or None, data_dir=data_dir, port=_free_port())


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
