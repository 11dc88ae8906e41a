"""Spec of order_spec: only the outermost ORDER BY counts, keys resolve to output columns."""

from __future__ import annotations

import pytest

from heron_pipeline.scoring.order_spec import OrderSpec, order_spec

UNORDERED = OrderSpec(ordered=False)
POSITIONAL = OrderSpec(ordered=True, positional=True)


def keys(*columns: int) -> OrderSpec:
    return OrderSpec(ordered=True, key_columns=columns)


CASES = [
    ("no order by", "SELECT a, b FROM t", UNORDERED),
    ("limit without order by", "SELECT a FROM t LIMIT 5", UNORDERED),
    ("order by in CTE", "WITH x AS (SELECT a FROM t ORDER BY a) SELECT a FROM x", UNORDERED),
    ("order by in FROM subquery", "SELECT a FROM (SELECT a FROM t ORDER BY a LIMIT 3) s", UNORDERED),
    ("order by in scalar subquery", "SELECT (SELECT b FROM u ORDER BY b LIMIT 1) AS first_b, a FROM t", UNORDERED),
    ("order by in window", "SELECT a, rank() OVER (PARTITION BY b ORDER BY a) FROM t", UNORDERED),
    ("order by in aggregate", "SELECT string_agg(a, ',' ORDER BY a) FROM t", UNORDERED),
    ("by position", "SELECT a, b FROM t ORDER BY 2", keys(1)),
    ("by alias", "SELECT a, sum(b) AS total FROM t GROUP BY a ORDER BY total DESC", keys(1)),
    ("by column name", "SELECT a, b FROM t ORDER BY b ASC", keys(1)),
    ("by expression count(*)", "SELECT a, count(*) FROM t GROUP BY a ORDER BY count(*) DESC", keys(1)),
    ("by expression, case-insensitive", "SELECT a, COUNT(*) FROM t GROUP BY a ORDER BY count(*)", keys(1)),
    ("by qualified column selected", "SELECT o.id, o.placed_at FROM orders o ORDER BY o.placed_at", keys(1)),
    ("by bare name of qualified item", "SELECT o.id, o.placed_at FROM orders o ORDER BY placed_at", keys(1)),
    ("by qualified name of bare item", "SELECT id, placed_at FROM orders o ORDER BY o.placed_at", keys(1)),
    ("several keys keep their order", "SELECT a, b, c FROM t ORDER BY c, 1 DESC", keys(2, 0)),
    ("direction irrelevant", "SELECT a, b FROM t ORDER BY b DESC NULLS LAST", keys(1)),
    ("with limit", "SELECT a, b FROM t ORDER BY a LIMIT 10", keys(0)),
    ("key not selected", "SELECT a FROM t ORDER BY b", POSITIONAL),
    ("one key of two not selected", "SELECT a FROM t ORDER BY a, b", POSITIONAL),
    ("position out of range", "SELECT a FROM t ORDER BY 2", POSITIONAL),
    ("star with name", "SELECT * FROM t ORDER BY a", POSITIONAL),
    ("union order by position", "SELECT a FROM t UNION SELECT a FROM u ORDER BY 1", keys(0)),
    ("union order by name", "SELECT a AS x FROM t UNION ALL SELECT b FROM u ORDER BY x DESC", keys(0)),
    ("union without order", "SELECT a FROM t UNION SELECT a FROM u", UNORDERED),
    ("union of ordered branches", "(SELECT a FROM t ORDER BY a LIMIT 1) UNION (SELECT a FROM u ORDER BY a LIMIT 1)", UNORDERED),
    ("CTE plus outer order", "WITH x AS (SELECT a, b FROM t) SELECT a, b FROM x ORDER BY b", keys(1)),
    ("quoted alias", 'SELECT a AS "Total" FROM t ORDER BY "Total"', keys(0)),
    ("unparsable with ORDER BY text", "SELEC a FROM t ORDER BY a ((", POSITIONAL),
]


@pytest.mark.parametrize(("sql", "expected"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_order_spec_table(sql, expected):
    assert order_spec(sql) == expected
