"""The server heron talks to: the embedded one, or any PostgreSQL 16+ named by ``HERON_DSN``.

Everything above this module asks it for DSNs and connections and never cares which kind of server
it is; only ``up``/``down`` differ, because heron cannot start or stop somebody else's server.
"""

from __future__ import annotations

from contextlib import contextmanager
from typing import Iterator

import psycopg
from psycopg import sql

from heron_pipeline.config import Settings
from heron_pipeline.database.embedded import EmbeddedServer, ServerError
from heron_pipeline.database.names import benchmark_database, with_database

#: Session settings every heron connection uses, so text and timestamps print the same everywhere.
SESSION_OPTIONS = "-c TimeZone=UTC -c DateStyle=ISO,MDY -c extra_float_digits=3 -c IntervalStyle=postgres"


class Server:
    """Handle on the configured server."""

    def __init__(self, settings: Settings):
        self.settings = settings
        self.embedded = EmbeddedServer(settings.pgdata, settings.port) if settings.is_embedded else None

    @property
    def maintenance_dsn(self) -> str:
        return self.embedded.dsn if self.embedded else self.settings.dsn  # type: ignore[return-value]

    def dsn(self, database: str | None = None) -> str:
        return self.maintenance_dsn if database is None else with_database(self.maintenance_dsn, database)

    def benchmark_dsn(self, scale: str, seed: int) -> str:
        return self.dsn(benchmark_database(scale, seed))

    def up(self) -> bool:
        """Start the embedded server if needed; for an external server, check it answers."""
        if self.embedded:
            return self.embedded.up()
        self.check_reachable()
        return False

    def down(self) -> bool:
        if not self.embedded:
            raise ServerError("HERON_DSN points at an external server; heron does not stop servers it did not start")
        return self.embedded.down()

    def is_up(self) -> bool:
        if self.embedded:
            return self.embedded.is_up()
        try:
            self.check_reachable()
        except ServerError:
            return False
        return True

    def check_reachable(self) -> None:
        try:
            with psycopg.connect(self.maintenance_dsn, connect_timeout=5) as conn:
                version = conn.info.server_version
        except psycopg.Error as err:
            raise ServerError(f"cannot connect to {self.maintenance_dsn}: {err}") from None
        if version < 160000:
            raise ServerError(f"heron needs PostgreSQL 16 or newer; the server is {version // 10000}")

    @contextmanager
    def connect(self, database: str | None = None, *, autocommit: bool = True) -> Iterator[psycopg.Connection]:
        with psycopg.connect(self.dsn(database), autocommit=autocommit, options=SESSION_OPTIONS) as conn:
            yield conn

    def database_exists(self, database: str) -> bool:
        with self.connect() as conn:
            return conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", (database,)).fetchone() is not None

    def drop_database(self, database: str) -> None:
        with self.connect() as conn:
            conn.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(database)))

    def create_database(self, database: str, *, replace: bool = False) -> None:
        """Create an empty database with a C collation and UTF-8, whatever the server's defaults."""
        with self.connect() as conn:
            if replace:
                conn.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(database)))
            conn.execute(
                sql.SQL("CREATE DATABASE {} TEMPLATE template0 ENCODING 'UTF8' LC_COLLATE 'C' LC_CTYPE 'C'").format(
                    sql.Identifier(database)
                )
            )

    def rename_database(self, old: str, new: str) -> None:
        with self.connect() as conn:
            conn.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(new)))
            # Nobody may be connected to a database being renamed: close stray sessions first.
            conn.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = %s", (old,))
            conn.execute(sql.SQL("ALTER DATABASE {} RENAME TO {}").format(sql.Identifier(old), sql.Identifier(new)))
