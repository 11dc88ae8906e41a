"""The systematic search for what names or tests another database (issue 33), shared by the test and
``benchmarks/attack_sandbox.py``.

A *canary* database with a random name is created next to the benchmark state, and a session stays
connected to it holding locks (so views and functions about other sessions and locks have something to
show). Then, connected to the state as a given role, every function of ``pg_proc`` that role may EXECUTE
is called with argument values drawn from a small probe set per argument type, each call in its own
savepoint under a short statement timeout, and every catalog and ``information_schema`` view it may
SELECT is read whole. A call or view *leaks* when

- its output holds the canary's name or OID while its arguments did not (a name or OID read from the
  server), or
- its output (or its error, with the argument written as a placeholder) for the canary's name or OID
  differs from the output for two made-up names/OIDs of the same shape, while those two agree with each
  other (an existence oracle: "is there a database called X?").

Skipped, with the reason in ``SKIPPED_REASONS``: aggregates, window functions and procedures (they
cannot be called as ``SELECT f(...)`` with plain values, and fold only their own inputs); functions the
statement guard refuses by name (they are refused before reaching the server, and revoked from the
reader); functions with side effects on the session or server (``SIDE_EFFECTS``); functions taking or
returning pseudo-types that SQL cannot pass (internal, trigger, event_trigger, language handlers …).
"""

from __future__ import annotations

import itertools
import re
import secrets
from dataclasses import dataclass, field

import psycopg
from psycopg import sql

from heron_pipeline.sandbox.guard import function_denied

#: Functions that change the session or the server even in a read-only transaction, never called.
SIDE_EFFECTS = frozenset({
    "pg_stat_clear_snapshot", "pg_stat_force_next_flush", "setseed", "pg_sleep", "pg_sleep_for", "pg_sleep_until",
    "pg_terminate_backend", "pg_cancel_backend", "pg_notify", "set_config", "pg_wal_replay_pause",
    "pg_wal_replay_resume", "pg_replication_origin_session_setup", "pg_replication_origin_session_reset",
    "pg_replication_origin_xact_setup", "pg_replication_origin_xact_reset",
})

_NOT_PASSABLE = {"internal", "trigger", "event_trigger", "language_handler", "fdw_handler", "index_am_handler",
                 "tsm_handler", "table_am_handler", "opaque", "pg_ddl_command"}

SKIPPED_REASONS = {
    "not a plain function": "aggregates, window functions and procedures fold or act on their own inputs only",
    "refused by the guard": "the statement guard refuses the name and the reader has no EXECUTE on it",
    "side effects": "changes the session or the server (SIDE_EFFECTS)",
    "pseudo-type argument": "takes or returns a pseudo-type SQL cannot pass (internal, trigger, handlers)",
}

_TEXT = {"text", "name", "cstring", "character varying", "character", "unknown"}
_OIDS = {"oid", "regclass", "regproc", "regprocedure", "regoper", "regoperator", "regtype", "regrole",
         "regnamespace", "regconfig", "regdictionary", "regcollation", "xid", "xid8", "cid"}
_INTS = {"integer", "bigint", "smallint"}
_POLY = {"anyelement", "anyarray", "anynonarray", "anycompatible", "anycompatiblenonarray", "any", "\"any\"",
         "anycompatiblearray", "record"}

#: The product of probe values is taken whole up to this many calls per function, else one argument
#: varies at a time while the others keep their first value.
PRODUCT_CAP = 400


@dataclass
class Canary:
    name: str
    oid: int
    pid: int
    backend_id: int
    twins: tuple[tuple[str, int], tuple[str, int]]  # two made-up (name, oid) of the same shape


@dataclass
class Enumeration:
    functions_checked: int = 0
    calls: int = 0
    views_checked: int = 0
    skipped: dict[str, list[str]] = field(default_factory=dict)
    leaks: list[str] = field(default_factory=list)
    #: (function, call with the canary, its outcome): calls whose outcome for the canary differed from
    #: the made-up twins'; ``confirm_oracles`` keeps those that change once the canary is dropped.
    candidates: list[tuple[str, str, str]] = field(default_factory=list)


def make_canary(admin: psycopg.Connection) -> str:
    """A database with a unique random name (admin in autocommit); returns its name."""
    name = "canary_" + secrets.token_hex(6)
    admin.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
    return name


def hold_canary(dsn: str, role: str) -> psycopg.Connection:
    """A superuser session in the canary database, in a transaction holding a table lock and an
    advisory lock, with a table granted to ``role`` (a shared dependency, ``pg_shdepend``), so that
    lock, activity and dependency views have a row in the canary."""
    conn = psycopg.connect(dsn)
    conn.execute("CREATE TABLE IF NOT EXISTS canary_t (a int)")
    conn.execute(sql.SQL("GRANT SELECT ON canary_t TO {}").format(sql.Identifier(role)))
    conn.commit()
    conn.execute("LOCK TABLE canary_t IN ACCESS SHARE MODE")
    conn.execute("SELECT pg_advisory_xact_lock(4242)")
    return conn


def canary_facts(admin: psycopg.Connection, name: str, holder: psycopg.Connection) -> Canary:
    oid = admin.execute("SELECT oid::int8 FROM pg_database WHERE datname = %s", (name,)).fetchone()[0]
    pid = holder.info.backend_pid
    backend = admin.execute("SELECT b FROM pg_stat_get_backend_idset() b WHERE pg_stat_get_backend_pid(b) = %s",
                            (pid,)).fetchone()
    length = len(name) - len("canary_")
    twins = tuple(("canary_" + secrets.token_hex(length // 2), oid + offset) for offset in (7919, 104729))
    return Canary(name, oid, pid, backend[0] if backend else 1, twins)  # type: ignore[arg-type]


def _probes(type_name: str, canary: Canary) -> list[tuple[str, bool]]:
    """(SQL literal, carries the canary) for one argument type; canary-carrying values are written
    with the placeholder marks {N} (name) and {O} (oid), filled in per twin."""
    if type_name in _TEXT:
        return [("{N}", True), ("'database'", False), ("'pg_default'", False), ("''", False), ("NULL", False)]
    if type_name in _OIDS:
        return [("{O}", True), ("1262", False), ("1663", False), ("0", False), ("NULL", False)]
    if type_name in _INTS:
        return [("{O}", True), ("0", False), ("1", False), (str(canary.pid), False), (str(canary.backend_id), False),
                ("1262", False), ("1663", False), ("NULL", False)]
    if type_name in ("text[]", "name[]", "character varying[]"):
        return [("ARRAY[{N}]", True), ("'{}'", False), ("ARRAY['pg_default']", False), ("NULL", False)]
    if type_name in ("oid[]", "oidvector", "regclass[]"):
        return [("ARRAY[{O}]", True), ("'{}'", False), ("NULL", False)]
    if type_name == "boolean":
        return [("true", False), ("false", False), ("NULL", False)]
    if type_name in _POLY:
        return [("{N}::text", True), ("{O}::oid", True), ("NULL::text", False)]
    return [("NULL", False)]


def _fill(template: str, name: str, oid: int) -> str:
    return template.replace("{N}", "'" + name + "'").replace("{O}", str(oid))


def _outcome(conn: psycopg.Connection, statement: str, name: str, oid: int) -> str:
    """The call's rows as text, or its error with the name and OID written as placeholders."""
    conn.execute("SAVEPOINT probe")
    try:
        rows = conn.execute(statement).fetchall()
        text = "\n".join("" if r[0] is None else str(r[0]) for r in rows)
        conn.execute("RELEASE SAVEPOINT probe")
        return "ok:" + text
    except psycopg.Error as err:
        conn.execute("ROLLBACK TO SAVEPOINT probe")
        message = (err.diag.message_primary or str(err)).replace(name, "<N>")
        return "error:" + (err.sqlstate or "") + ":" + re.sub(rf"\b{oid}\b", "<O>", message)


def _timed_out(*outcomes: str) -> bool:
    """A call cut by the statement timeout proves nothing either way (factorial(28340) may or may not
    finish in time): such a comparison is not an oracle."""
    return any(o.startswith("error:57014:") for o in outcomes)


def _found(text: str, canary: Canary) -> list[str]:
    hits = []
    if canary.name in text:
        hits.append("name")
    if re.search(rf"(?<![\d.]){canary.oid}(?![\d.])", text):
        hits.append("oid")
    return hits


def enumerate_leaks(conn: psycopg.Connection, role: str, canary: Canary, *,
                    timeout_ms: int = 300) -> Enumeration:
    """Run the search on ``conn`` (connected to the state as ``role``; left in a rolled-back state)."""
    result = Enumeration()
    conn.prepare_threshold = None  # psycopg's own prepared statements would echo the probes back
    conn.autocommit = False
    conn.execute(sql.SQL("SET statement_timeout = {}").format(sql.Literal(f"{timeout_ms}ms")))
    conn.execute("SET default_transaction_read_only = on")
    conn.commit()
    functions = conn.execute(
        "SELECT p.oid, p.proname::text, p.prokind::text, p.proretset, "
        "ARRAY(SELECT format_type(t, NULL) FROM unnest(p.proargtypes::oid[]) WITH ORDINALITY u(t, i) ORDER BY i), "
        "format_type(p.prorettype, NULL), n.nspname::text "
        "FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace "
        "WHERE has_function_privilege(current_user, p.oid, 'EXECUTE') ORDER BY p.oid").fetchall()
    for oid, name, kind, _retset, arg_types, returns, schema in functions:
        reason = None
        if kind != "f":
            reason = "not a plain function"
        elif function_denied(name):
            reason = "refused by the guard"
        elif name in SIDE_EFFECTS:
            reason = "side effects"
        elif returns in _NOT_PASSABLE or any(t in _NOT_PASSABLE for t in arg_types):
            reason = "pseudo-type argument"
        if reason:
            result.skipped.setdefault(reason, []).append(f"{name}({', '.join(arg_types)})")
            continue
        result.functions_checked += 1
        options = [_probes(t, canary) for t in arg_types]
        sizes = [len(o) for o in options]
        total = 1
        for size in sizes:
            total *= size
        if total <= PRODUCT_CAP:
            combos = list(itertools.product(*options))
        else:
            base = [o[0] for o in options]
            combos = [tuple(base)]
            for position, values in enumerate(options):
                for value in values[1:]:
                    combos.append(tuple(value if i == position else b for i, b in enumerate(base)))
        function = f"{sql.Identifier(schema).as_string(None)}.{sql.Identifier(name).as_string(None)}"
        for combo in combos:
            template = (f"SELECT x::text FROM {function}(" + ", ".join(v for v, _ in combo) + ") AS x LIMIT 500")
            carries = any(c for _, c in combo)
            first = _outcome(conn, _fill(template, canary.name, canary.oid), canary.name, canary.oid)
            result.calls += 1
            hits = _found(first, canary)
            if carries:
                hits = [h for h in hits if not ("{N}" in template if h == "name" else "{O}" in template)]
            if hits:
                result.leaks.append(f"{name}: {', '.join(hits)} of the canary from "
                                    f"{_fill(template, canary.name, canary.oid)}")
                break
            if carries:
                twins = [_outcome(conn, _fill(template, n, o), n, o) for n, o in canary.twins]
                result.calls += 2
                if twins[0] == twins[1] and twins[0] != first and not _timed_out(first, *twins):
                    result.candidates.append((name, _fill(template, canary.name, canary.oid), first))
    views = conn.execute(
        "SELECT n.nspname::text, c.relname::text FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace "
        "WHERE n.nspname IN ('pg_catalog', 'information_schema') AND c.relkind IN ('r', 'v', 'm') "
        "AND has_table_privilege(current_user, c.oid, 'SELECT') ORDER BY 1, 2").fetchall()
    for schema, view in views:
        result.views_checked += 1
        statement = sql.SQL("SELECT t::text FROM {}.{} AS t").format(sql.Identifier(schema), sql.Identifier(view))
        outcome = _outcome(conn, statement.as_string(conn), canary.name, canary.oid)
        hits = _found(outcome, canary)
        if hits:
            result.leaks.append(f"{schema}.{view}: {', '.join(hits)} of the canary")
    conn.rollback()
    return result


def confirm_oracles(conn: psycopg.Connection, canary: Canary, result: Enumeration) -> None:
    """Once the canary database is dropped, call every candidate again: one whose outcome changed
    told whether the canary existed (an oracle); arithmetic that merely differs between the canary's
    OID and its twins' does not change. Adds the oracles to ``result.leaks``."""
    conn.prepare_threshold = None
    conn.autocommit = False
    seen = set()
    for name, call, before in result.candidates:
        if name in seen:
            continue
        after = _outcome(conn, call, canary.name, canary.oid)
        if after != before and not _timed_out(after):
            seen.add(name)
            result.leaks.append(f"{name}: tells whether the canary exists: {call} -> {before[:100]!r}, "
                                f"{after[:100]!r} once dropped")
    conn.rollback()
