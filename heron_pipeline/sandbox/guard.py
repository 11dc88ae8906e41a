"""The parser layer: accept exactly one read-only query, judged on its syntax tree.

Predicted SQL is parsed with sqlglot's PostgreSQL dialect and the whole tree is walked, so a
``DELETE`` hidden in a CTE or a subquery is found while the word ``delete`` inside a string literal
or a comment is not (literals and comments are not statements or functions in the tree). This is
one of three layers: the reader role and the READ ONLY transaction would stop writes on their own,
but refusing here gives a clear message and keeps hostile SQL away from the server altogether.

The rule fails closed: SQL sqlglot cannot parse is rejected, even if PostgreSQL might accept it.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

import sqlglot
from sqlglot import exp
from sqlglot.errors import SqlglotError

from heron_pipeline.sandbox.errors import Rejected

#: A statement may be one of these at its root: queries and set operations only.
_QUERY_ROOTS = (exp.Select, exp.SetOperation, exp.Subquery, exp.Values)

#: Nodes that never belong in a read-only query, wherever they sit in the tree.
_FORBIDDEN_NODES: tuple[tuple[type[exp.Expression], str], ...] = (
    (exp.Insert, "INSERT"),
    (exp.Update, "UPDATE"),
    (exp.Delete, "DELETE"),
    (exp.Merge, "MERGE"),
    (exp.DML, "a data-modifying statement"),
    (exp.DDL, "DDL"),
    (exp.Create, "CREATE"),
    (exp.Drop, "DROP"),
    (exp.Alter, "ALTER"),
    (exp.TruncateTable, "TRUNCATE"),
    (exp.Copy, "COPY"),
    (exp.Command, "a utility command"),
    (exp.Set, "SET"),
    (exp.Transaction, "a transaction command"),
    (exp.Commit, "COMMIT"),
    (exp.Rollback, "ROLLBACK"),
    (exp.Grant, "GRANT"),
    (exp.Revoke, "REVOKE"),
    (exp.Analyze, "ANALYZE"),
    (exp.Into, "SELECT INTO (it creates a table)"),
    (exp.Lock, "a locking clause (FOR UPDATE / FOR SHARE)"),
)

#: Functions refused by exact (lower-case) name: side effects, file and network access, sleeping,
#: session or server control, or running SQL given as a string.
DENIED_FUNCTIONS = frozenset({
    "pg_sleep", "pg_sleep_for", "pg_sleep_until",
    "set_config", "pg_notify", "pg_reload_conf", "pg_rotate_logfile", "pg_promote",
    "pg_terminate_backend", "pg_cancel_backend", "pg_log_backend_memory_contexts",
    "nextval", "setval", "currval", "lastval",
    "txid_current", "txid_current_if_assigned", "pg_current_xact_id", "pg_current_xact_id_if_assigned",
    "pg_export_snapshot", "pg_stat_file", "pg_stat_reset", "pg_stat_reset_shared",
    "pg_stat_reset_single_table_counters", "pg_stat_reset_single_function_counters", "pg_stat_reset_slru",
    "pg_switch_wal", "pg_backup_start", "pg_backup_stop", "pg_create_restore_point", "pg_checkpoint",
    "query_to_xml", "query_to_xmlschema", "query_to_xml_and_xmlschema", "cursor_to_xml", "cursor_to_xmlschema",
    "database_to_xml", "database_to_xmlschema", "database_to_xml_and_xmlschema",
    "ts_stat", "ts_rewrite",
})

#: Function name prefixes refused: whole families (file reading, large objects, dblink, advisory
#: locks, replication slots, WAL replay control).
DENIED_PREFIXES = (
    "pg_read_", "pg_ls_", "pg_file_", "lo_", "dblink", "pg_advisory_", "pg_try_advisory_",
    "pg_create_", "pg_drop_", "pg_replication_", "pg_logical_", "pg_wal_replay_", "pg_import_",
    "binary_upgrade_", "pg_stat_reset",
)


@dataclass(frozen=True)
class Verdict:
    """What the guard saw in an accepted query (for logs and tests)."""

    kind: str  # "select" | "union" | "intersect" | "except" | "subquery" | "values"
    functions: frozenset[str]


def function_denied(name: str) -> bool:
    lowered = name.lower()
    return lowered in DENIED_FUNCTIONS or lowered.startswith(DENIED_PREFIXES)


def _function_name(node: exp.Func) -> str:
    if isinstance(node, exp.Anonymous):
        return str(node.name)
    return node.sql_name()


def check_sql(sql: str) -> Verdict:
    """Return the verdict on ``sql`` if it is exactly one read-only query, else raise ``Rejected``."""
    if not sql or not sql.strip():
        raise Rejected("empty SQL")
    if "\x00" in sql:
        raise Rejected("SQL contains a NUL byte")
    logger = logging.getLogger("sqlglot")
    level = logger.level
    logger.setLevel(logging.ERROR)  # sqlglot warns when it falls back to a Command; we reject those
    try:
        # Empty statements (``;;``) and a trailing comment after the last ``;`` (a Semicolon node
        # holding only comments) are not statements.
        statements = [s for s in sqlglot.parse(sql, read="postgres")
                      if s is not None and not isinstance(s, exp.Semicolon)]
    except SqlglotError as err:
        first = str(err).splitlines()[0] if str(err) else type(err).__name__
        raise Rejected(f"does not parse as one PostgreSQL query: {first}") from None
    except RecursionError:
        raise Rejected("does not parse: nested too deeply") from None
    finally:
        logger.setLevel(level)
    if len(statements) != 1:
        raise Rejected(f"expected exactly one statement, found {len(statements)}")
    root = statements[0]
    if not isinstance(root, _QUERY_ROOTS):
        raise Rejected(f"only queries may run, not {_describe(root)}")
    functions: set[str] = set()
    for node in root.walk():
        for kind, label in _FORBIDDEN_NODES:
            if isinstance(node, kind):
                raise Rejected(f"{label} is not allowed in a read-only query")
        if isinstance(node, exp.Func):
            name = _function_name(node)
            if function_denied(name):
                raise Rejected(f"function {name.lower()}() is not allowed")
            functions.add(name.lower())
    return Verdict(kind=type(root).__name__.lower(), functions=frozenset(functions))


def _describe(node: exp.Expression) -> str:
    if isinstance(node, exp.Command):
        return f"{str(node.this).upper()} (a utility command)"
    return type(node).__name__.upper()
