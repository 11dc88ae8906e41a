"""The server heron talks to: the embedded one, or any PostgreSQL 16+ named by ``HERON_DSN``.

Everything above this module asks it for DSNs and connections and never cares which kind of server
it is; only ``up``/``down`` differ, because heron cannot start or stop somebody else's server.
"""

from __future__ import annotations

import re
from contextlib import contextmanager
from typing import Iterator

import psycopg
from psycopg import sql

from heron_pipeline.config import Settings
from heron_pipeline.database.embedded import EmbeddedServer, ServerError, ServerUnavailable
from heron_pipeline.database.errors import failure_reason, redacted_dsn
from heron_pipeline.database.names import benchmark_database, database_of, parse_benchmark_database, with_database

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
            raise ServerError("HERON_DSN points at an external server; heron does not stop servers it did not start: "
                              "stop it with its own tools, or unset HERON_DSN to use the embedded server")
        return self.embedded.down()

    def is_up(self) -> bool:
        if self.embedded:
            return self.embedded.is_up()
        try:
            self.check_reachable()
        except ServerError:
            return False
        return True

    @property
    def address(self) -> str:
        """The server as messages name it: where it listens and which setting says so (never a
        password)."""
        if self.embedded:
            return f"the embedded server on 127.0.0.1:{self.settings.port} (data in {self.settings.pgdata})"
        return f"{redacted_dsn(self.maintenance_dsn)} (HERON_DSN)"

    def unavailable(self, err: BaseException, dsn: str | None = None) -> ServerError:
        """The one-line error for a connection to ``dsn`` (default: the maintenance database) that
        could not be opened: which server, why, and the fix. A benchmark database that does not
        exist is a plain ``ServerError`` (the server answered; the state is not built)."""
        reason = failure_reason(err)
        missing = re.search(r'database "([^"]+)" does not exist', reason)
        database = missing.group(1) if missing else database_of(dsn or self.maintenance_dsn)
        state = parse_benchmark_database(database)
        if missing and state and not state[2]:
            return ServerError(f"{database} does not exist on {self.address}; "
                                     f"run `heron seed --scale {state[0]} --seed {state[1]}`")
        if self.embedded and not self.embedded.is_up():
            return ServerUnavailable(f"{self.address} is not running; start it with `heron db up`")
        if self.embedded:
            return ServerUnavailable(f"cannot connect to database {database} on {self.address}: {reason}")
        return ServerUnavailable(f"cannot connect to database {database} on {self.address}: {reason}; "
                                 "check that the server is running and HERON_DSN names it")

    def check_reachable(self) -> None:
        try:
            with psycopg.connect(self.maintenance_dsn, connect_timeout=5) as conn:
                version = conn.info.server_version
        except psycopg.OperationalError as err:
            raise self.unavailable(err) from None
        if version < 160000:
            raise ServerError(f"heron needs PostgreSQL 16 or newer; {self.address} is {version // 10000}")

    def open(self, database: str | None = None, *, autocommit: bool = True) -> psycopg.Connection:
        """A new connection with heron's session settings; a server that cannot be reached is a
        ``ServerUnavailable`` naming it and the fix."""
        dsn = self.dsn(database)
        try:
            return psycopg.connect(dsn, autocommit=autocommit, options=SESSION_OPTIONS, connect_timeout=10)
        except psycopg.OperationalError as err:
            raise self.unavailable(err, dsn) from None

    @contextmanager
    def connect(self, database: str | None = None, *, autocommit: bool = True) -> Iterator[psycopg.Connection]:
        with self.open(database, autocommit=autocommit) as conn:
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
