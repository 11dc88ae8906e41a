"""The reader role: a LOGIN role that can only SELECT the benchmark schemas, set up by the admin.

Predictions connect *as* this role rather than running ``SET ROLE`` inside a superuser session,
because ``RESET ROLE`` (or ``SET SESSION AUTHORIZATION``) from the predicted SQL would then give the
superuser back. The limits live on the role (``ALTER ROLE … SET``) so they apply from the first
statement of every session; ``temp_file_limit`` is superuser-only, so the role cannot raise it.

Authentication: the embedded server trusts 127.0.0.1 (initdb ``--auth=trust``), so the role needs
no password there. On an external server the administrator sets ``HERON_READER_PASSWORD``; the
role gets that password here and the sandbox connects with it.

Everything is idempotent: running it again re-applies the same grants and settings, so a database
rebuilt under the same name (which resets its ACLs) is made safe again by one call.
"""

from __future__ import annotations

import psycopg
from psycopg import sql

from heron_pipeline.sandbox.limits import Limits, milliseconds

READER_ROLE = "heron_reader"

_ROLE_ATTRIBUTES = "LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOINHERIT NOREPLICATION NOBYPASSRLS CONNECTION LIMIT 64"

#: Functions revoked from PUBLIC inside benchmark databases (every overload, matched by name): none
#: can change the data, but each lets a session undo its own limits (set_config), disturb other
#: sandbox sessions (signals, advisory locks, notifications) or burn transaction ids.
_REVOKED_FUNCTION_PATTERN = (
    r"^(set_config|pg_terminate_backend|pg_cancel_backend|pg_notify|txid_current|pg_current_xact_id"
    r"|pg_advisory_.*|pg_try_advisory_.*)$"
)


def role_settings(limits: Limits, server_version: int) -> dict[str, str]:
    """The ``ALTER ROLE … SET`` values for the reader, from the caps."""
    settings = {
        "statement_timeout": f"{milliseconds(limits.statement_timeout_s)}ms",
        "lock_timeout": f"{milliseconds(limits.lock_timeout_s)}ms",
        "idle_in_transaction_session_timeout": f"{milliseconds(limits.idle_in_transaction_timeout_s)}ms",
        "work_mem": limits.work_mem,
        "temp_file_limit": limits.temp_file_limit,
        "default_transaction_read_only": "on",
    }
    if server_version >= 170000:
        # PostgreSQL 17+: one bound on the whole transaction, across every FETCH of the cursor.
        settings["transaction_timeout"] = f"{milliseconds(limits.wall_clock_s)}ms"
    return settings


def ensure_reader_role(admin: psycopg.Connection, limits: Limits, *, role: str = READER_ROLE,
                       password: str | None = None) -> None:
    """Create or repair the cluster-wide reader role (needs a superuser ``admin`` connection, autocommit)."""
    name = sql.Identifier(role)
    try:
        admin.execute(sql.SQL("CREATE ROLE {} " + _ROLE_ATTRIBUTES).format(name))
    except (psycopg.errors.DuplicateObject, psycopg.errors.UniqueViolation):
        pass  # exists already, or another process created it a moment ago
    admin.execute(sql.SQL("ALTER ROLE {} " + _ROLE_ATTRIBUTES + " PASSWORD {}").format(
        name, sql.Literal(password)))
    # NOINHERIT does not stop SET ROLE to a role one is a member of: the reader belongs to none.
    for (granted,) in admin.execute(
            "SELECT g.rolname FROM pg_auth_members m JOIN pg_roles g ON g.oid = m.roleid "
            "JOIN pg_roles r ON r.oid = m.member WHERE r.rolname = %s", (role,)).fetchall():
        admin.execute(sql.SQL("REVOKE {} FROM {}").format(sql.Identifier(granted), name))
    version = admin.info.server_version
    for setting, value in role_settings(limits, version).items():
        admin.execute(sql.SQL("ALTER ROLE {} SET {} = {}").format(name, sql.Identifier(setting), sql.Literal(value)))


def grant_reader(conn: psycopg.Connection, *, role: str = READER_ROLE) -> list[str]:
    """Make the database ``conn`` is connected to readable, and only readable, by ``role``.

    ``conn`` is a superuser connection (autocommit) to the benchmark database. Returns the schemas
    the role may read: every schema but ``public`` and the system ones (the domains and ``shared``).
    """
    name = sql.Identifier(role)
    database = sql.Identifier(conn.info.dbname)
    # TEMP is granted to PUBLIC by default and cannot be revoked from one role alone.
    conn.execute(sql.SQL("REVOKE CREATE, TEMPORARY ON DATABASE {} FROM PUBLIC").format(database))
    conn.execute(sql.SQL("REVOKE ALL ON DATABASE {} FROM {}").format(database, name))
    conn.execute(sql.SQL("GRANT CONNECT ON DATABASE {} TO {}").format(database, name))
    conn.execute("REVOKE CREATE ON SCHEMA public FROM PUBLIC")
    conn.execute(sql.SQL("REVOKE ALL ON SCHEMA public FROM {}").format(name))
    for (signature,) in conn.execute(
            "SELECT p.oid::regprocedure::text FROM pg_proc p WHERE p.pronamespace = 'pg_catalog'::regnamespace "
            "AND p.proname ~ %s ORDER BY 1", (_REVOKED_FUNCTION_PATTERN,)).fetchall():
        conn.execute(sql.SQL("REVOKE EXECUTE ON FUNCTION {} FROM PUBLIC").format(sql.SQL(signature)))
    schemas = [s for (s,) in conn.execute(
        "SELECT nspname FROM pg_namespace WHERE nspname NOT IN ('public', 'information_schema') "
        "AND nspname NOT LIKE 'pg\\_%' ORDER BY 1").fetchall()]
    for schema in schemas:
        ident = sql.Identifier(schema)
        conn.execute(sql.SQL("REVOKE CREATE ON SCHEMA {} FROM PUBLIC").format(ident))
        conn.execute(sql.SQL("REVOKE ALL ON ALL TABLES IN SCHEMA {} FROM {}").format(ident, name))
        conn.execute(sql.SQL("GRANT USAGE ON SCHEMA {} TO {}").format(ident, name))
        conn.execute(sql.SQL("GRANT SELECT ON ALL TABLES IN SCHEMA {} TO {}").format(ident, name))
    return schemas
