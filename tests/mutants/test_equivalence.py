"""Mutants set aside as equivalent are exactly those a stated contract makes equivalent."""

from __future__ import annotations

import pytest

from heron_pipeline.catalog.ddl import load_catalog
from heron_pipeline.mutants import mutants


@pytest.fixture(scope="module")
def catalog():
    return load_catalog()


def _reasons(sql: str, catalog) -> dict[str, str | None]:
    return {m.description: m.equivalent for m in mutants(sql, catalog)}


def test_tenant_equality_beside_an_id_equality_is_implied(catalog):
    sql = ("SELECT o.id FROM orders.orders o JOIN crm.accounts a ON a.tenant_id = o.tenant_id AND a.id = o.account_id "
           "WHERE o.tenant_id = 1")
    reasons = _reasons(sql, catalog)
    assert reasons["drop the tenant filter in ON of crm.accounts AS a"].startswith("id-implies-tenant")
    # The WHERE filter on one tenant is the question's subject, not implied by anything.
    assert reasons["drop the tenant filter in WHERE"] is None


def test_a_tenant_equality_that_is_the_only_link_is_not_implied(catalog):
    sql = "SELECT t.name FROM tenancy.tenants t JOIN orders.orders o ON o.tenant_id = t.id"
    assert _reasons(sql, catalog)["drop the tenant filter in ON of orders.orders AS o"] is None


def test_left_join_equivalences(catalog):
    nullable_fk = ("SELECT o.id FROM orders.orders o JOIN crm.accounts a ON a.tenant_id = o.tenant_id "
                   "AND a.id = o.account_id")
    reasons = _reasons(nullable_fk, catalog)
    account_fk_nullable = catalog.table("orders.orders").column("account_id").nullable
    got = reasons["inner → LEFT JOIN crm.accounts AS a"]
    assert (got is None) if account_fk_nullable else got.startswith("fk-parent")

    rejected = ("SELECT o.id FROM tenancy.tenants t JOIN orders.orders o ON o.tenant_id = t.id "
                "WHERE o.status = 'paid'")
    assert _reasons(rejected, catalog)["inner → LEFT JOIN orders.orders AS o"].startswith("null-rejected")

    child_side = "SELECT t.id FROM tenancy.tenants t JOIN orders.orders o ON o.tenant_id = t.id"
    assert _reasons(child_side, catalog)["inner → LEFT JOIN orders.orders AS o"] is None

    extra_on = ("SELECT l.id FROM orders.order_lines l JOIN orders.orders o ON o.tenant_id = l.tenant_id "
                "AND o.id = l.order_id AND o.deleted_at IS NULL")
    assert _reasons(extra_on, catalog)["inner → LEFT JOIN orders.orders AS o"] is None

    parent = ("SELECT l.id FROM orders.order_lines l JOIN orders.orders o ON o.tenant_id = l.tenant_id "
              "AND o.id = l.order_id")
    assert _reasons(parent, catalog)["inner → LEFT JOIN orders.orders AS o"].startswith("fk-parent")


def test_anchor_tenants_are_never_deleted_but_other_tenants_may_be(catalog):
    anchor = "SELECT t.id FROM tenancy.tenants t WHERE t.name = 'Kestrel Foodservice' AND t.deleted_at IS NULL"
    assert _reasons(anchor, catalog)["drop the soft-delete filter in WHERE"].startswith("anchor-never-deleted")
    other = "SELECT t.id FROM tenancy.tenants t WHERE t.country_code = 'US' AND t.deleted_at IS NULL"
    assert _reasons(other, catalog)["drop the soft-delete filter in WHERE"] is None


def test_without_a_catalog_nothing_is_set_aside():
    sql = "SELECT t.id FROM tenancy.tenants t WHERE t.name = 'Kestrel Foodservice' AND t.deleted_at IS NULL"
    assert all(m.equivalent is None for m in mutants(sql))


def test_an_upper_bound_at_the_window_end_is_only_the_window(catalog):
    sql = ("SELECT count(*) FROM orders.orders o WHERE o.placed_at >= DATE '2026-04-01' "
           "AND o.placed_at < DATE '2026-07-01' AND o.placed_at < TIMESTAMPTZ '2026-06-01 00:00:00+00'")
    reasons = _reasons(sql, catalog)
    assert reasons["drop WHERE conjunct `o.placed_at < CAST('2026-07-01' AS DATE)`"].startswith("window-end")
    assert reasons["drop WHERE conjunct `o.placed_at < CAST('2026-06-01 00:00:00+00' AS TIMESTAMPTZ)`"] is None
    assert reasons["drop WHERE conjunct `o.placed_at >= CAST('2026-04-01' AS DATE)`"] is None


@pytest.mark.parametrize("where", ["NOT l.is_closed", "l.is_closed", "l.quantity_received IS NOT NULL"])
def test_boolean_and_is_not_null_conditions_reject_null_extended_rows(catalog, where):
    sql = ("SELECT o.id FROM inventory.purchase_orders o JOIN inventory.purchase_order_lines l "
           f"ON l.tenant_id = o.tenant_id AND l.purchase_order_id = o.id WHERE {where}")
    got = _reasons(sql, catalog)["inner → LEFT JOIN inventory.purchase_order_lines AS l"]
    assert got is not None and got.startswith("null-rejected")


def test_is_null_and_coalesce_do_not_reject_null_extended_rows(catalog):
    for where in ("l.is_closed IS NULL", "COALESCE(l.is_closed, TRUE)"):
        sql = ("SELECT o.id FROM inventory.purchase_orders o JOIN inventory.purchase_order_lines l "
               f"ON l.tenant_id = o.tenant_id AND l.purchase_order_id = o.id WHERE {where}")
        assert _reasons(sql, catalog)["inner → LEFT JOIN inventory.purchase_order_lines AS l"] is None


def test_fk_parent_is_followed_through_a_cte_that_passes_keys_through(catalog):
    through = ("WITH lines AS (SELECT l.tenant_id, l.order_id, count(*) AS n FROM orders.order_lines l "
               "GROUP BY l.tenant_id, l.order_id) "
               "SELECT o.id, x.n FROM lines x JOIN orders.orders o ON o.tenant_id = x.tenant_id AND o.id = x.order_id")
    assert _reasons(through, catalog)["inner → LEFT JOIN orders.orders AS o"].startswith("fk-parent")
    # A key that comes through an outer join may be NULL: not provable.
    outer = ("WITH lines AS (SELECT o2.tenant_id, l.order_id FROM orders.orders o2 LEFT JOIN orders.order_lines l "
             "ON l.tenant_id = o2.tenant_id AND l.order_id = o2.id) "
             "SELECT o.id FROM lines x JOIN orders.orders o ON o.tenant_id = x.tenant_id AND o.id = x.order_id")
    assert _reasons(outer, catalog)["inner → LEFT JOIN orders.orders AS o"] is None
    # A computed key is not a foreign key value.
    computed = ("WITH lines AS (SELECT l.tenant_id, l.order_id + 1 AS order_id FROM orders.order_lines l) "
                "SELECT o.id FROM lines x JOIN orders.orders o ON o.tenant_id = x.tenant_id AND o.id = x.order_id")
    assert _reasons(computed, catalog)["inner → LEFT JOIN orders.orders AS o"] is None


def test_window_end_never_covers_columns_that_may_lie_after_the_as_of_date(catalog):
    """An expiry date and a late event (last_seen_at) can pass the as-of date, so dropping their
    window-end bound does change answers and must stay a counted mutant."""
    for column in ("s.expires_at", "s.last_seen_at"):
        sql = (f"SELECT count(*) FROM auth.sessions s WHERE s.started_at >= DATE '2026-01-01' "
               f"AND {column} < DATE '2026-07-01'")
        reasons = _reasons(sql, catalog)
        assert reasons[f"drop WHERE conjunct `{column} < CAST('2026-07-01' AS DATE)`"] is None, column
