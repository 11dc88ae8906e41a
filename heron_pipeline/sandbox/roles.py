"""The reader role: a LOGIN role that can only SELECT the benchmark schemas, set up by the admin.

Predictions connect *as* this role rather than running ``SET ROLE`` inside a superuser session,
because ``RESET ROLE`` (or ``SET SESSION AUTHORIZATION``) from the predicted SQL would then give the
superuser back. The limits live on the role (``ALTER ROLE … SET``) so they apply from the first
statement of every session; ``temp_file_limit`` is superuser-only, so the role cannot raise it.

Authentication: the embedded server trusts 127.0.0.1 (initdb ``--auth=trust``), so the role needs
no password there. On an external server the administrator sets ``HERON_READER_PASSWORD``; the
role gets that password here and the sandbox connects with it.

Setup is *check first, change rarely* (issue 11): ``sandbox_drift`` reads the catalogs and lists
every statement needed to reach the wanted state, and only when that list is not empty does
``ensure_sandbox`` take one cluster-wide advisory lock, list again under it (another process may
have just done the work) and run the list in ONE transaction. So eight ``heron query`` processes
starting at once change nothing when the role is in place, never run two GRANTs on one catalog
row at a time (``tuple concurrently updated``), and a running query never sees a moment where its
SELECT is revoked: only privileges the reader must not have are ever revoked from it.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import logging
from dataclasses import dataclass

import psycopg
from psycopg import sql

from heron_pipeline.sandbox.guard import HIDDEN_CATALOGS as _HIDDEN_CATALOGS
from heron_pipeline.sandbox.guard import function_denied
from heron_pipeline.sandbox.limits import Limits, milliseconds

READER_ROLE = "heron_reader"
log = logging.getLogger(__name__)

#: pg_advisory_lock(classid, objid) key of every sandbox setup on a cluster ('hrn' + 's'etup).
SETUP_LOCK = (0x68726E, 0x73)

#: Table privileges the reader must not hold (PostgreSQL 17 adds MAINTAIN).
_WRITE_PRIVILEGES = ("INSERT", "UPDATE", "DELETE", "TRUNCATE", "REFERENCES", "TRIGGER", "MAINTAIN")

_RELATION_KINDS = ("r", "v", "m", "f", "p")

#: The catalogs the reader may not read (defined beside the parser's refusal of them).
HIDDEN_CATALOGS = _HIDDEN_CATALOGS


@dataclass(frozen=True)
class RoleAttributes:
    """What ``CREATE ROLE`` sets: the reader logs in, is nothing else, and has ``connection_limit``
    slots on the whole server (the cross-process bound on predictions at once)."""

    connection_limit: int

    def clause(self) -> str:
        return ("LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOINHERIT NOREPLICATION NOBYPASSRLS "
                f"CONNECTION LIMIT {int(self.connection_limit)}")

    def expected(self) -> tuple:
        # rolcanlogin, rolsuper, rolcreatedb, rolcreaterole, rolinherit, rolreplication, rolbypassrls, rolconnlimit
        return (True, False, False, False, False, False, False, int(self.connection_limit))


def role_settings(limits: Limits, server_version: int) -> dict[str, str]:
    """The ``ALTER ROLE … SET`` values for the reader, from the caps."""
    settings = {
        "statement_timeout": f"{milliseconds(limits.statement_timeout_s)}ms",
        "lock_timeout": f"{milliseconds(limits.lock_timeout_s)}ms",
        "idle_in_transaction_session_timeout": f"{milliseconds(limits.idle_in_transaction_timeout_s)}ms",
        "work_mem": limits.work_mem,
        "temp_file_limit": limits.temp_file_limit,
        "default_transaction_read_only": "on",
        # One prediction is one backend: parallel workers would multiply its CPU and work_mem by up
        # to three, and the concurrency bound counts predictions, not processes.
        "max_parallel_workers_per_gather": "0",
    }
    if server_version >= 170000:
        # PostgreSQL 17+: one bound on the whole transaction, across every FETCH of the cursor.
        settings["transaction_timeout"] = f"{milliseconds(limits.wall_clock_s)}ms"
    return settings


def password_matches(stored: str | None, password: str | None, role: str) -> bool:
    """Whether the ``pg_authid.rolpassword`` value ``stored`` is ``password`` (SCRAM or md5), so
    that a role already in place is not given the same password again on every call."""
    if password is None:
        return stored is None
    if stored is None:
        return False
    if stored.startswith("SCRAM-SHA-256$"):
        try:
            head, keys = stored[len("SCRAM-SHA-256$"):].split("$", 1)
            iterations, salt = head.split(":", 1)
            stored_key, _server_key = keys.split(":", 1)
            salted = hashlib.pbkdf2_hmac("sha256", password.encode(), base64.b64decode(salt), int(iterations))
        except ValueError:
            return False
        client_key = hmac.new(salted, b"Client Key", "sha256").digest()
        return hmac.compare_digest(hashlib.sha256(client_key).digest(), base64.b64decode(stored_key))
    if stored.startswith("md5"):
        return hmac.compare_digest(stored, "md5" + hashlib.md5((password + role).encode()).hexdigest())
    return False


def readable_schemas(conn: psycopg.Connection) -> list[str]:
    """Every schema of the benchmark database but ``public`` and the system ones."""
    return [s for (s,) in conn.execute(
        "SELECT nspname FROM pg_namespace WHERE nspname NOT IN ('public', 'information_schema') "
        "AND nspname NOT LIKE 'pg\\_%' ORDER BY 1").fetchall()]


def role_drift(conn: psycopg.Connection, limits: Limits, role: str, password: str | None) -> list[sql.Composable]:
    name = sql.Identifier(role)
    attributes = RoleAttributes(limits.max_concurrent)
    found = conn.execute(
        "SELECT oid, rolcanlogin, rolsuper, rolcreatedb, rolcreaterole, rolinherit, rolreplication, rolbypassrls, "
        "rolconnlimit, rolpassword FROM pg_authid WHERE rolname = %s", (role,)).fetchone()
    wanted = role_settings(limits, conn.info.server_version)
    if found is None:
        return ([sql.SQL("CREATE ROLE {} " + attributes.clause() + " PASSWORD {}").format(name, sql.Literal(password))]
                + [sql.SQL("ALTER ROLE {} SET {} = {}").format(name, sql.Identifier(k), sql.Literal(v))
                   for k, v in wanted.items()])
    oid, *flags, stored = found
    changes: list[sql.Composable] = []
    if tuple(flags) != attributes.expected():
        changes.append(sql.SQL("ALTER ROLE {} " + attributes.clause()).format(name))
    if not password_matches(stored, password, role):
        changes.append(sql.SQL("ALTER ROLE {} PASSWORD {}").format(name, sql.Literal(password)))
    # NOINHERIT does not stop SET ROLE to a role one is a member of: the reader belongs to none.
    for (granted,) in conn.execute("SELECT roleid::regrole::text FROM pg_auth_members WHERE member = %s ORDER BY 1",
                                   (oid,)).fetchall():
        changes.append(sql.SQL("REVOKE {} FROM {}").format(sql.SQL(granted), name))
    row = conn.execute("SELECT setconfig FROM pg_db_role_setting WHERE setrole = %s AND setdatabase = 0",
                       (oid,)).fetchone()
    current = dict(item.split("=", 1) for item in (row[0] if row and row[0] else []))
    for setting, value in wanted.items():
        if current.get(setting) != value:
            changes.append(sql.SQL("ALTER ROLE {} SET {} = {}").format(name, sql.Identifier(setting),
                                                                        sql.Literal(value)))
    for setting in sorted(set(current) - set(wanted)):
        changes.append(sql.SQL("ALTER ROLE {} RESET {}").format(name, sql.Identifier(setting)))
    # Settings the role gave itself in one database (``ALTER ROLE CURRENT_USER IN DATABASE d SET
    # work_mem = '2GB'`` is allowed to any role for user-settable parameters): none may stay.
    for database, _settings in per_database_settings(conn, role):
        changes.append(sql.SQL("ALTER ROLE {} IN DATABASE {} RESET ALL").format(name, sql.Identifier(database)))
    return changes


def per_database_settings(conn: psycopg.Connection, role: str) -> list[tuple[str, list[str]]]:
    """(database, ["work_mem=2GB", …]) for every ``pg_db_role_setting`` row of ``role`` in one database
    (setdatabase ≠ 0), read as the admin."""
    return [(database, list(config or [])) for database, config in conn.execute(
        "SELECT d.datname::text, s.setconfig FROM pg_db_role_setting s JOIN pg_database d ON d.oid = s.setdatabase "
        "JOIN pg_roles r ON r.oid = s.setrole WHERE r.rolname = %s AND s.setdatabase <> 0 ORDER BY 1",
        (role,)).fetchall()]


def settings_drift_line(role: str, found: list[tuple[str, list[str]]]) -> str:
    """The one line said when ``role`` was found with settings of its own in some database."""
    listed = "; ".join(f"{database}: {', '.join(settings)}" for database, settings in found)
    return (f"the role {role} had settings of its own per database ({listed}): reset — heron sets every bound "
            "per session and never runs with a role's own defaults")


def database_drift(conn: psycopg.Connection, role: str) -> list[sql.Composable]:
    """What the benchmark database ``conn`` is connected to needs so that ``role`` may read the
    benchmark schemas and nothing else. ``role`` must exist (or be about to, in the same list)."""
    name = sql.Identifier(role)
    database = sql.Identifier(conn.info.dbname)
    exists = conn.execute("SELECT 1 FROM pg_roles WHERE rolname = %s", (role,)).fetchone() is not None
    changes: list[sql.Composable] = []

    def acl(query: str, params: tuple) -> dict[str, set[str]]:
        """grantee ('' for PUBLIC) -> privileges, from one object's ACL (or its default)."""
        out: dict[str, set[str]] = {}
        for grantee, privilege in conn.execute(query, params).fetchall():
            out.setdefault(grantee, set()).add(privilege)
        return out

    db = acl("SELECT coalesce(r.rolname, ''), a.privilege_type FROM pg_database d, "
             "aclexplode(coalesce(d.datacl, acldefault('d', d.datdba))) a LEFT JOIN pg_roles r ON r.oid = a.grantee "
             "WHERE d.datname = current_database()", ())
    # TEMP is granted to PUBLIC by default and cannot be revoked from one role alone.
    public_extra = db.get("", set()) & {"CREATE", "TEMPORARY"}
    if public_extra:
        changes.append(sql.SQL("REVOKE {} ON DATABASE {} FROM PUBLIC").format(
            sql.SQL(", ").join(sql.SQL(p) for p in sorted(public_extra)), database))
    role_db = db.get(role, set())
    if role_db - {"CONNECT"}:
        changes.append(sql.SQL("REVOKE {} ON DATABASE {} FROM {}").format(
            sql.SQL(", ").join(sql.SQL(p) for p in sorted(role_db - {"CONNECT"})), database, name))
    if "CONNECT" not in role_db:
        changes.append(sql.SQL("GRANT CONNECT ON DATABASE {} TO {}").format(database, name))

    schemas = readable_schemas(conn)
    # every schema's ACL in one round trip (a query per schema was 15 of the ~18 this check made)
    schema_rights: dict[str, dict[str, set[str]]] = {}
    for schema, grantee, privilege in conn.execute(
            "SELECT n.nspname, coalesce(r.rolname, ''), a.privilege_type FROM pg_namespace n, "
            "aclexplode(coalesce(n.nspacl, acldefault('n', n.nspowner))) a "
            "LEFT JOIN pg_roles r ON r.oid = a.grantee WHERE n.nspname = ANY(%s)", (["public", *schemas],)).fetchall():
        schema_rights.setdefault(schema, {}).setdefault(grantee, set()).add(privilege)
    for schema in ["public", *schemas]:
        rights = schema_rights.get(schema, {})
        ident = sql.Identifier(schema)
        if "CREATE" in rights.get("", set()):
            changes.append(sql.SQL("REVOKE CREATE ON SCHEMA {} FROM PUBLIC").format(ident))
        allowed = set() if schema == "public" else {"USAGE"}
        extra = rights.get(role, set()) - allowed
        if extra:
            changes.append(sql.SQL("REVOKE {} ON SCHEMA {} FROM {}").format(
                sql.SQL(", ").join(sql.SQL(p) for p in sorted(extra)), ident, name))
        if allowed - rights.get(role, set()):
            changes.append(sql.SQL("GRANT USAGE ON SCHEMA {} TO {}").format(ident, name))

    if schemas:
        relations = conn.execute(
            "SELECT c.oid::regclass::text, c.oid FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace "
            "WHERE n.nspname = ANY(%s) AND c.relkind = ANY(%s) ORDER BY 1",
            (schemas, list(_RELATION_KINDS))).fetchall()
        if relations and exists:
            version = conn.info.server_version
            checked = [p for p in _WRITE_PRIVILEGES if p != "MAINTAIN" or version >= 170000]
            held = conn.execute(
                "SELECT c.oid::regclass::text, has_table_privilege(%s, c.oid, 'SELECT'), "
                "ARRAY(SELECT p FROM unnest(%s::text[]) p WHERE has_table_privilege(%s, c.oid, p)) "
                "FROM pg_class c WHERE c.oid = ANY(%s) ORDER BY 1",
                (role, checked, role, [oid for _, oid in relations])).fetchall()
            missing = [relation for relation, can_select, _ in held if not can_select]
            for relation, _, extra in held:
                if extra:
                    # From the role and from PUBLIC: the reader belongs to no other role.
                    for grantee in (name, sql.SQL("PUBLIC")):
                        changes.append(sql.SQL("REVOKE {} ON TABLE {} FROM {}").format(
                            sql.SQL(", ").join(sql.SQL(p) for p in extra), sql.SQL(relation), grantee))
        else:
            missing = [relation for relation, _ in relations]
        if missing:
            changes.append(sql.SQL("GRANT SELECT ON TABLE {} TO {}").format(
                sql.SQL(", ").join(sql.SQL(r) for r in missing), name))

    # The catalogs that name other databases or show the server: readable through PUBLIC by default.
    readable = conn.execute(
        "SELECT c.oid::regclass::text FROM pg_class c WHERE c.oid = ANY(ARRAY(SELECT to_regclass('pg_catalog.' || n) "
        "FROM unnest(%s::text[]) n)) AND has_table_privilege(%s, c.oid, 'SELECT') ORDER BY 1",
        (list(HIDDEN_CATALOGS), role if exists else "public")).fetchall()
    for (catalog,) in readable:
        for grantee in (sql.SQL("PUBLIC"), name):
            changes.append(sql.SQL("REVOKE SELECT ON TABLE {} FROM {}").format(sql.SQL(catalog), grantee))

    # Whatever the parser would refuse by name, the privilege layer refuses too (sleep, files, large
    # objects, advisory locks, backend signals, configuration, sequences, SQL-in-a-string …).
    denied = [n for (n,) in conn.execute("SELECT DISTINCT proname::text FROM pg_proc").fetchall() if function_denied(n)]
    functions = conn.execute(
        "SELECT p.oid::regprocedure::text FROM pg_proc p WHERE p.proname = ANY(%s::name[]) "
        + ("AND has_function_privilege(%s, p.oid, 'EXECUTE') " if exists else "")
        + "ORDER BY 1", (denied, role) if exists else (denied,)).fetchall()
    for (signature,) in functions:
        for grantee in (sql.SQL("PUBLIC"), name):
            changes.append(sql.SQL("REVOKE EXECUTE ON FUNCTION {} FROM {}").format(sql.SQL(signature), grantee))
    return changes


def sandbox_drift(conn: psycopg.Connection, limits: Limits, *, role: str = READER_ROLE,
                  password: str | None = None) -> list[sql.Composable]:
    """Every statement needed to make ``role`` (cluster-wide) and the benchmark database ``conn`` is
    connected to (as a superuser) what the sandbox requires; empty when both are in place.

    Only reads catalogs, so it is what every ``prepare_sandbox`` runs; its list is what
    ``ensure_sandbox`` executes, so checking and changing cannot disagree."""
    return role_drift(conn, limits, role, password) + database_drift(conn, role)


def ensure_sandbox(conn: psycopg.Connection, lock: psycopg.Connection, limits: Limits, *,
                   role: str = READER_ROLE, password: str | None = None, lock_timeout_s: float = 120.0) -> int:
    """Bring the role and the database ``conn`` is connected to in place; returns how many
    statements it ran (0 when nothing had to change, the usual case).

    ``conn`` is a superuser connection to the benchmark database, ``lock`` one to the maintenance
    database (both autocommit). An advisory lock belongs to one database while the role belongs to
    the cluster, so ``SETUP_LOCK`` is taken on ``lock``, in the database every heron process of
    this server shares; with it held, the statements run in ONE transaction on ``conn``. Other
    sandboxes (any database, any role) therefore never change catalogs at the same time, and a
    concurrent query sees the grants from before or from after, never a state in between."""
    if not sandbox_drift(conn, limits, role=role, password=password):
        return 0
    found = per_database_settings(conn, role)
    if found:
        log.warning(settings_drift_line(role, found))
    lock.execute(sql.SQL("SET lock_timeout = {}").format(sql.Literal(f"{milliseconds(lock_timeout_s)}ms")))
    lock.execute("SELECT pg_advisory_lock(%s, %s)", SETUP_LOCK)
    try:
        with conn.transaction():
            changes = sandbox_drift(conn, limits, role=role, password=password)  # someone may have done it
            for statement in changes:
                conn.execute(statement)
    finally:
        lock.execute("SELECT pg_advisory_unlock(%s, %s)", SETUP_LOCK)
    return len(changes)
