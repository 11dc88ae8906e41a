"""Which output columns the gold query orders by, and therefore what row order a
prediction must reproduce.

Only the ORDER BY of the *outermost* query constrains the result order that a
client sees: an ORDER BY inside a CTE, a subquery or a window function does not
(PostgreSQL makes no promise that it survives the outer query).  Sort keys are
resolved to output column positions so the comparator can group rows that tie
on them; when a key is not an output column the ties cannot be identified, and
the comparator must fall back to a strict row-by-row comparison.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

import sqlglot
from sqlglot import exp
from sqlglot.errors import SqlglotError


@dataclass(frozen=True)
class OrderSpec:
    """How row order is judged for one gold query.

    ordered:     the outermost query has ORDER BY.
    key_columns: output column indices (0-based) of the sort keys, in ORDER BY
                 order; empty when unordered or unresolvable.
    positional:  ordered but some key is not an output column, so rows must match
                 position by position.
    """

    ordered: bool
    key_columns: tuple[int, ...] = ()
    positional: bool = False


UNORDERED = OrderSpec(ordered=False)
POSITIONAL = OrderSpec(ordered=True, positional=True)

_ORDER_BY_TEXT = re.compile(r"\border\s+by\b", re.IGNORECASE)


@lru_cache(maxsize=4096)
def order_spec(gold_sql: str) -> OrderSpec:
    """Derive the OrderSpec of `gold_sql` (PostgreSQL dialect).

    Unparsable SQL cannot be analysed; we then fall back on the text: if it
    mentions ORDER BY at all we demand positional equality (the strict choice),
    otherwise the result is treated as unordered.
    """
    try:
        tree = sqlglot.parse_one(gold_sql, read="postgres")
    except SqlglotError:
        return POSITIONAL if _ORDER_BY_TEXT.search(gold_sql) else UNORDERED
    if tree is None:
        return UNORDERED
    order = _outermost_order(tree)
    if order is None or not order.expressions:
        return UNORDERED
    keys = [resolve_order_key(o.this, tree) for o in order.expressions]
    if any(k is None for k in keys):
        return POSITIONAL
    return OrderSpec(ordered=True, key_columns=tuple(keys))


def _outermost_order(tree: exp.Expression) -> exp.Order | None:
    """The ORDER BY attached to the top-level query node, ignoring nested ones.

    A parenthesised query `(SELECT ...) ORDER BY x` carries the order on the
    Subquery wrapper; a bare `(SELECT ... ORDER BY x)` keeps it on the inner
    select, which is still the outermost query, so we unwrap parentheses.
    """
    node = tree
    while True:
        order = node.args.get("order")
        if order is not None:
            return order
        if isinstance(node, (exp.Subquery, exp.Paren)) and isinstance(node.this, exp.Expression):
            node = node.this
            continue
        return None


def _output_items(tree: exp.Expression) -> list[exp.Expression]:
    """Select items that define the output columns (first branch of a set operation)."""
    node = tree
    while isinstance(node, exp.SetOperation):
        node = node.left
    while isinstance(node, (exp.Subquery, exp.Paren)):
        node = node.this
    return list(node.expressions) if isinstance(node, exp.Select) else []


def _canonical(e: exp.Expression) -> str:
    """Text of an expression with alias removed and identifiers lowercased."""
    if isinstance(e, exp.Alias):
        e = e.this
    return e.sql(dialect="postgres", normalize=True)


def _is_star(item: exp.Expression) -> bool:
    return isinstance(item, exp.Star) or (isinstance(item, exp.Column) and isinstance(item.this, exp.Star))


def resolve_order_key(key: exp.Expression, tree: exp.Expression) -> int | None:
    """Output column index of one ORDER BY key, or None when it is not an output column.

    Resolution order mirrors PostgreSQL: a bare integer is a position; a bare
    name is first an output column name (alias, or the column's own name); any
    other expression must equal a select item's expression.  With `*` in the
    select list the output names are unknown, so only positions before the star
    can be resolved.
    """
    items = _output_items(tree)
    star_at = next((i for i, it in enumerate(items) if _is_star(it)), None)

    if isinstance(key, exp.Literal) and not key.is_string:
        try:
            position = int(key.this)
        except ValueError:
            return None
        index = position - 1
        if 0 <= index < len(items) and (star_at is None or index < star_at):
            return index
        return None
    if star_at is not None:
        return None

    if isinstance(key, exp.Column) and not key.table:
        name = key.name.lower() if not key.this.quoted else key.name
        matches = [i for i, it in enumerate(items) if _output_name(it) == name]
        if len(matches) >= 1:
            return matches[0]

    wanted = _canonical(key)
    for i, it in enumerate(items):
        if _canonical(it) == wanted:
            return i

    if isinstance(key, exp.Column) and key.table:
        # `ORDER BY o.x` with an unqualified `x` selected: valid SQL guarantees
        # the unqualified reference is unambiguous, so it is the same column.
        for i, it in enumerate(items):
            if isinstance(it, exp.Column) and not it.table and it.name.lower() == key.name.lower():
                return i
    return None


def _output_name(item: exp.Expression) -> str | None:
    """The column name a client sees for a select item (lowercased if unquoted)."""
    if isinstance(item, exp.Alias):
        ident = item.args.get("alias")
        if isinstance(ident, exp.Identifier):
            return ident.this if ident.quoted else ident.this.lower()
        return item.alias.lower()
    if isinstance(item, exp.Column) and isinstance(item.this, exp.Identifier):
        return item.this.this if item.this.quoted else item.this.this.lower()
    return None
