"""Query results as a lossless, typed JSON document.

Gold answers are stored once and compared for years, and `heron query` prints the same document,
so the encoding must give back exactly what psycopg returned: ``Decimal('1.50')`` keeps its scale,
a ``timestamptz`` keeps its offset and microseconds, a ``uuid`` comes back as ``UUID``. JSON alone
cannot do that, so every column records its PostgreSQL type (``format_type`` spelling) and each
value is encoded by that type, not by guessing from the Python value. Decoding is then unambiguous.

Document shape (canonical text: sorted keys, no spaces, UTF-8)::

    {"columns": [{"name": "total", "type": "numeric"}, ...], "rows": [["12.50", ...], ...]}
"""

from __future__ import annotations

import base64
import datetime as dt
import json
import math
import uuid
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any, Callable

__all__ = [
    "Column",
    "ResultSet",
    "ResultTooLarge",
    "decode",
    "dumps",
    "encode",
    "execute_readonly",
    "fetch_result",
    "loads",
    "stream_result",
]


@dataclass(frozen=True)
class Column:
    name: str
    type: str


@dataclass(frozen=True)
class ResultSet:
    columns: tuple[Column, ...]
    rows: list[tuple] = field(default_factory=list)

    @property
    def types(self) -> tuple[str, ...]:
        return tuple(column.type for column in self.columns)


class ResultTooLarge(Exception):
    """A fetch passed its row or byte cap; the message says which and where."""

    def __init__(self, message: str, *, kind: str) -> None:
        super().__init__(message)
        self.kind = kind  # "rows" | "bytes" | "value"


# -- per-type value codecs ---------------------------------------------------------------------------

_INTEGER = {"smallint", "integer", "bigint", "oid", "xid", "cid"}
_FLOAT = {"real", "double precision"}
_TEXTUAL = {"text", "character varying", "character", "bpchar", "name", '"char"', "citext", "unknown", "money"}


def _float_out(value: float) -> Any:
    if math.isnan(value):
        return "NaN"
    if math.isinf(value):
        return "Infinity" if value > 0 else "-Infinity"
    return value


def _float_in(value: Any) -> float:
    return float(value)  # float("NaN"), float("Infinity") and numbers alike


def _interval_out(value: dt.timedelta) -> list[int]:
    return [value.days, value.seconds, value.microseconds]


def _interval_in(value: list[int]) -> dt.timedelta:
    days, seconds, micro = value
    return dt.timedelta(days=days, seconds=seconds, microseconds=micro)


def _identity(value: Any) -> Any:
    return value


_SCALAR: dict[str, tuple[Callable[[Any], Any], Callable[[Any], Any]]] = {
    "numeric": (str, Decimal),
    "boolean": (bool, bool),
    "date": (dt.date.isoformat, dt.date.fromisoformat),
    "timestamp with time zone": (dt.datetime.isoformat, dt.datetime.fromisoformat),
    "timestamp without time zone": (dt.datetime.isoformat, dt.datetime.fromisoformat),
    "time without time zone": (dt.time.isoformat, dt.time.fromisoformat),
    "time with time zone": (dt.time.isoformat, dt.time.fromisoformat),
    "interval": (_interval_out, _interval_in),
    "uuid": (str, uuid.UUID),
    "json": (_identity, _identity),
    "jsonb": (_identity, _identity),
    "bytea": (lambda b: base64.b64encode(bytes(b)).decode("ascii"), base64.b64decode),
}


def _base_type(type_name: str) -> str:
    """``numeric(12,2)`` → ``numeric``; ``character varying(80)`` → ``character varying``."""
    return type_name.split("(", 1)[0].strip()


def _codec(type_name: str) -> tuple[Callable[[Any], Any], Callable[[Any], Any]]:
    base = _base_type(type_name)
    if base in _INTEGER:
        return int, int
    if base in _FLOAT:
        return _float_out, _float_in
    if base in _SCALAR:
        return _SCALAR[base]
    # Text, enums and anything unknown travel as text: enums and domains arrive from psycopg as str.
    return (lambda v: v if isinstance(v, str) else str(v)), _identity


def _encode_value(value: Any, type_name: str) -> Any:
    if value is None:
        return None
    if type_name.endswith("[]"):
        element = type_name[:-2]
        # A multi-dimensional array is a list of lists of the same array type.
        return [_encode_value(item, type_name if isinstance(item, list) else element) for item in value]
    return _codec(type_name)[0](value)


def _decode_value(value: Any, type_name: str) -> Any:
    if value is None:
        return None
    if type_name.endswith("[]"):
        element = type_name[:-2]
        # A multi-dimensional array is a list of lists of the same array type.
        return [_decode_value(item, type_name if isinstance(item, list) else element) for item in value]
    return _codec(type_name)[1](value)


# -- documents ---------------------------------------------------------------------------------------


def encode(result: ResultSet) -> dict:
    types = result.types
    rows = [[_encode_value(v, t) for v, t in zip(row, types)] for row in result.rows]
    return {"columns": [{"name": c.name, "type": c.type} for c in result.columns], "rows": rows}


def decode(document: dict) -> ResultSet:
    """Inverse of :func:`encode`; a malformed document raises ``ValueError`` naming the problem."""
    if not isinstance(document, dict) or set(document) != {"columns", "rows"}:
        raise ValueError("a result document has exactly the keys 'columns' and 'rows'")
    try:
        columns = tuple(Column(str(c["name"]), str(c["type"])) for c in document["columns"])
    except (TypeError, KeyError) as err:
        raise ValueError(f"bad 'columns' entry: {err!r}") from None
    width = len(columns)
    rows = []
    for index, raw in enumerate(document["rows"]):
        if not isinstance(raw, list) or len(raw) != width:
            raise ValueError(f"row {index} does not have {width} values")
        rows.append(tuple(_decode_value(v, c.type) for v, c in zip(raw, columns)))
    return ResultSet(columns, rows)


def dumps(result: ResultSet) -> str:
    return json.dumps(encode(result), ensure_ascii=False, sort_keys=True, separators=(",", ":"), allow_nan=False)


def loads(text: str) -> ResultSet:
    try:
        document = json.loads(text)
    except json.JSONDecodeError as err:
        raise ValueError(f"not a result document: {err}") from None
    return decode(document)


# -- fetching from PostgreSQL ------------------------------------------------------------------------

#: oid → format_type name, per database (enum and domain oids differ between databases).
_TYPE_NAMES: dict[tuple[str, int], str] = {}

_CHUNK_ROWS = 10_000


def _type_names(conn: Any, oids: list[int]) -> list[str]:
    database = f"{conn.info.host}:{conn.info.port}/{conn.info.dbname}"
    missing = sorted({oid for oid in oids if (database, oid) not in _TYPE_NAMES})
    if missing:
        # A fresh cursor: the caller's may be a server-side cursor mid-fetch.
        with conn.cursor() as lookup:
            lookup.execute("SELECT oid::int, format_type(oid, NULL) FROM pg_type WHERE oid = ANY(%s)", (missing,))
            for oid, name in lookup.fetchall():
                _TYPE_NAMES[(database, oid)] = name
    return [_TYPE_NAMES.get((database, oid), "unknown") for oid in oids]


def _approx_bytes(row: tuple) -> int:
    """Bytes a row costs on the wire, roughly: text by its length, everything else 8."""
    return sum(len(v) if isinstance(v, (str, bytes)) else 8 for v in row)


def fetch_result(cursor: Any, *, max_rows: int | None = None, max_bytes: int | None = None) -> ResultSet:
    """Fetch everything the executed ``cursor`` holds, in chunks, stopping at the caps.

    For trusted SQL (gold, alt, timing re-runs of an already capped prediction): a chunk of
    ``_CHUNK_ROWS`` rows arrives whole before its rows are counted, so this bounds memory only as
    far as the rows are small. Hostile SQL is fetched with :func:`stream_result`.
    """
    if cursor.description is None:
        raise ValueError("the statement returned no result set")
    names = [d.name for d in cursor.description]
    types = _type_names(cursor.connection, [d.type_code for d in cursor.description])
    rows: list[tuple] = []
    size = 0
    while True:
        chunk = cursor.fetchmany(_CHUNK_ROWS)
        if not chunk:
            break
        for row in chunk:
            rows.append(row)
            if max_rows is not None and len(rows) > max_rows:
                raise ResultTooLarge(f"more than {max_rows:,} rows", kind="rows")
            if max_bytes is not None:
                size += _approx_bytes(row)
                if size > max_bytes:
                    raise ResultTooLarge(f"more than {max_bytes:,} bytes", kind="bytes")
    return ResultSet(tuple(Column(n, t) for n, t in zip(names, types)), rows)


class _ByteBudget:
    """The bytes one fetch may still receive, spent value by value as psycopg loads them."""

    def __init__(self, max_bytes: int, max_value_bytes: int, abort: Callable[[], None]) -> None:
        self.left = max_bytes
        self.max_bytes = max_bytes
        self.max_value_bytes = max_value_bytes
        self.abort = abort

    def spend(self, size: int) -> None:
        if size > self.max_value_bytes:
            self.abort()
            raise ResultTooLarge(f"a value of {size:,} bytes is over the {self.max_value_bytes:,}-byte cap on one "
                                 "value", kind="value")
        self.left -= size
        if self.left < 0:
            self.abort()
            raise ResultTooLarge(f"more than {self.max_bytes:,} bytes", kind="bytes")


def _capped_loader(base: type, budget: _ByteBudget) -> type:
    """A loader that charges each value's wire size to ``budget`` *before* ``base`` turns it into a
    Python object, so a value over the cap is never copied out of libpq's buffer."""
    from psycopg.adapt import Loader

    class CappedLoader(Loader):
        def __init__(self, oid: int, context: Any = None) -> None:
            super().__init__(oid, context)
            self._inner = base(oid, context)

        def load(self, data: Any) -> Any:
            budget.spend(len(data))
            return self._inner.load(data)

    return CappedLoader


#: Built-in types whose text form has a small fixed bound (a number, a date, a uuid …): their
#: values are charged ``_FIXED_BYTES`` each per row instead of going through a wrapped loader,
#: which costs a Python call per value. Everything else (text, bytea, json, arrays, records,
#: enums, unknown oids) is measured value by value.
_FIXED_WIDTH_OIDS = frozenset({16, 20, 21, 23, 26, 700, 701, 790, 1082, 1083, 1114, 1184, 1186, 1266, 2950})
_FIXED_BYTES = 32

#: Rows per FETCH statement: each FETCH is its own statement under ``statement_timeout`` (the
#: transaction timeout and the watchdog bound the whole), as with the chunked fetch before.
_STREAM_FETCH_ROWS = 10_000


def stream_result(declared: Any, *, max_rows: int, max_bytes: int, max_value_bytes: int) -> ResultSet:
    """Fetch the rows of the server-side cursor ``declared`` (a psycopg ``ServerCursor`` after its
    ``execute``) one row at a time, checking the caps on every value and every row.

    Each ``FETCH`` runs in libpq's single-row mode, so at most one row is in flight whatever the
    FETCH size (chunks of rows only when every column has a small fixed width); each
    variable-width value's size is charged before it is converted, and the first
    value or row over a cap closes the connection and raises ``ResultTooLarge``; so ``declared``'s
    connection must be one the caller discards (the sandbox's per-prediction one). What the
    client holds is therefore the accepted rows (under ``max_bytes``) plus the one row being
    received, which libpq keeps in its input buffer and its result: docs/METHODOLOGY.md §12 says
    what that leaves unbounded.
    """
    from psycopg import sql as pgsql
    from psycopg.pq import Format

    if declared.description is None:
        raise ValueError("the statement returned no result set")
    conn = declared.connection
    names = [d.name for d in declared.description]
    oids = [d.type_code for d in declared.description]
    types = _type_names(conn, oids)
    # Over a cap, the connection is dropped at once: psycopg would otherwise cancel the query and
    # drain the rows already on their way, each as big as the one that broke the cap. The caller's
    # connection is single-use (it rolls back and closes it whatever happens).
    budget = _ByteBudget(max_bytes, max_value_bytes, abort=conn.pgconn.finish)
    fixed_per_row = _FIXED_BYTES * sum(oid in _FIXED_WIDTH_OIDS for oid in oids)
    fetch = pgsql.SQL("FETCH FORWARD {} FROM {}").format(pgsql.Literal(_STREAM_FETCH_ROWS),
                                                         pgsql.Identifier(declared.name))
    # A row of fixed-width values only is at most ``fixed_per_row`` bytes, so libpq may hand over
    # rows in chunks (libpq 17+; ~3x faster for large results); any variable-width column means
    # one row at a time, since nothing bounds one row's size before it arrives.
    chunk = max(1, min(_CHUNK_ROWS // 10, max_bytes // (4 * fixed_per_row))) \
        if fixed_per_row and all(oid in _FIXED_WIDTH_OIDS for oid in oids) else 1
    from psycopg import pq

    if chunk > 1 and pq.version() < 170000:
        chunk = 1
    rows: list[tuple] = []
    with conn.cursor() as cursor:
        fallback = cursor.adapters.get_loader(0, Format.TEXT)
        for oid in set(oids) - _FIXED_WIDTH_OIDS:
            base = cursor.adapters.get_loader(oid, Format.TEXT) or fallback
            cursor.adapters.register_loader(oid, _capped_loader(base, budget))
        while True:
            before = len(rows)
            for row in cursor.stream(fetch, size=chunk):
                rows.append(row)
                if len(rows) > max_rows:
                    budget.abort()
                    raise ResultTooLarge(f"more than {max_rows:,} rows", kind="rows")
                if fixed_per_row:
                    budget.spend(fixed_per_row)
            if len(rows) - before < _STREAM_FETCH_ROWS:
                break
    return ResultSet(tuple(Column(n, t) for n, t in zip(names, types)), rows)


def execute_readonly(conn: Any, sql: str) -> ResultSet:
    """Run trusted SQL (gold, alt) in a READ ONLY transaction that is always rolled back."""
    previous = conn.read_only
    conn.read_only = True
    try:
        with conn.transaction(force_rollback=True), conn.cursor() as cursor:
            cursor.execute(sql)
            return fetch_result(cursor)
    finally:
        conn.read_only = previous
