"""The login a ``cli`` tool gets (issue 33): one database, SELECT only, no reach into the sandbox.

The ``cli`` protocol hands an external command a DSN so the tool may look at the data while it
predicts. That DSN used to be the prediction sandbox's own reader role on the primary state, so a tool
could connect to ``postgres`` and every other state (listing their names there) and run ``ALTER ROLE
CURRENT_USER IN DATABASE <state> SET work_mem = '2GB'``, which every later prediction of that role on
that state inherited. Now:

- the tool logs in as ``heron_cli``, a role of its own: nothing it does to its role can reach the
  sandbox's role (PostgreSQL lets a role change only its own defaults);
- ``heron_cli`` may CONNECT to the one state it is given: its CONNECT is granted there and revoked on
  every other database, and PUBLIC's CONNECT is revoked on every other database that allows
  connections (``postgres``, ``template1``, the other states, Dagster's storage …). heron's own
  sessions are the admin's (a superuser, or the owner) and the sandbox reader's (granted CONNECT on each
  state by name), so neither depends on PUBLIC's grant;
- in that database it reads what the sandbox reader reads (``roles.database_drift``: SELECT on the
  benchmark schemas, the hidden catalogs and denied functions revoked) and starts read-only;
- its settings, role-wide and per database (``pg_db_role_setting``), are put back before each run of the
  tool and read after it (``CliAccess.reset`` / ``CliAccess.tampered``); a tool that leaves settings
  behind gets its answer refused (command.py).

Its password, on a server that asks for one, is derived from the reader's (``HERON_READER_PASSWORD``)
with HMAC, so the tool, which sees its own password in the DSN, never learns the reader's.

Limitation: the role is one per server, so two runs that hand cli tools different primary states of
one server at the same time take its CONNECT from each other (the later run's state wins).
"""

from __future__ import annotations

import hmac
from dataclasses import dataclass, field, replace

import psycopg
from psycopg import conninfo, sql

from heron_pipeline.database.names import database_of, with_database
from heron_pipeline.sandbox.limits import Limits
from heron_pipeline.sandbox.roles import (SETUP_LOCK, database_drift, role_drift, per_database_settings,
                                          role_settings)

CLI_ROLE = "heron_cli"

#: Sessions a cli tool may hold at once (its role's CONNECTION LIMIT).
CLI_CONNECTIONS = 4


def cli_password(reader_password: str | None) -> str | None:
    """The cli role's password: an HMAC of the reader's, so knowing it gives nothing of the reader's."""
    if not reader_password:
        return None
    return hmac.new(reader_password.encode(), b"heron-cli-role", "sha256").hexdigest()[:32]


def _connect_drift(conn: psycopg.Connection, database: str, role: str) -> list[sql.Composable]:
    """CONNECT for ``role`` on ``database`` only (``database_drift`` grants it there): revoked from it
    and from PUBLIC on every other database that accepts connections."""
    changes: list[sql.Composable] = []
    name = sql.Identifier(role)
    exists = conn.execute("SELECT 1 FROM pg_roles WHERE rolname = %s", (role,)).fetchone() is not None
    rows = conn.execute(
        "SELECT d.datname::text, "
        "EXISTS (SELECT 1 FROM aclexplode(coalesce(d.datacl, acldefault('d', d.datdba))) a "
        "        WHERE a.grantee = 0 AND a.privilege_type = 'CONNECT'), "
        "EXISTS (SELECT 1 FROM aclexplode(coalesce(d.datacl, acldefault('d', d.datdba))) a "
        "        JOIN pg_roles r ON r.oid = a.grantee WHERE r.rolname = %s AND a.privilege_type = 'CONNECT') "
        "FROM pg_database d WHERE d.datallowconn ORDER BY 1", (role,)).fetchall()
    for datname, public_connect, role_connect in rows:
        ident = sql.Identifier(datname)
        if datname == database:
            continue  # granted by database_drift
        if public_connect:
            changes.append(sql.SQL("REVOKE CONNECT ON DATABASE {} FROM PUBLIC").format(ident))
        if role_connect and exists:
            changes.append(sql.SQL("REVOKE CONNECT ON DATABASE {} FROM {}").format(ident, name))
    return changes


def cli_drift(conn: psycopg.Connection, limits: Limits, *, role: str = CLI_ROLE,
              password: str | None = None) -> list[sql.Composable]:
    """Every statement needed for ``role`` to be the cli login of the database ``conn`` (a superuser
    connection) is connected to; empty when it already is."""
    limits = replace(limits, max_concurrent=CLI_CONNECTIONS)
    database = conn.info.dbname
    return (role_drift(conn, limits, role, password) + database_drift(conn, role)
            + _connect_drift(conn, database, role))


def ensure_cli(conn: psycopg.Connection, lock: psycopg.Connection, limits: Limits, *, role: str = CLI_ROLE,
               password: str | None = None, lock_timeout_s: float = 120.0) -> int:
    """``cli_drift`` applied under the sandbox's setup lock in one transaction (as ``roles.ensure_sandbox``);
    returns how many statements ran (0 in the usual case)."""
    if not cli_drift(conn, limits, role=role, password=password):
        return 0
    lock.execute(sql.SQL("SET lock_timeout = {}").format(sql.Literal(f"{int(lock_timeout_s * 1000)}ms")))
    lock.execute("SELECT pg_advisory_lock(%s, %s)", SETUP_LOCK)
    try:
        with conn.transaction():
            changes = cli_drift(conn, limits, role=role, password=password)
            for statement in changes:
                conn.execute(statement)
    finally:
        lock.execute("SELECT pg_advisory_unlock(%s, %s)", SETUP_LOCK)
    return len(changes)


@dataclass
class CliAccess:
    """The cli login for the state ``admin_dsn`` names: its DSN, and the reset and check around each
    run of the tool."""

    admin_dsn: str
    reader_password: str | None = None
    limits: Limits = field(default_factory=Limits)
    role: str = CLI_ROLE
    maintenance_database: str = "postgres"

    @property
    def password(self) -> str | None:
        return cli_password(self.reader_password)

    @property
    def dsn(self) -> str:
        return conninfo.make_conninfo(self.admin_dsn, user=self.role, password=self.password or None)

    @property
    def database(self) -> str:
        return database_of(self.admin_dsn)

    def reset(self) -> int:
        """Bring the role in place (settings, grants, CONNECT on this state only); statements run."""
        with psycopg.connect(self.admin_dsn, autocommit=True) as admin, \
                psycopg.connect(with_database(self.admin_dsn, self.maintenance_database), autocommit=True) as lock:
            return ensure_cli(admin, lock, self.limits, role=self.role, password=self.password)

    def tampered(self) -> list[str]:
        """What the tool changed about its login since ``reset``: settings it gave itself, role-wide or
        per database, and any other drift, one item each (empty when nothing)."""
        with psycopg.connect(self.admin_dsn, autocommit=True) as admin:
            found = [f"{database}: {', '.join(settings)}"
                     for database, settings in per_database_settings(admin, self.role)]
            row = admin.execute("SELECT s.setconfig FROM pg_db_role_setting s JOIN pg_roles r ON r.oid = s.setrole "
                                "WHERE r.rolname = %s AND s.setdatabase = 0", (self.role,)).fetchone()
            current = dict(item.split("=", 1) for item in (row[0] if row and row[0] else []))
            wanted = role_settings(replace(self.limits, max_concurrent=CLI_CONNECTIONS), admin.info.server_version)
            changed = sorted(f"{k}={v}" for k, v in current.items() if wanted.get(k) != v)
            if changed:
                found.append("role-wide: " + ", ".join(changed))
            if not found and cli_drift(admin, self.limits, role=self.role, password=self.password):
                found.append("its role or grants")
            return found
