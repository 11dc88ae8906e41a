"""Spider-style exact set match over sqlglot ASTs.

Two queries "match" when their clauses agree as sets, ignoring literal values:
a cheap structural signal that complements execution accuracy (it flags
right-for-the-wrong-reason answers and is blind to equivalent rewrites).

Our rules: literals become one placeholder; table aliases are resolved to table
names (`t1.col` → `singer.col`, and an unqualified column in a single-table
scope gets that table); SELECT items form a multiset; WHERE is, as in Spider's
evaluation.py, the multiset of its leaf conditions (split on AND and OR, so their
count matters) together with the set of connectives it uses (AND, OR); GROUP BY is a set; HAVING is one normalised
expression; ORDER BY is a list of (expression, direction); LIMIT counts only by
presence; FROM is the sorted list of table names; JOIN ... ON conditions and
DISTINCT (of the SELECT and inside aggregates, as Spider's DISABLE_DISTINCT) are
ignored; the right-hand side of a comparison is a value unless it is a subquery
(Spider's rebuild_sql_val); set operations, FROM-subqueries, CTEs and subqueries in
conditions are compared recursively through their own signatures.

With a schema (``EMSchema``), as Spider's evaluation has one: an unqualified column
is given the first table of its FROM that has it, and columns linked by foreign
keys count as one column (Spider's build_foreign_key_map), so `GROUP BY t1.id`
equals `GROUP BY t2.maker_id` across the join that links them.
"""

from __future__ import annotations

import hashlib
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any, Iterable, Mapping

import sqlglot
from sqlglot import exp
from sqlglot.errors import SqlglotError

_PLACEHOLDER = "__value__"


@dataclass(frozen=True)
class EMSchema:
    """The schema facts Spider's exact match uses: each table's columns, and the foreign-key
    groups (every column of a group is named by the group's first member, in sorted order)."""

    columns: Mapping[str, frozenset[str]]
    key_of: Mapping[str, str]

    @classmethod
    def build(cls, tables: Mapping[str, Iterable[str]],
              foreign_keys: Iterable[tuple[tuple[str, str], tuple[str, str]]]) -> "EMSchema":
        """From table -> columns and ((table, column), (table, column)) foreign-key pairs."""
        parent: dict[str, str] = {}

        def root(key: str) -> str:
            while parent.setdefault(key, key) != key:
                key = parent[key]
            return key

        for (t1, c1), (t2, c2) in foreign_keys:
            a, b = root(f"{t1.lower()}.{c1.lower()}"), root(f"{t2.lower()}.{c2.lower()}")
            parent[max(a, b)] = min(a, b)
        return cls({t.lower(): frozenset(c.lower() for c in cols) for t, cols in tables.items()},
                   {key: root(key) for key in list(parent)})

    @classmethod
    def from_catalog(cls, catalog: Any) -> "EMSchema":
        """heron's schema (a ``catalog.Catalog``): tables by their bare name, as EM's FROM names
        them (a name two schemas share holds both tables' columns), and every column pair of
        every foreign key, composite keys included (as Spider lists its keys column by column)."""
        tables: dict[str, set[str]] = {}
        for table in catalog.tables.values():
            tables.setdefault(table.name, set()).update(c.name for c in table.columns)
        pairs = [((fk.table.rpartition(".")[2], own), (fk.ref_table.rpartition(".")[2], ref))
                 for fk in catalog.foreign_keys for own, ref in zip(fk.columns, fk.ref_columns)]
        return cls.build(tables, pairs)

    def names(self) -> set[str]:
        """Every table and column name (lower case)."""
        return set(self.columns) | {c for cols in self.columns.values() for c in cols}

    def table_of(self, column: str, in_scope: list[str]) -> str | None:
        """The first table of ``in_scope`` that has ``column``."""
        return next((t for t in in_scope if column in self.columns.get(t, ())), None)


_SCHEMA: ContextVar[EMSchema | None] = ContextVar("em_schema", default=None)


def exact_set_match(gold_sql: str, pred_sql: str, *, schema: EMSchema | None = None) -> bool:
    """Whether two queries have equal clause signatures; unparsable SQL never matches.

    ``schema`` resolves unqualified columns and merges foreign-key columns, as Spider's
    evaluation does with its database schema; without it, columns compare by their text."""
    token = _SCHEMA.set(schema)
    try:
        if not (clauses_in_order(gold_sql) and clauses_in_order(pred_sql)):
            return False  # PostgreSQL (and Spider's parser) reject it; sqlglot would accept it
        gold = sqlglot.parse_one(gold_sql, read="postgres")
        pred = sqlglot.parse_one(pred_sql, read="postgres")
        return gold is not None and pred is not None and _signature(gold) == _signature(pred)
    except (SqlglotError, ValueError, TypeError, RecursionError):
        return False
    finally:
        _SCHEMA.reset(token)


_CLAUSE_RANK = {"WHERE": 1, "GROUP_BY": 2, "HAVING": 3, "ORDER_BY": 4, "LIMIT": 5}  # OFFSET may come before LIMIT
_CLAUSE_RESET = {"SELECT", "UNION", "INTERSECT", "EXCEPT"}


def clauses_in_order(sql: str) -> bool:
    """Whether every query level writes WHERE, GROUP BY, HAVING, ORDER BY, LIMIT in that order.

    sqlglot parses ``... GROUP BY c WHERE ...`` as if the clauses were in order; PostgreSQL and
    Spider's parser refuse it, so exact match must not call it equal to anything."""
    try:
        tokens = sqlglot.tokenize(sql, read="postgres")
    except SqlglotError:
        return False
    ranks = [0]  # last clause rank seen, per parenthesis depth
    for t in tokens:
        kind = t.token_type.name
        if kind == "L_PAREN":
            ranks.append(0)
        elif kind == "R_PAREN":
            if len(ranks) > 1:
                ranks.pop()
        elif kind in _CLAUSE_RESET:
            ranks[-1] = 0
        elif kind in _CLAUSE_RANK:
            if _CLAUSE_RANK[kind] < ranks[-1]:
                return False
            ranks[-1] = _CLAUSE_RANK[kind]
    return True


def _signature(node: exp.Expression) -> tuple:
    """Canonical, comparable description of a query (select, set operation or wrapper)."""
    while isinstance(node, (exp.Subquery, exp.Paren)) and isinstance(node.this, exp.Expression):
        if node.args.get("order") or node.args.get("limit"):
            break
        node = node.this
    if isinstance(node, exp.SetOperation):
        return (
            "setop",
            type(node).__name__.lower(),
            _signature(node.left),
            _signature(node.right),
            _order_items(node, {}),
            node.args.get("limit") is not None,
        )
    if isinstance(node, exp.Subquery):
        return ("wrapped", _signature(node.this), _order_items(node, {}), node.args.get("limit") is not None)
    if not isinstance(node, exp.Select):
        raise ValueError(f"not a query: {type(node).__name__}")
    return _select_signature(node.copy())


def _scope_tables(select: exp.Select) -> tuple[dict[str, str], list]:
    """alias → table name for this SELECT's own FROM/JOIN sources, and the FROM list."""
    aliases: dict[str, str] = {}
    sources: list = []
    from_ = select.args.get("from") or select.args.get("from_")
    items = ([from_.this] if from_ is not None else []) + [j.this for j in select.args.get("joins") or []]
    for item in items:
        if isinstance(item, exp.Table):
            name = item.name.lower()
            aliases[(item.alias or item.name).lower()] = name
            sources.append(name)
        elif isinstance(item, exp.Subquery):
            signature = _signature(item.this)
            sources.append(("subquery", signature))
            if item.alias:  # the alias name is arbitrary; the subquery's content is not
                aliases[item.alias.lower()] = _digest(signature)
        else:
            sources.append(("source", item.sql(dialect="postgres").lower()))
    return aliases, sources


def _digest(signature: tuple) -> str:
    return "__subquery_" + hashlib.sha1(repr(signature).encode()).hexdigest()[:16]


_COMPARISONS = (exp.EQ, exp.NEQ, exp.GT, exp.GTE, exp.LT, exp.LTE, exp.Like, exp.ILike)


def _normalise_tree(node: exp.Expression, aliases: dict[str, str], default_table: str | None) -> exp.Expression:
    """Copy of an expression with literals replaced, aliases resolved, subqueries digested."""
    schema = _SCHEMA.get()
    in_scope = list(dict.fromkeys(aliases.values()))

    def column_name(n: exp.Column) -> exp.Expression:
        table, name = n.table.lower(), n.name.lower()
        resolved = aliases.get(table, table) if table else default_table
        if schema is not None:
            resolved = resolved or schema.table_of(name, in_scope)
            if resolved in in_scope:  # Spider merges only columns of the tables in this FROM
                resolved, _, name = schema.key_of.get(f"{resolved}.{name}", f"{resolved}.{name}").partition(".")
        return exp.column(name, table=resolved) if resolved else exp.column(name)

    def rewrite(n: exp.Expression) -> exp.Expression:
        if isinstance(n, (exp.Subquery, exp.Select)):
            return exp.column(_digest(_signature(n)))
        if isinstance(n, exp.Literal):
            return exp.Literal.string(_PLACEHOLDER)
        if isinstance(n, exp.Column) and not isinstance(n.this, exp.Star):
            return column_name(n)
        return n

    copy = node.copy()
    for distinct in list(copy.find_all(exp.Distinct)):
        if isinstance(distinct.parent, exp.AggFunc) and len(distinct.expressions) == 1:
            distinct.replace(distinct.expressions[0])  # count(DISTINCT x) is count(x): DISABLE_DISTINCT
    for comparison in list(copy.find_all(*_COMPARISONS)):
        if not isinstance(comparison.expression, (exp.Subquery, exp.Select)):
            # Spider keeps no value: whatever stands right of a comparison (a literal, a column,
            # an expression) is one placeholder unless it is a query
            comparison.set("expression", exp.Literal.string(_PLACEHOLDER))
    if isinstance(copy, exp.Distinct) and len(copy.expressions) == 1:
        copy = copy.expressions[0]
    return copy.transform(rewrite)


def _text(node: exp.Expression, aliases, default_table) -> str:
    if isinstance(node, exp.Alias):
        node = node.this
    return _normalise_tree(node, aliases, default_table).sql(dialect="postgres").lower()


def _flatten_conditions(node: exp.Expression, connectives: set[str]) -> list[exp.Expression]:
    """Leaf conditions of a boolean tree of AND/OR (parentheses dropped); the connectives met are
    added to `connectives`."""
    if isinstance(node, (exp.And, exp.Or)):
        connectives.add(type(node).__name__.lower())
        return _flatten_conditions(node.left, connectives) + _flatten_conditions(node.right, connectives)
    if isinstance(node, exp.Paren):
        return _flatten_conditions(node.this, connectives)
    return [node]


def _where_signature(condition: exp.Expression, text) -> tuple:
    """Spider's WHERE rule: the leaf conditions as a multiset (a repeated or an extra condition
    counts, `x = 'a' OR x = 'b'` is two conditions) and the set of AND/OR connectives used.
    Values are already placeholders, so only the count tells `x = 'a' OR x = 'b'` from `x = 'c'`."""
    connectives: set[str] = set()
    leaves = _flatten_conditions(condition, connectives)
    return tuple(sorted(text(c) for c in leaves)), tuple(sorted(connectives))


def _order_items(node: exp.Expression, select_aliases: dict, aliases=None, default_table=None) -> tuple:
    order = node.args.get("order")
    if order is None:
        return ()
    items = []
    for o in order.expressions:
        key = o.this
        if isinstance(key, exp.Column) and not key.table and key.name.lower() in select_aliases:
            key = select_aliases[key.name.lower()]
        items.append((_text(key, aliases or {}, default_table), bool(o.args.get("desc"))))
    return tuple(items)


def _select_signature(select: exp.Select) -> tuple:
    aliases, sources = _scope_tables(select)
    tables = [s for s in sources if isinstance(s, str)]
    default_table = tables[0] if len(sources) == 1 and tables else None
    text = lambda e: _text(e, aliases, default_table)  # noqa: E731
    select_aliases = {e.alias.lower(): e.this for e in select.expressions if isinstance(e, exp.Alias)}

    where = select.args.get("where")
    group = select.args.get("group")
    having = select.args.get("having")
    ctes = select.args.get("with")
    return (
        "select",
        tuple(sorted(text(e) for e in select.expressions)),
        tuple(sorted(map(repr, sources))),
        # sorted tuples, not frozensets: a subquery's digest is the repr of its
        # signature, and a frozenset's repr order changes with PYTHONHASHSEED
        _where_signature(where.this, text) if where is not None else (),
        tuple(sorted({text(g) for g in group.expressions})) if group is not None else (),
        text(having.this) if having is not None else None,
        _order_items(select, select_aliases, aliases, default_table),
        select.args.get("limit") is not None,
        tuple(sorted(repr(_signature(c.this)) for c in ctes.expressions)) if ctes is not None else (),
    )
