"""sql_facts: tables, volatile functions, literals and order facts, case by case."""

from __future__ import annotations

import pytest

from heron_pipeline.questions import sql_facts as f


@pytest.mark.parametrize(("sql", "tables"), [
    ("SELECT 1 FROM orders.orders o JOIN tenancy.tenants t ON t.id = o.tenant_id", {"orders.orders", "tenancy.tenants"}),
    ("WITH orders AS (SELECT * FROM orders.orders) SELECT * FROM orders", {"orders.orders"}),
    ("SELECT * FROM crm.accounts a WHERE EXISTS (SELECT 1 FROM crm.contacts c WHERE c.account_id = a.id)",
     {"crm.accounts", "crm.contacts"}),
    ("SELECT g FROM generate_series(1, 3) AS g", set()),
    ("SELECT 'orders.orders' AS t -- FROM billing.invoices", set()),
    ("SELECT * FROM accounts", {"accounts"}),
])
def test_tables_read(sql: str, tables: set[str]) -> None:
    assert f.tables_read(sql) == tables


@pytest.mark.parametrize(("sql", "volatile"), [
    ("SELECT now()", ["now()/current_timestamp"]),
    ("SELECT current_date", ["current_date"]),
    ("SELECT random()", ["random()"]),
    ("SELECT clock_timestamp()", ["clock_timestamp()"]),
    ("SELECT age(x) FROM t", ["age(x) (one argument: relative to current_date)"]),
    ("SELECT age(DATE '2026-06-30', x) FROM t", []),
    ("SELECT date_trunc('month', x) FROM t", []),
])
def test_volatile_functions(sql: str, volatile: list[str]) -> None:
    assert f.volatile_functions(sql) == volatile


@pytest.mark.parametrize(("sql", "expected"), [
    ("SELECT * FROM t WHERE s = 'paid'", [("paid", "value")]),
    ("SELECT * FROM t WHERE d >= DATE '2026-06-30' - 89", [("89", "date-offset"), ("2026-06-30", "date")]),
    ("SELECT * FROM t WHERE d >= TIMESTAMPTZ '2026-07-01 00:00:00+00' - INTERVAL '90 days'",
     [("2026-07-01 00:00:00+00", "date"), ("90", "interval")]),
    ("SELECT x FROM t ORDER BY 1 LIMIT 5 OFFSET 2", [("1", "position"), ("5", "limit"), ("2", "offset")]),
    ("SELECT round(x::numeric(12, 2), 2) FROM t", [("12", "type-param"), ("2", "type-param"), ("2", "value")]),
    ("SELECT to_char(x, 'YYYY-MM') FROM t", [("%Y-%m", "format")]),
    ("SELECT data ->> 'plan', data #>> '{a,b}' FROM t", [("{a,b}", "json-key")]),
    ("SELECT x AT TIME ZONE 'UTC' FROM t", [("UTC", "timezone")]),
    ("SELECT string_agg(n, ', ') FROM t", [(", ", "separator")]),
    ("SELECT * FROM t WHERE n ILIKE '%refund%'", [("%refund%", "like")]),
])
def test_literals_and_their_roles(sql: str, expected: list[tuple[str, str]]) -> None:
    assert sorted((lit.text, lit.role) for lit in f.literals(sql)) == sorted(expected)


def test_limit_and_order_facts() -> None:
    sql = "SELECT a, count(*) AS n FROM t GROUP BY a ORDER BY n DESC, a LIMIT 5"
    assert f.limit_of(sql) == 5 and f.order_keys_are_output_columns(sql)
    assert f.limit_of("SELECT a FROM t ORDER BY a FETCH FIRST 3 ROWS ONLY") == 3
    assert f.limit_of("SELECT a FROM t") is None
    assert not f.order_keys_are_output_columns("SELECT a FROM t ORDER BY b")
    assert f.with_limit(sql, 6).endswith("LIMIT 6")


def test_sort_key_query_appends_keys_that_are_not_output_columns() -> None:
    query, keys, width = f.sort_key_query("SELECT a FROM t ORDER BY b DESC, a")
    assert (keys, width) == ((1, 0), 1)
    assert "b AS heron_sort_key_0" in query
    assert f.sort_key_query("SELECT DISTINCT a FROM t ORDER BY lower(a)") is None
    assert f.sort_key_query("SELECT a FROM t") is None
    assert f.sort_key_query("SELECT a, b FROM t ORDER BY 2") == ("SELECT a, b FROM t ORDER BY 2", (1,), 2)


def test_normalised_sql_ignores_layout_case_and_comments() -> None:
    a = "select  count(*)\nFROM orders.orders -- all\nwhere status='paid'"
    b = "SELECT COUNT(*) FROM orders.orders WHERE status = 'paid'"
    assert f.normalized_sql(a) == f.normalized_sql(b)
    assert f.normalized_sql(b) != f.normalized_sql(b.replace("paid", "void"))


def test_schemas_read_counts_domains() -> None:
    assert f.schemas_read("SELECT 1 FROM orders.orders o, orders.order_lines l, crm.accounts a") == {"orders", "crm"}


def test_unparsable_sql_raises() -> None:
    with pytest.raises(f.SQLParseError):
        f.parse("SELECT FROM WHERE (")


def test_cached_facts_hand_out_fresh_containers() -> None:
    """The facts are cached per SQL text (an audit loop asks them every round); what a caller changes in
    one answer never reaches the next caller."""
    sql = "SELECT now(), 'x' FROM crm.accounts a JOIN billing.invoices i ON i.account_id = a.id"
    for fact in (f.tables_read, f.volatile_functions, f.literals):
        first = fact(sql)
        expected = type(first)(first)
        first.clear()
        assert fact(sql) == expected and expected, fact.__name__
