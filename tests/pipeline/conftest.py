"""Fixtures of the pipeline tests: a seeded tiny state on the session's test server."""

from __future__ import annotations

import pytest

from heron_pipeline.database.server import Server


@pytest.fixture(scope="session")
def tiny42(server: Server) -> Server:
    """heron_tiny_42 built once on the test server (≈10 s); the server is returned."""
    from heron_pipeline.seeding.build import build

    if not server.database_exists("heron_tiny_42"):
        build(server, "tiny", 42)
    return server
