"""Run one predicted SQL string in the sandbox and return its result, or raise one failure class.

The sequence for every prediction: the parser layer (``guard.check_sql``), then a fresh
connection *as the reader role*, ``BEGIN READ ONLY``, the statement declared as a server-side
cursor (PostgreSQL itself then accepts only a single SELECT/VALUES there, sent with the extended
protocol, which cannot carry a second statement) — wrapped, once PostgreSQL has described its
columns, in a filter that makes the server refuse a row with a value over the cap before sending
it (``capped_statement``) —, rows fetched under the row and byte caps, and always ``ROLLBACK`` and
close. A watchdog thread cancels from the client when the
wall-clock budget is spent, which matters only if the server-side timeout was evaded.

A new connection per prediction costs a few milliseconds and means nothing one prediction does to
its session (settings, prepared statements, a broken connection) can reach the next.

How many predictions run at once is bounded twice (issue 11): a ``Sandbox`` lets at most
``limits.max_concurrent`` of its callers' threads execute together (a semaphore of its own, so
unrelated runs share nothing in the process), and the reader role's ``CONNECTION LIMIT`` bounds all
processes on the server together; a connection refused for that reason waits and retries, so
extra work queues instead of failing, and the wait never counts against a prediction's timeout.
"""

from __future__ import annotations

import logging
import re
import threading
import time
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Iterator

import psycopg
from psycopg import conninfo, errors, pq, sql
from sqlglot.dialects.dialect import Dialect
from sqlglot.errors import SqlglotError
from sqlglot.tokens import TokenType

from heron_pipeline.database.server import SESSION_OPTIONS, Server
from heron_pipeline.results import ResultSet, ResultTooLarge
from heron_pipeline.results.codec import stream_result
from heron_pipeline.sandbox.errors import (ExecutionError, LimitExceeded, Rejected, SandboxError, SandboxUnavailable,
                                           Timeout)
from heron_pipeline.sandbox.guard import check_sql, non_query_command
from heron_pipeline.sandbox.limits import Limits, milliseconds, session_bounds, startup_options
from heron_pipeline.sandbox.roles import READER_ROLE, ensure_sandbox

_CURSOR_NAME = "heron_prediction"
log = logging.getLogger(__name__)
_DIALECT = Dialect.get_or_raise("postgres")

#: SQLSTATEs meaning "the sandbox's permissions or read-only transaction refused this".
_REFUSED = {
    "42501",  # insufficient_privilege
    "25006",  # read_only_sql_transaction
    "0LP01",  # invalid_grant_operation
    "28000",  # invalid_authorization_specification (SET SESSION AUTHORIZATION)
    "2F003",  # prohibited_sql_statement_attempted
    "38002",  # modifying_sql_data_not_permitted
    "38003",  # prohibited_sql_statement_attempted (external routine)
}

#: SQLSTATEs meaning the server, not the prediction, failed: shutdowns and a crash restart.
_SERVER_GONE = {"57P01", "57P02", "57P03", "08000", "08003", "08006", "08001", "08004"}

#: too_many_connections: the role's CONNECTION LIMIT (every slot busy) or the server's max_connections.
_NO_SLOT = "53300"


def reader_dsn(server: Server, database: str, *, role: str = READER_ROLE, password: str | None = None) -> str:
    """The DSN of ``database`` on ``server`` with the reader's credentials in place of the admin's."""
    return conninfo.make_conninfo(server.dsn(database), user=role, password=password or None)


@dataclass
class _Watchdog:
    """Cancels the running query from another thread once ``seconds`` have passed."""

    conn: psycopg.Connection
    seconds: float
    fired: threading.Event = field(default_factory=threading.Event)

    def __post_init__(self) -> None:
        self._timer = threading.Timer(self.seconds, self._fire)
        self._timer.daemon = True

    def _fire(self) -> None:
        self.fired.set()
        try:
            self.conn.cancel_safe(timeout=5.0)
        except Exception:  # noqa: BLE001 - the connection may already be gone; nothing to cancel
            pass

    def __enter__(self) -> "_Watchdog":
        self._timer.start()
        return self

    def __exit__(self, *_exc: object) -> None:
        self._timer.cancel()


def _classify(err: psycopg.Error, watchdog_fired: bool) -> SandboxError:
    """Map a psycopg error to the failure class the scorer and the CLI report."""
    state = err.sqlstate or ""
    first = str(err).strip().splitlines()[0] if str(err).strip() else type(err).__name__
    message = f"{first} (SQLSTATE {state})" if state else first
    if watchdog_fired:
        return Timeout(f"cancelled by the watchdog after the wall-clock budget: {first}")
    if isinstance(err, errors.QueryCanceled) or state in ("57014", "55P03", "25P04", "25P03"):
        return Timeout(message)  # statement timeout, lock timeout, transaction / idle timeouts
    if state in _SERVER_GONE or (isinstance(err, psycopg.OperationalError) and not state):
        # The server shut down or restarted under the prediction: the harness failed, not the tool.
        return SandboxUnavailable(f"the server closed the connection: {first}")
    if state.startswith(("53", "54")):
        return LimitExceeded(message)  # temp_file_limit, out of memory, disk full, too complex
    if state in _REFUSED:
        return Rejected(message)
    return ExecutionError(message)


def _connect(dsn: str, limits: Limits) -> psycopg.Connection:
    """A reader connection, waiting for a free slot while the role's connection limit is reached;
    the wait is said once (a ``logging`` notice), since it can last minutes."""
    deadline = time.monotonic() + limits.queue_timeout_s
    pause = 0.02
    told = False
    while True:
        try:
            return _bounded_connection(dsn, limits)
        except psycopg.Error as err:
            first = str(err).strip().splitlines()[0] if str(err).strip() else type(err).__name__
            if err.sqlstate != _NO_SLOT and "too many connections" not in first:
                raise SandboxUnavailable(f"cannot connect as the reader: {first}") from None
            if time.monotonic() + pause > deadline:
                raise SandboxUnavailable(f"no free sandbox slot on the server within {limits.queue_timeout_s:g} s "
                                         f"({first})") from None
            if not told:
                log.warning(_waiting_notice(dsn, first, limits))
                told = True
        time.sleep(pause)
        pause = min(pause * 2, 0.5)


#: The server version behind each reader DSN, learnt at its first connection: the version-dependent
#: bounds (``transaction_timeout``) then go into the startup options too.
_SERVER_VERSIONS: dict[str, int] = {}


def _bounded_connection(dsn: str, limits: Limits) -> psycopg.Connection:
    """A reader connection whose every bound is set by the sandbox itself, in the startup options
    (which take precedence over any default the role has, role-wide or per database): issue 33."""
    version = _SERVER_VERSIONS.get(dsn)
    options = f"{SESSION_OPTIONS} {startup_options(session_bounds(limits, version))}"
    conn = psycopg.connect(dsn, autocommit=False, options=options, connect_timeout=limits.connect_timeout_s)
    if version is None:
        version = _SERVER_VERSIONS.setdefault(dsn, conn.info.server_version)
        late = {k: v for k, v in session_bounds(limits, version).items() if k not in session_bounds(limits)}
        if late:
            try:
                for name, value in late.items():
                    conn.execute(sql.SQL("SET {} = {}").format(sql.Identifier(name), sql.Literal(value)))
                conn.commit()
            except BaseException:
                conn.close()
                raise
    return conn


def _waiting_notice(dsn: str, refusal: str, limits: Limits) -> str:
    """The one line that says a prediction waits for a slot, and how many are busy."""
    role = conninfo.conninfo_to_dict(dsn).get("user", READER_ROLE)
    if "for role" in refusal:  # the role's CONNECTION LIMIT: every prediction slot on the server is taken
        busy = (f"{limits.max_concurrent} of the {limits.max_concurrent} connections the reader role {role} may "
                "hold (its CONNECTION LIMIT) are busy with other predictions")
    else:  # "sorry, too many clients already": the server's max_connections
        busy = "the server has no free connection (all of its max_connections are in use)"
    return f"waiting for a sandbox slot: {busy}; this query waits up to {limits.queue_timeout_s:g} s for one"


#: Types whose text form is short and bounded (numbers, dates, times, uuids …): the server-side
#: cap leaves them unmeasured. Everything else (text, bytea, json, arrays, records, numeric, enums,
#: unknown types) is measured value by value.
_SHORT_TYPES = frozenset({16, 18, 20, 21, 23, 26, 700, 701, 790, 1082, 1083, 1114, 1184, 1186, 1266, 2950})
#: Types whose bytes on the wire are their octet_length (no conversion needed to measure them).
_TEXT_TYPES = frozenset({19, 25, 1042, 1043})

#: The server-side cap's refusal: an integer cast of this marker fails with it in the message.
_CAP_MARKER = "heron-cap"
_CAP_REFUSAL = re.compile(rf"{_CAP_MARKER} (value|row) (\d+) (\d+)")


def query_body(sql_text: str) -> str | None:
    """``sql_text`` without its trailing semicolons (and the comments after them), so that it can
    sit inside parentheses; None when it does not start as a query (``LISTEN``, ``EXPLAIN`` …: it
    is declared as it is and PostgreSQL refuses it there, as before) or sqlglot cannot tokenize it.
    When what follows the last token is not only semicolons the text is kept whole (PostgreSQL
    then judges the wrapped text)."""
    try:
        tokens = _DIALECT.tokenize(sql_text)
    except SqlglotError:
        return None
    statement = [t for t in tokens if t.token_type != TokenType.SEMICOLON]
    if not statement or non_query_command(statement) is not None:
        return None
    cut = statement[-1].end + 1
    try:
        tail = _DIALECT.tokenize(sql_text[cut:])
    except SqlglotError:
        return sql_text
    return sql_text[:cut] if all(t.token_type == TokenType.SEMICOLON for t in tail) else sql_text


def describe_statement(conn: psycopg.Connection, sql_text: str) -> list[tuple[str, int]]:
    """The result columns (name, type oid) ``sql_text`` would return, from PostgreSQL's own
    Parse and Describe of it as the session's user: nothing is planned or run. A statement
    PostgreSQL refuses raises its error, as executing it would."""
    encoding = conn.info.encoding
    pgconn = conn.pgconn
    for result in (lambda: pgconn.prepare(b"", sql_text.encode(encoding)), lambda: pgconn.describe_prepared(b"")):
        described = result()
        if described.status == pq.ExecStatus.FATAL_ERROR:
            raise errors.error_from_result(described, encoding=encoding)
    return [(described.fname(i).decode(encoding), described.ftype(i)) for i in range(described.nfields)]


def capped_statement(body: str, columns: list[tuple[str, int]], limits: Limits) -> sql.Composable:
    """The query ``body`` (see ``query_body``) wrapped so that PostgreSQL refuses a row before
    sending it when one of its values is over ``limits.value_cap`` bytes or the row is over
    ``limits.max_bytes``: the client then never receives a value it would refuse (libpq receives
    a whole row before heron can look at it). Same columns, names, types and row order; the prediction is planned on its own
    (``OFFSET 0`` keeps it from being merged into the wrapper), so its plan is what it was."""
    aliases = [sql.Identifier(f"c{i}") for i in range(1, len(columns) + 1)]
    sizes = []
    for number, (alias, (_name, oid)) in enumerate(zip(aliases, columns), 1):
        if oid in _SHORT_TYPES:
            continue
        value = sql.SQL("heron_q.{}").format(alias) if oid in _TEXT_TYPES else sql.SQL("heron_q.{}::text").format(alias)
        sizes.append((number, sql.SQL("pg_catalog.octet_length({})").format(value)))
    # A CASE runs its WHENs in order and stops at the first true one, so the failing cast (the
    # refusal, with the size in its message) is evaluated only for a value over the cap.
    whens = [sql.SQL("WHEN {size} > {cap} THEN ({marker} || {size})::int4 = 0").format(
        size=size, cap=sql.Literal(limits.value_cap),
        marker=sql.Literal(f"{_CAP_MARKER} value {number} ")) for number, size in sizes]
    if len(sizes) > 1:
        # int8: several values of up to 1 GB each overflow octet_length's int4
        total = sql.SQL(" + ").join(sql.SQL("coalesce({}, 0)::int8").format(size) for _, size in sizes)
        whens.append(sql.SQL("WHEN {total} > {cap} THEN ({marker} || {total})::int4 = 0").format(
            total=total, cap=sql.Literal(limits.max_bytes), marker=sql.Literal(f"{_CAP_MARKER} row 0 ")))
    check = (sql.SQL(" WHERE CASE {} ELSE true END").format(sql.SQL(" ").join(whens)) if whens else sql.SQL(""))
    return sql.SQL("SELECT {outputs} FROM (SELECT * FROM (\n{body}\n) AS heron_p OFFSET 0) AS heron_q({aliases})"
                   "{check}").format(
        outputs=sql.SQL(", ").join(sql.SQL("heron_q.{} AS {}").format(alias, sql.Identifier(name))
                                   for alias, (name, _oid) in zip(aliases, columns)),
        body=sql.SQL(body), aliases=sql.SQL(", ").join(aliases), check=check)


def _over_server_cap(err: psycopg.Error, columns: list[tuple[str, int]], limits: Limits) -> LimitExceeded | None:
    """The ``limit`` failure when ``err`` is the server-side cap's refusal, else None."""
    found = _CAP_REFUSAL.search(str(err))
    if found is None or err.sqlstate != "22P02":
        return None
    kind, column, size = found.group(1), int(found.group(2)), int(found.group(3))
    if kind == "value":
        name = columns[column - 1][0] if 0 < column <= len(columns) else str(column)
        return LimitExceeded(f"a value of {size:,} bytes (column {name}) is over the {limits.value_cap:,}-byte cap "
                             "on one value (refused by the server before it was sent)")
    return LimitExceeded(f"a row of {size:,} bytes is more than the {limits.max_bytes:,}-byte cap on the result "
                         "(refused by the server before it was sent)")


def run_prediction(sql_text: str, *, dsn: str, limits: Limits = Limits(), parser: bool = True,
                   stopwatch: list[float] | None = None) -> ResultSet:
    """Run one predicted query as the reader role behind ``dsn``; raise a ``SandboxError`` subclass.

    ``parser=False`` switches the sqlglot layer off: for the tests that prove the other layers
    hold on their own. Production callers leave it on, and go through ``Sandbox.run``, which also
    bounds how many run at once.

    ``stopwatch`` (VES timing, issue 33): when given, the seconds from declaring the cursor to the
    last row fetched are appended to it. It is the only difference between a scored and a timed
    run, and it is client-side only: the server sees the same connection, settings, transaction,
    cursor name, statement and fetches, so a query cannot tell from inside whether it is timed.
    """
    if parser:
        check_sql(sql_text, limits)
    conn = _connect(dsn, limits)
    try:
        conn.read_only = True  # psycopg opens every transaction with BEGIN READ ONLY
        with _Watchdog(conn, limits.wall_clock_s) as watchdog:
            columns: list[tuple[str, int]] = []
            try:
                # Trusted statements of our own, before the prediction: the transaction's limits, and a
                # plan costed for fetching every row (a cursor is otherwise planned for the first 10 %).
                for setting, value in (("statement_timeout", f"{milliseconds(limits.statement_timeout_s)}ms"),
                                       ("lock_timeout", f"{milliseconds(limits.lock_timeout_s)}ms"),
                                       ("cursor_tuple_fraction", "1.0")):
                    conn.execute(sql.SQL("SET LOCAL {} = {}").format(sql.Identifier(setting), sql.Literal(value)))
                # The columns first (Parse and Describe only), so the statement can be wrapped in the
                # server-side cap; a statement with no columns is declared as it is, and refused there.
                body = query_body(sql_text)
                columns = describe_statement(conn, sql_text) if body is not None else []
                statement = capped_statement(body, columns, limits) if body is not None and columns else sql_text
                with conn.cursor(name=_CURSOR_NAME) as cursor:
                    started = time.perf_counter()
                    cursor.execute(statement)  # the string given, wrapped; PostgreSQL ignores trailing ';'
                    result = stream_result(cursor, max_rows=limits.max_rows, max_bytes=limits.max_bytes,
                                           max_value_bytes=limits.value_cap)
                    if stopwatch is not None:
                        stopwatch.append(time.perf_counter() - started)
                    return result
            except ResultTooLarge as err:
                raise LimitExceeded(str(err)) from None
            except psycopg.Error as err:
                raise (_over_server_cap(err, columns, limits) or _classify(err, watchdog.fired.is_set())) from None
            except ValueError as err:  # the statement returned no result set
                raise ExecutionError(str(err)) from None
    finally:
        try:
            conn.rollback()
        except psycopg.Error:
            pass
        conn.close()


@dataclass(frozen=True)
class Sandbox:
    """A prepared sandbox on one benchmark database: the reader DSN, the caps, and the slots that
    bound how many of this sandbox's predictions run at once (``limits.max_concurrent``)."""

    dsn: str
    limits: Limits = field(default_factory=Limits)
    parser: bool = True
    _slots: threading.BoundedSemaphore = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_slots", threading.BoundedSemaphore(self.limits.max_concurrent))

    @contextmanager
    def slot(self) -> Iterator[None]:
        """Hold one of this sandbox's execution slots (waiting up to ``limits.queue_timeout_s``)."""
        if not self._slots.acquire(timeout=self.limits.queue_timeout_s):
            raise SandboxUnavailable(f"no free sandbox slot within {self.limits.queue_timeout_s:g} s")
        try:
            yield
        finally:
            self._slots.release()

    def run(self, sql_text: str, *, stopwatch: list[float] | None = None) -> ResultSet:
        """Run one prediction (parser first, outside the slot: it needs no server). VES timing runs
        gold and prediction through this same call, with a ``stopwatch`` (see ``run_prediction``)."""
        if self.parser:
            check_sql(sql_text, self.limits)
        with self.slot():
            return run_prediction(sql_text, dsn=self.dsn, limits=self.limits, parser=False, stopwatch=stopwatch)

    @contextmanager
    def connection(self) -> Iterator[psycopg.Connection]:
        """A plain reader connection inside one slot, for callers that run SQL of their own as the
        reader (VES timing): it counts against the same bounds as a prediction."""
        with self.slot():
            conn = _connect(self.dsn, self.limits)
            try:
                yield conn
            finally:
                conn.close()


def prepare_sandbox(server: Server, database: str, *, limits: Limits = Limits(), role: str = READER_ROLE,
                    password: str | None = None, parser: bool = True) -> Sandbox:
    """Check the reader role and its grants on ``database`` (as the admin) and repair them only if
    needed, then return the sandbox that runs predictions there.

    ``password`` defaults to the server's configured reader password (``HERON_READER_PASSWORD``),
    so every caller — scoring, verification, ``heron query`` — connects the same way to a server
    that asks the reader for one.

    The usual call only reads catalogs (a few ms); see ``roles.ensure_sandbox``. Any failure here
    is the sandbox's, never a prediction's: it raises ``SandboxUnavailable``."""
    if password is None:
        password = getattr(getattr(server, "settings", None), "reader_password", None)
    try:
        exists = server.database_exists(database)
    except psycopg.Error as err:
        first = str(err).strip().splitlines()[0] if str(err).strip() else type(err).__name__
        raise SandboxUnavailable(f"cannot reach the server: {first}") from None
    if not exists:
        raise SandboxUnavailable(f"{database} does not exist; build it with `heron seed`")
    try:
        with server.connect(database) as admin, server.connect() as lock:
            # Waiting for another process's setup is waiting for the sandbox: the same bound.
            ensure_sandbox(admin, lock, limits, role=role, password=password, lock_timeout_s=limits.queue_timeout_s)
    except psycopg.Error as err:
        first = str(err).strip().splitlines()[0] if str(err).strip() else type(err).__name__
        raise SandboxUnavailable(f"sandbox role setup failed on {database}: {first}") from None
    return Sandbox(reader_dsn(server, database, role=role, password=password), limits, parser)
