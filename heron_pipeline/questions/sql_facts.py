"""What a gold query reads, calls, hard-codes and promises about order — parsed, never grepped.

Every fact comes from sqlglot's PostgreSQL parse tree, so a table name inside a string or a
comment is not a table, a CTE that shadows nothing is not a table, and a ``1`` in ``ORDER BY 1``
is a position rather than a number the question must mention. The audit combines these facts
with the question text and the vocabulary (``vocabulary.py``); nothing here touches a database.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from functools import lru_cache

import sqlglot
from sqlglot import exp
from sqlglot.errors import SqlglotError

from heron_pipeline.scoring.order_spec import OrderSpec, resolve_order_key, order_spec

DIALECT = "postgres"

#: Node types sqlglot builds for functions whose value depends on the clock, chance or the session.
_VOLATILE_NODES = {
    exp.CurrentDate: "current_date", exp.CurrentTimestamp: "now()/current_timestamp",
    exp.CurrentTime: "current_time", exp.CurrentDatetime: "current_datetime",
    exp.Localtimestamp: "localtimestamp", exp.Localtime: "localtime", exp.Rand: "random()",
    exp.Uuid: "gen_random_uuid()", exp.CurrentUser: "current_user",
}
#: Functions sqlglot leaves anonymous, by lower-case name.
_VOLATILE_NAMES = {
    "clock_timestamp", "statement_timestamp", "transaction_timestamp", "timeofday", "random", "setseed",
    "gen_random_uuid", "uuid_generate_v4", "txid_current", "pg_backend_pid", "nextval", "currval",
    "random_normal", "pg_current_xact_id", "inet_client_addr",
}


class SQLParseError(ValueError):
    """The SQL does not parse as one PostgreSQL statement."""


@lru_cache(maxsize=2048)
def parse(sql: str) -> exp.Expression:
    """The one statement of `sql` as a sqlglot tree (cached: the audit asks many questions of it)."""
    try:
        statements = [s for s in sqlglot.parse(sql, read=DIALECT) if s is not None]
    except SqlglotError as err:
        raise SQLParseError(f"does not parse: {str(err).splitlines()[0]}") from None
    if len(statements) != 1:
        raise SQLParseError(f"expected one statement, found {len(statements)}")
    return statements[0]


def _cte_names(tree: exp.Expression) -> set[str]:
    return {cte.alias_or_name.lower() for cte in tree.find_all(exp.CTE)}


def tables_read(sql: str) -> set[str]:
    """Schema-qualified (lower-case) tables the query reads; CTE references are not tables.

    An unqualified name that is not a CTE is returned bare, so the audit can report it rather
    than guess its schema (the gold must qualify every table).
    """
    return set(_tables_read(sql))


# The facts below are cached per SQL text like ``parse``: an audit loop (a draw's redraws, a hidden night's
# rounds) asks them again of the same gold and alt SQL in every round: profiled, the hidden-board tests spent
# 27 s in the static rules over 60 rounds, mostly these walks and re-renderings (issue 30). Cached as immutable
# values; the public functions hand out fresh containers.
@lru_cache(maxsize=2048)
def _tables_read(sql: str) -> frozenset[str]:
    tree = parse(sql)
    ctes = _cte_names(tree)
    tables = set()
    for table in tree.find_all(exp.Table):
        if not table.name or isinstance(table.this, exp.Func):  # generate_series(...) AS g, unnest(...)
            continue
        name = table.name.lower()
        schema = table.db.lower() if table.db else ""
        if not schema and name in ctes:
            continue
        tables.add(f"{schema}.{name}" if schema else name)
    return frozenset(tables)


def schemas_read(sql: str) -> set[str]:
    """The distinct schemas (domains) the query reads."""
    return {t.split(".")[0] for t in tables_read(sql) if "." in t}


def volatile_functions(sql: str) -> list[str]:
    """Names of clock-, chance- or session-dependent functions the query calls, in tree order."""
    return list(_volatile_functions(sql))


@lru_cache(maxsize=2048)
def _volatile_functions(sql: str) -> tuple[str, ...]:
    found = []
    for node in parse(sql).walk():
        for kind, name in _VOLATILE_NODES.items():
            if type(node) is kind:
                found.append(name)
        if isinstance(node, exp.Anonymous) and str(node.this).lower() in _VOLATILE_NAMES:
            found.append(f"{str(node.this).lower()}()")
        if isinstance(node, exp.Anonymous) and str(node.this).lower() == "age" and len(node.expressions) == 1:
            found.append("age(x) (one argument: relative to current_date)")
    return tuple(found)


@dataclass(frozen=True)
class Literal:
    """One literal written in the query, with the role its position gives it.

    role: ``value`` (compared or computed with), ``date`` (a string cast to a date/time type),
    ``date-offset`` (a number added to or subtracted from a date literal), ``interval``, ``format``
    (a to_char pattern), ``json-key``, ``timezone``, ``like`` (a LIKE/ILIKE pattern), ``field``
    (a date_part / date_trunc field name), ``separator`` (string_agg), ``limit``, ``offset``,
    ``position`` (ORDER BY / GROUP BY ordinal) or ``type-param`` (numeric(12,2)).
    """

    text: str
    is_string: bool
    role: str


_DATE_TYPES = {exp.DataType.Type.DATE, exp.DataType.Type.TIMESTAMP, exp.DataType.Type.TIMESTAMPTZ,
               exp.DataType.Type.TIMESTAMPLTZ, exp.DataType.Type.DATETIME}
_JSON_NODES = (exp.JSONExtract, exp.JSONExtractScalar, exp.JSONBExtract, exp.JSONBExtractScalar,
               exp.JSONBContains, exp.JSONBContainsTopKey, exp.JSONBContainsAnyTopKeys,
               exp.JSONBContainsAllTopKeys, exp.JSONPath)
_FIELD_FUNCTIONS = {"date_part", "date_trunc", "extract", "date_bin"}


def _is_date_literal(node: exp.Expression) -> bool:
    return (isinstance(node, exp.Cast) and isinstance(node.this, exp.Literal) and node.this.is_string
            and node.to.this in _DATE_TYPES)


def _role(literal: exp.Literal) -> str:
    parent = literal.parent
    key = literal.arg_key
    if isinstance(parent, exp.DataTypeParam):
        return "type-param"
    if isinstance(parent, exp.Ordered) or isinstance(parent, exp.Group):
        return "position" if not literal.is_string else "value"
    if isinstance(parent, exp.Limit) or (isinstance(parent, exp.Fetch) and key == "count"):
        return "limit"
    if isinstance(parent, exp.Offset):
        return "offset"
    if isinstance(parent, exp.Interval) or (isinstance(parent, exp.Cast) and parent.to.this == exp.DataType.Type.INTERVAL):
        return "interval"
    if isinstance(parent, exp.Cast) and parent.to.this in _DATE_TYPES and literal.is_string:
        return "date"
    if isinstance(parent, (exp.Add, exp.Sub)) and not literal.is_string:
        other = parent.expression if key == "this" else parent.this
        if _is_date_literal(other) or isinstance(other, exp.Interval):
            return "date-offset"
    if isinstance(parent, (exp.TimeToStr, exp.ToChar)) and key == "format":
        return "format"
    if isinstance(parent, _JSON_NODES) or isinstance(parent, exp.Array) and isinstance(parent.parent, _JSON_NODES):
        return "json-key"
    if isinstance(parent, exp.AtTimeZone) and key == "zone":
        return "timezone"
    if isinstance(parent, (exp.Like, exp.ILike)) and key == "expression":
        return "like"
    if isinstance(parent, exp.GroupConcat) and key == "separator":
        return "separator"
    if literal.is_string and isinstance(parent, (exp.TimestampTrunc, exp.DateTrunc, exp.Extract)):
        return "field"
    if literal.is_string and isinstance(parent, exp.Anonymous) and str(parent.this).lower() in _FIELD_FUNCTIONS:
        if parent.expressions and parent.expressions[0] is literal:
            return "field"
    if literal.is_string and isinstance(parent, exp.Anonymous) and str(parent.this).lower() == "to_char":
        return "format"
    return "value"


def literals(sql: str) -> list[Literal]:
    """Every literal of the query with its role, in tree order (NULL and booleans are not literals)."""
    return list(_literals(sql))


@lru_cache(maxsize=2048)
def _literals(sql: str) -> tuple[Literal, ...]:
    return tuple(Literal(str(node.this), node.is_string, _role(node)) for node in parse(sql).find_all(exp.Literal))


def number_value(text: str) -> Decimal | None:
    """The numeric value of a literal's text, or None when it is not a number."""
    try:
        value = Decimal(text)
    except InvalidOperation:
        return None
    return value if value.is_finite() else None


def _outermost(tree: exp.Expression) -> exp.Expression:
    node = tree
    while isinstance(node, (exp.Subquery, exp.Paren)) and node.args.get("order") is None \
            and node.args.get("limit") is None and isinstance(node.this, exp.Expression):
        node = node.this
    return node


def order_of(sql: str) -> OrderSpec:
    """The outermost ORDER BY as the comparator sees it (see ``scoring.order_spec``)."""
    return order_spec(sql)


def order_keys_are_output_columns(sql: str) -> bool:
    """Whether every key of the outermost ORDER BY is an output column (True when unordered)."""
    spec = order_spec(sql)
    return not spec.ordered or not spec.positional


def limit_of(sql: str) -> int | None:
    """The outermost LIMIT / FETCH FIRST count, or None (also None for a non-literal count)."""
    node = _outermost(parse(sql)).args.get("limit")
    if node is None:
        return None
    count = node.args.get("count") if isinstance(node, exp.Fetch) else node.expression
    if isinstance(count, exp.Literal) and not count.is_string:
        value = number_value(str(count.this))
        return int(value) if value is not None else None
    return None


def with_limit(sql: str, limit: int) -> str:
    """The query with its outermost LIMIT replaced by `limit` (OFFSET and ORDER BY kept)."""
    tree = parse(sql).copy()
    node = _outermost(tree)
    node.set("limit", exp.Limit(expression=exp.Literal.number(limit)))
    return tree.sql(dialect=DIALECT)


def sort_key_query(sql: str) -> tuple[str, tuple[int, ...], int] | None:
    """A query whose rows show every outermost ORDER BY key, for the tie checks.

    Returns (query, key column indices in its rows, number of the original's output columns).
    Keys that are output columns are used where they are; the others are appended as extra output
    columns, which leaves the rows unchanged for a plain SELECT. None when appending would change
    the rows (DISTINCT, set operations, ``*``) or when the query is unordered.
    """
    spec = order_spec(sql)
    if not spec.ordered:
        return None
    tree = parse(sql).copy()
    node = _outermost(tree)
    order = node.args.get("order")
    items = list(node.expressions) if isinstance(node, exp.Select) else []
    if not spec.positional:
        width = len(items) if items else max(spec.key_columns) + 1
        return sql, spec.key_columns, width
    if not isinstance(node, exp.Select) or node.args.get("distinct") or order is None:
        return None
    if any(isinstance(i, exp.Star) or (isinstance(i, exp.Column) and isinstance(i.this, exp.Star)) for i in items):
        return None
    columns, extra = [], []
    for ordered in order.expressions:
        index = resolve_order_key(ordered.this, tree)
        if index is None:
            index = len(items) + len(extra)
            extra.append(exp.alias_(ordered.this.copy(), f"heron_sort_key_{len(extra)}"))
        columns.append(index)
    node.set("expressions", items + extra)
    return tree.sql(dialect=DIALECT), tuple(columns), len(items)


@lru_cache(maxsize=2048)
def normalized_sql(sql: str) -> str:
    """Canonical text for duplicate detection: parsed and re-rendered, identifiers and keywords
    in one case, comments and layout dropped. Falls back on collapsed whitespace when unparsable."""
    try:
        return parse(sql).sql(dialect=DIALECT, normalize=True, comments=False).lower()
    except SQLParseError:
        return " ".join(sql.lower().split())
