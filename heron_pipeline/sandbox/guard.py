"""The parser layer: accept exactly one read-only query, judged on its syntax tree.

Predicted SQL is parsed with sqlglot's PostgreSQL dialect and the whole tree is walked, so a
``DELETE`` hidden in a CTE or a subquery is found while the word ``delete`` inside a string literal
or a comment is not (literals and comments are not statements or functions in the tree). This is
one of three layers: the reader role and the READ ONLY transaction would stop writes on their own,
but refusing here gives a clear message and keeps hostile SQL away from the server altogether.

The rule fails closed: SQL sqlglot cannot parse is rejected, even if PostgreSQL might accept it.

Two things sqlglot does not do for us: it keeps a Unicode-escaped identifier (``U&"pg\005Fsleep"``)
undecoded, so those are decoded here the way PostgreSQL does before the denylist sees them; and its
time grows with the input, so the input's characters, tokens and bracket depth are bounded before
it parses (over a bound is ``LimitExceeded``, a ``limit`` result, not a parse). Whatever this layer
misses, the reader role cannot EXECUTE any denied function on a benchmark database (roles.py).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

from sqlglot import exp
from sqlglot.dialects.dialect import Dialect
from sqlglot.errors import SqlglotError
from sqlglot.tokens import Token, TokenType

from heron_pipeline.sandbox.errors import LimitExceeded, Rejected
from heron_pipeline.sandbox.limits import Limits

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
    "loread", "lowrite", "pg_current_logfile", "pg_sync_replication_slots", "gin_clean_pending_list",
    "brin_summarize_new_values", "brin_summarize_range", "brin_desummarize_range",
    # What a query over the domain schemas never needs and that tells states apart by name or
    # shows the server (Hardening II): the databases (a name's existence is an oracle for a hidden
    # state's seed), every setting at once, other sessions. roles.HIDDEN_CATALOGS hides the views.
    "pg_database_size", "has_database_privilege", "pg_show_all_settings", "pg_stat_get_activity",
    # Found by the enumeration of every function the reader may run (issue 33,
    # tests/sandbox/test_sandbox_databases.py): each names another database, gives its OID, or tells
    # whether one exists (pg_describe_object(1262, oid, 0) over pg_tablespace_databases(1663) lists
    # every state's name; pg_get_object_address('database', …) is an existence oracle).
    "pg_describe_object", "pg_identify_object", "pg_identify_object_as_address", "pg_get_object_address",
    "pg_tablespace_databases", "pg_lock_status", "pg_database_collation_actual_version", "pg_stat_have_stats",
    "pg_stat_get_progress_info",
})

#: Function name prefixes refused: whole families (file reading, large objects, dblink, advisory
#: locks, replication slots, WAL replay control, planner statistics writers).
DENIED_PREFIXES = (
    "pg_read_", "pg_ls_", "pg_file_", "lo_", "dblink", "pg_advisory_", "pg_try_advisory_",
    "pg_create_", "pg_drop_", "pg_replication_", "pg_logical_", "pg_wal_replay_", "pg_import_",
    "binary_upgrade_", "pg_stat_reset", "pg_copy_", "pg_log_", "pg_restore_", "pg_clear_", "pg_set_",
    # Per-database statistics by database OID (an existence oracle over OIDs) and other sessions'
    # databases, queries and clients (issue 33).
    "pg_stat_get_db_", "pg_stat_get_backend_",
)

#: System catalogs and views a query over the domain schemas never needs, and the reader may not
#: read (SELECT revoked from PUBLIC in each benchmark database, roles.py; refused here by name): the
#: list of every database — each state's name, a hidden state's included — and their comments,
#: statistics, locks and shared dependencies (which carry other databases' OIDs), the server's
#: settings, and other sessions. What stays readable: the catalogs that describe the benchmark
#: database itself (pg_class, pg_attribute, pg_type, information_schema …). docs/METHODOLOGY.md §12.
HIDDEN_CATALOGS = (
    "pg_database", "pg_stat_database", "pg_stat_database_conflicts", "pg_shdescription", "pg_db_role_setting",
    "pg_settings", "pg_stat_activity", "pg_replication_slots", "pg_prepared_xacts", "pg_stat_progress_analyze",
    "pg_stat_progress_basebackup", "pg_stat_progress_cluster", "pg_stat_progress_copy",
    "pg_stat_progress_create_index", "pg_stat_progress_vacuum", "pg_locks", "pg_shdepend",
)


def relation_hidden(name: str) -> bool:
    """Whether ``name`` (unqualified or ``pg_catalog.``-qualified) is one of the hidden catalogs."""
    lowered = name.lower()
    return lowered.removeprefix("pg_catalog.") in HIDDEN_CATALOGS


#: PostgreSQL's statements that are not queries, by their first keyword (its SQL command
#: reference). sqlglot reads several of them as something else (``LISTEN x`` as a column aliased
#: ``x``, ``CHECKPOINT`` as a column) or cannot parse them (``UNLISTEN *``), so the refusal names
#: the command from the first keyword, before parsing. Multi-word names are completed from
#: ``_COMMAND_NAMES``.
NON_QUERY_COMMANDS = frozenset({
    "ABORT", "ALTER", "ANALYZE", "ANALYSE", "BEGIN", "CALL", "CHECKPOINT", "CLOSE", "CLUSTER", "COMMENT",
    "COMMIT", "COPY", "CREATE", "DEALLOCATE", "DECLARE", "DELETE", "DISCARD", "DO", "DROP", "END", "EXECUTE",
    "EXPLAIN", "FETCH", "GRANT", "IMPORT", "INSERT", "LISTEN", "LOAD", "LOCK", "MERGE", "MOVE", "NOTIFY",
    "PREPARE", "REASSIGN", "REFRESH", "REINDEX", "RELEASE", "RESET", "REVOKE", "ROLLBACK", "SAVEPOINT",
    "SECURITY", "SET", "SHOW", "START", "TRUNCATE", "UNLISTEN", "UPDATE", "VACUUM",
})

_COMMAND_NAMES = {"START": "START TRANSACTION", "SECURITY": "SECURITY LABEL", "IMPORT": "IMPORT FOREIGN SCHEMA",
                  "REFRESH": "REFRESH MATERIALIZED VIEW", "REASSIGN": "REASSIGN OWNED", "ANALYSE": "ANALYZE"}

#: What kind of command each is, for the refusal (the rest are "a utility command").
_COMMAND_KINDS = {
    **dict.fromkeys(("ABORT", "BEGIN", "COMMIT", "END", "RELEASE", "ROLLBACK", "SAVEPOINT", "START"),
                    "transaction control"),
    **dict.fromkeys(("LISTEN", "NOTIFY", "UNLISTEN"), "asynchronous notification"),
    **dict.fromkeys(("DELETE", "INSERT", "MERGE", "UPDATE"), "it changes data"),
    **dict.fromkeys(("ALTER", "COMMENT", "CREATE", "DROP", "GRANT", "REVOKE", "SECURITY", "TRUNCATE", "REASSIGN",
                     "IMPORT", "REFRESH"), "it changes the database"),
    **dict.fromkeys(("RESET", "SET", "DISCARD", "LOAD"), "session settings"),
    **dict.fromkeys(("CLOSE", "DECLARE", "FETCH", "MOVE"), "cursor control"),
    **dict.fromkeys(("DEALLOCATE", "EXECUTE", "PREPARE"), "prepared statements"),
}


def non_query_command(tokens: list[Token]) -> str | None:
    """The name of the PostgreSQL command ``tokens`` start with when it is not a query
    (``LISTEN``, ``START TRANSACTION``), else None."""
    if not tokens:
        return None
    first = tokens[0].text.upper()
    if tokens[0].token_type in (TokenType.STRING, TokenType.IDENTIFIER) or first not in NON_QUERY_COMMANDS:
        return None
    return _COMMAND_NAMES.get(first, first)


def _refuse_command(name: str) -> Rejected:
    kind = _COMMAND_KINDS.get(name.split()[0], "a utility command")
    return Rejected(f"only queries (SELECT, WITH, VALUES, TABLE) may run, not {name} ({kind})")


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


_OPENING = {TokenType.L_PAREN, TokenType.L_BRACKET, TokenType.L_BRACE}
_CLOSING = {TokenType.R_PAREN, TokenType.R_BRACKET, TokenType.R_BRACE}


def _bracket_depth(tokens: list[Token]) -> int:
    depth = deepest = 0
    for token in tokens:
        if token.token_type in _OPENING:
            depth += 1
            deepest = max(deepest, depth)
        elif token.token_type in _CLOSING:
            depth -= 1
    return deepest


def decode_unicode_escapes(body: str, escape: str = "\\") -> str:
    """The text of a ``U&"…"`` identifier as PostgreSQL reads it: ``\\XXXX`` and ``\\+XXXXXX`` are code
    points (a UTF-16 surrogate pair makes one), a doubled escape character is itself."""
    out: list[str] = []
    index, high = 0, None
    while index < len(body):
        char = body[index]
        if char != escape:
            if high is not None:
                raise Rejected("invalid Unicode escape in a U& identifier: unpaired surrogate")
            out.append(char)
            index += 1
            continue
        if body[index + 1:index + 2] == escape:
            out.append(escape)
            index += 2
            continue
        plus = body[index + 1:index + 2] == "+"
        start, count = (index + 2, 6) if plus else (index + 1, 4)
        digits = body[start:start + count]
        if len(digits) != count or any(c not in "0123456789abcdefABCDEF" for c in digits):
            raise Rejected("invalid Unicode escape in a U& identifier")
        code = int(digits, 16)
        index = start + count
        if 0xD800 <= code <= 0xDBFF:
            if high is not None:
                raise Rejected("invalid Unicode escape in a U& identifier: unpaired surrogate")
            high = code
            continue
        if 0xDC00 <= code <= 0xDFFF:
            if high is None:
                raise Rejected("invalid Unicode escape in a U& identifier: unpaired surrogate")
            code, high = 0x10000 + ((high - 0xD800) << 10) + (code - 0xDC00), None
        if code == 0 or code > 0x10FFFF or high is not None:
            raise Rejected("invalid Unicode escape in a U& identifier")
        out.append(chr(code))
    if high is not None:
        raise Rejected("invalid Unicode escape in a U& identifier: unpaired surrogate")
    return "".join(out)


def unicode_identifiers(tokens: list[Token]) -> list[str]:
    """Every ``U&"…"`` identifier in ``tokens``, decoded. sqlglot reads ``U&"x"`` as the column ``U``
    bitwise-and the identifier ``x``; PostgreSQL reads it as one identifier when ``U&"`` is written
    without spaces, which is what the token positions show."""
    found = []
    for index in range(len(tokens) - 2):
        u, amp, ident = tokens[index:index + 3]
        if (u.token_type == TokenType.VAR and u.text in ("u", "U") and amp.token_type == TokenType.AMP
                and ident.token_type == TokenType.IDENTIFIER and amp.start == u.end + 1
                and ident.start == amp.end + 1):
            escape = "\\"
            after = tokens[index + 3:index + 5]
            if (len(after) == 2 and after[0].text.upper() == "UESCAPE"
                    and after[1].token_type == TokenType.STRING and len(after[1].text) == 1):
                escape = after[1].text
            found.append(decode_unicode_escapes(ident.text, escape))
    return found


def _tokens(sql: str, limits: Limits) -> list[Token]:
    """The input bounds, then sqlglot's tokens (tokenizing is linear; parsing is what they protect)."""
    if len(sql) > limits.max_sql_chars:
        raise LimitExceeded(f"the SQL is {len(sql):,} characters; the parser takes at most "
                            f"{limits.max_sql_chars:,}")
    try:
        tokens = _DIALECT.tokenize(sql)
    except SqlglotError as err:
        first = str(err).splitlines()[0] if str(err) else type(err).__name__
        raise Rejected(f"does not parse as one PostgreSQL query: {first}") from None
    if len(tokens) > limits.max_sql_tokens:
        raise LimitExceeded(f"the SQL has {len(tokens):,} tokens; the parser takes at most {limits.max_sql_tokens:,}")
    depth = _bracket_depth(tokens)
    if depth > limits.max_sql_depth:
        raise LimitExceeded(f"the SQL nests brackets {depth:,} deep; the parser takes at most {limits.max_sql_depth}")
    return tokens


_DIALECT = Dialect.get_or_raise("postgres")


def check_sql(sql: str, limits: Limits | None = None) -> Verdict:
    """Return the verdict on ``sql`` if it is exactly one read-only query, else raise ``Rejected``
    (or ``LimitExceeded`` when the input is over the parser's bounds in ``limits``)."""
    if not sql or not sql.strip():
        raise Rejected("empty SQL")
    if "\x00" in sql:
        raise Rejected("SQL contains a NUL byte")
    tokens = _tokens(sql, limits or _DEFAULT_LIMITS)
    command = non_query_command(tokens)
    if command is not None:
        raise _refuse_command(command)
    for name in unicode_identifiers(tokens):
        if function_denied(name):
            raise Rejected(f"function {name.lower()}() is not allowed (written with Unicode escapes)")
        if relation_hidden(name):
            raise Rejected(f"the catalog {name.lower()} is not readable (it describes other databases or the "
                           "server; written with Unicode escapes)")
    logger = logging.getLogger("sqlglot")
    level = logger.level
    logger.setLevel(logging.ERROR)  # sqlglot warns when it falls back to a Command; we reject those
    try:
        # Empty statements (``;;``) and a trailing comment after the last ``;`` (a Semicolon node
        # holding only comments) are not statements.
        statements = [s for s in _DIALECT.parser().parse(tokens, sql)
                      if s is not None and not isinstance(s, exp.Semicolon)]
    except SqlglotError as err:
        first = str(err).splitlines()[0] if str(err) else type(err).__name__
        raise Rejected(f"does not parse as one PostgreSQL query: {first}") from None
    except RecursionError:
        raise LimitExceeded("the SQL nests too deeply for the parser") from None
    finally:
        logger.setLevel(level)
    if len(statements) != 1:
        raise Rejected(f"expected exactly one statement, found {len(statements)}")
    root = statements[0]
    if not isinstance(root, _QUERY_ROOTS):
        raise _refuse_command(_describe(root) or tokens[0].text.upper())
    functions: set[str] = set()
    for node in root.walk():
        for kind, label in _FORBIDDEN_NODES:
            if isinstance(node, kind):
                raise Rejected(f"{label} is not allowed in a read-only query")
        if isinstance(node, exp.Table) and relation_hidden(node.name) and node.db.lower() in ("", "pg_catalog"):
            raise Rejected(f"the catalog {node.name.lower()} is not readable (it describes other databases or the "
                           "server)")
        if isinstance(node, exp.Func):
            name = _function_name(node)
            if function_denied(name):
                raise Rejected(f"function {name.lower()}() is not allowed")
            functions.add(name.lower())
    return Verdict(kind=type(root).__name__.lower(), functions=frozenset(functions))


_DEFAULT_LIMITS = Limits()


def _describe(node: exp.Expression) -> str | None:
    """The statement's command as PostgreSQL names it, for a root the keyword check did not know;
    None when sqlglot's reading names nothing (it reads unknown words as a column or an alias, so
    its class name is no name: the caller names the first word)."""
    if isinstance(node, exp.Command):
        return str(node.this).upper()
    for kind, label in _FORBIDDEN_NODES:
        if isinstance(node, kind) and label.isupper():
            return label
    return None
