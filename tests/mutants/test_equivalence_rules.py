"""Each equivalence rule fires on its equivalent case and stays silent on a near-identical mutant
that is not equivalent (one changed detail breaks the proof)."""

from __future__ import annotations

import pytest

from heron_pipeline.catalog.ddl import load_catalog
from heron_pipeline.mutants import mutants


@pytest.fixture(scope="module")
def catalog():
    return load_catalog()


def _reason(sql: str, catalog, description: str) -> str | None:
    found = {m.description: m.equivalent for m in mutants(sql, catalog)}
    assert description in found, sorted(found)
    return found[description]


def _rule(reason: str | None) -> str | None:
    return reason.split(":")[0] if reason else None


# -- null-rejected: the wider predicate set ---------------------------------------------------------------

_PO = ("SELECT o.id FROM inventory.purchase_orders o JOIN inventory.purchase_order_lines l "
       "ON l.tenant_id = o.tenant_id AND l.purchase_order_id = o.id WHERE {}")
_PO_LEFT = "inner → LEFT JOIN inventory.purchase_order_lines AS l"


@pytest.mark.parametrize("where", [
    "l.is_closed IS TRUE", "l.is_closed IS FALSE", "NOT (l.quantity_received IS NULL)",
    "(l.quantity_received > 0 OR l.quantity_ordered > 10)", "l.quantity_ordered - l.quantity_received > 0",
    "l.quantity_ordered NOT IN (1, 2)"])
def test_more_null_rejecting_forms(catalog, where):
    assert _rule(_reason(_PO.format(where), catalog, _PO_LEFT)) == "null-rejected"


@pytest.mark.parametrize("where", [
    "l.is_closed IS NOT TRUE", "NOT (l.is_closed IS TRUE)", "(l.quantity_received > 0 OR o.status = 'sent')",
    "l.quantity_received IS DISTINCT FROM 0", "COALESCE(l.quantity_received, 0) = 0"])
def test_forms_that_keep_null_extended_rows(catalog, where):
    assert _reason(_PO.format(where), catalog, _PO_LEFT) is None


# -- fk-parent through a CTE that passes a table's columns with x.* --------------------------------------

def test_fk_parent_through_a_star_cte_with_a_window(catalog):
    sql = ("WITH r AS (SELECT l.*, row_number() OVER (PARTITION BY l.tenant_id ORDER BY l.id) AS rn "
           "FROM orders.order_lines l) "
           "SELECT o.id FROM r JOIN orders.orders o ON o.tenant_id = r.tenant_id AND o.id = r.order_id WHERE r.rn = 1")
    assert _rule(_reason(sql, catalog, "inner → LEFT JOIN orders.orders AS o")) == "fk-parent"
    outer = ("WITH r AS (SELECT l.*, row_number() OVER (PARTITION BY l.tenant_id ORDER BY l.id) AS rn "
             "FROM orders.orders o2 LEFT JOIN orders.order_lines l ON l.tenant_id = o2.tenant_id AND l.order_id = o2.id) "
             "SELECT o.id FROM r JOIN orders.orders o ON o.tenant_id = r.tenant_id AND o.id = r.order_id WHERE r.rn = 1")
    assert _reason(outer, catalog, "inner → LEFT JOIN orders.orders AS o") is None


# -- fk-implies-tenant -----------------------------------------------------------------------------------

_AGENTS = ("SELECT ap.user_id, count(c.id) FROM support.agent_profiles ap LEFT JOIN support.cases c "
           "ON c.tenant_id = ap.tenant_id AND c.{} = ap.user_id GROUP BY ap.user_id")
_AGENTS_DROP = "drop the tenant filter in ON of support.cases AS c"


def test_two_tenant_safe_fks_to_one_parent_imply_the_tenant(catalog):
    assert _rule(_reason(_AGENTS.format("assignee_user_id"), catalog, _AGENTS_DROP)) == "fk-implies-tenant"


def test_fks_to_different_parents_do_not(catalog):
    # cases.account_id points to crm.accounts, agent_profiles.user_id to auth.users: equal numbers, any tenant.
    assert _reason(_AGENTS.format("account_id"), catalog, _AGENTS_DROP) is None


# -- count-distinct-unique --------------------------------------------------------------------------------

_ROLES = ("SELECT r.name, count(DISTINCT u.id) FROM tenancy.tenants t JOIN auth.users u ON u.tenant_id = t.id "
          "JOIN auth.user_roles ur ON ur.tenant_id = u.tenant_id AND ur.user_id = u.id "
          "JOIN auth.roles r ON r.tenant_id = ur.tenant_id AND r.id = ur.role_id WHERE {} GROUP BY {}")
_ROLES_DROP = "drop DISTINCT in `COUNT(DISTINCT u.id)`"


def test_distinct_is_a_no_op_when_every_join_is_pinned_by_a_key(catalog):
    sql = _ROLES.format("t.name = 'Brightwater Medical Supply'", "r.name")
    assert _rule(_reason(sql, catalog, _ROLES_DROP)) == "count-distinct-unique"


@pytest.mark.parametrize("where, group", [
    ("t.deleted_at IS NULL", "r.name"),  # every tenant: r.name no longer names one role
    ("t.name = 'Brightwater Medical Supply'", "r.is_system"),  # a group holds several roles per user
])
def test_distinct_matters_when_a_user_can_repeat_in_a_group(catalog, where, group):
    assert _reason(_ROLES.format(where, group), catalog, _ROLES_DROP) is None


def test_an_outer_join_defeats_the_key_proof(catalog):
    sql = _ROLES.format("t.name = 'Brightwater Medical Supply'", "r.name").replace(
        "JOIN auth.user_roles ur", "LEFT JOIN auth.user_roles ur")
    assert _reason(sql, catalog, _ROLES_DROP) is None


# -- series-spine -----------------------------------------------------------------------------------------

_SPINE = ("WITH months AS (SELECT generate_series(DATE '{start}', DATE '2025-12-01', INTERVAL '1 month')::date AS month), "
          "counts AS (SELECT date_trunc('month', o.placed_at AT TIME ZONE 'UTC')::date AS month, count(*) AS n "
          "FROM orders.orders o WHERE o.tenant_id = 1 AND o.placed_at >= DATE '{low}' "
          "AND o.placed_at < DATE '2026-01-01' GROUP BY 1) "
          "SELECT m.month, coalesce(c.n, 0) FROM months m {join} JOIN counts c ON c.month = m.month ORDER BY 1")
_LOW = "drop WHERE conjunct `o.placed_at >= CAST('{}' AS DATE)`"
_HIGH = "drop WHERE conjunct `o.placed_at < CAST('2026-01-01' AS DATE)`"


def test_bounds_that_repeat_the_spine_are_equivalent(catalog):
    sql = _SPINE.format(start="2025-01-01", low="2025-01-01", join="LEFT")
    assert _rule(_reason(sql, catalog, _LOW.format("2025-01-01"))) == "series-spine"
    assert _rule(_reason(sql, catalog, _HIGH)) == "series-spine"


def test_a_spine_that_starts_before_the_bound_would_see_the_rows(catalog):
    sql = _SPINE.format(start="2024-12-01", low="2025-01-01", join="LEFT")
    assert _reason(sql, catalog, _LOW.format("2025-01-01")) is None
    assert _rule(_reason(sql, catalog, _HIGH)) == "series-spine"


def test_a_mid_month_bound_or_an_inner_join_is_not_a_spine_bound(catalog):
    mid = _SPINE.format(start="2025-02-01", low="2025-01-15", join="LEFT")
    assert _reason(mid, catalog, _LOW.format("2025-01-15")) is None
    inner = _SPINE.format(start="2025-01-01", low="2025-01-01", join="")
    assert _reason(inner, catalog, _LOW.format("2025-01-01")) is None


def test_a_window_over_the_buckets_sees_the_extra_months(catalog):
    sql = _SPINE.format(start="2025-01-01", low="2025-01-01", join="LEFT").replace(
        "count(*) AS n", "count(*) - lag(count(*)) OVER (ORDER BY 1) AS n")
    assert _reason(sql, catalog, _LOW.format("2025-01-01")) is None


# -- null-unless-status (generator contract) ---------------------------------------------------------------

def test_a_status_implied_by_a_set_column_is_redundant(catalog):
    sql = ("SELECT count(*) FROM billing.invoices i WHERE i.status = 'paid' "
           "AND i.paid_at >= DATE '2025-01-01' AND i.paid_at < DATE '2026-01-01'")
    assert _rule(_reason(sql, catalog, "drop WHERE conjunct `i.status = 'paid'`")) == "null-unless-status"


def test_a_status_is_needed_when_nothing_rejects_null_in_the_column(catalog):
    sql = ("SELECT count(*) FROM billing.invoices i WHERE i.status = 'paid' "
           "AND (i.paid_at >= DATE '2025-01-01' OR i.issued_on >= DATE '2025-01-01')")
    assert _reason(sql, catalog, "drop WHERE conjunct `i.status = 'paid'`") is None


def test_a_status_narrower_than_the_contract_is_needed(catalog):
    # ended_at is set for cancelled and expired subscriptions: 'cancelled' alone still filters.
    narrow = ("SELECT count(*) FROM tenancy.tenant_subscriptions s WHERE s.status = 'cancelled' "
              "AND s.ended_at >= DATE '2025-01-01'")
    assert _reason(narrow, catalog, "drop WHERE conjunct `s.status = 'cancelled'`") is None
    wide = narrow.replace("s.status = 'cancelled'", "s.status IN ('cancelled', 'expired')")
    assert _rule(_reason(wide, catalog, "drop WHERE conjunct `s.status IN ('cancelled', 'expired')`")) \
        == "null-unless-status"


def test_an_inner_join_on_the_column_rejects_null_but_a_left_join_does_not(catalog):
    sql = ("SELECT sc.provider, count(*) FROM auth.sessions s {} JOIN auth.sso_connections sc "
           "ON sc.tenant_id = s.tenant_id AND sc.id = s.sso_connection_id WHERE s.auth_method = 'sso' GROUP BY 1")
    drop = "drop WHERE conjunct `s.auth_method = 'sso'`"
    assert _rule(_reason(sql.format(""), catalog, drop)) == "null-unless-status"
    assert _reason(sql.format("LEFT"), catalog, drop) is None


# -- not-null-implied ---------------------------------------------------------------------------------------

_VISITS = ("WITH v AS (SELECT s.tenant_id, s.tracking_link_id{extra} FROM analytics.web_sessions s "
           "WHERE s.tenant_id = 1 AND s.tracking_link_id IS NOT NULL{group}) "
           "SELECT l.campaign_id, count(*) FROM v {join} JOIN marketing.tracking_links l "
           "ON l.tenant_id = v.tenant_id AND l.id = v.tracking_link_id GROUP BY 1")
_VISITS_DROP = "drop WHERE conjunct `s.tracking_link_id IS NOT NULL`"


def test_not_null_filter_before_an_inner_join_on_the_column_is_redundant(catalog):
    sql = _VISITS.format(extra="", group="", join="")
    assert _rule(_reason(sql, catalog, _VISITS_DROP)) == "not-null-implied"
    same_select = ("SELECT count(*) FROM analytics.web_sessions s JOIN marketing.tracking_links l "
                   "ON l.tenant_id = s.tenant_id AND l.id = s.tracking_link_id WHERE s.tracking_link_id IS NOT NULL")
    assert _rule(_reason(same_select, catalog, _VISITS_DROP)) == "not-null-implied"


@pytest.mark.parametrize("extra, group, join", [
    ("", "", "LEFT"),  # the outer join keeps visits without a link
    (", count(*) AS n", " GROUP BY s.tenant_id, s.tracking_link_id", ""),  # grouped: harmless here, but not row-for-row
])
def test_not_null_filter_that_something_downstream_needs(catalog, extra, group, join):
    assert _reason(_VISITS.format(extra=extra, group=group, join=join), catalog, _VISITS_DROP) is None


# -- window-start (generator contract) ----------------------------------------------------------------------

def test_a_lower_bound_at_the_window_start_is_only_the_window(catalog):
    sql = ("SELECT count(*) FROM tenancy.platform_invoices i WHERE i.paid_at >= DATE '{}' "
           "AND i.paid_at < DATE '2024-01-01'")
    assert _rule(_reason(sql.format("2023-01-01"), catalog,
                         "drop WHERE conjunct `i.paid_at >= CAST('2023-01-01' AS DATE)`")) == "window-start"
    assert _rule(_reason(sql.format("2022-06-01"), catalog,
                         "drop WHERE conjunct `i.paid_at >= CAST('2022-06-01' AS DATE)`")) == "window-start"
    # One day later, the bound cuts off New Year's Day.
    assert _reason(sql.format("2023-01-02"), catalog, "drop WHERE conjunct `i.paid_at >= CAST('2023-01-02' AS DATE)`") \
        is None


def test_global_tables_and_pinned_values_predate_the_window(catalog):
    # Reference data is older than the window (tax rates valid since decades).
    tax = "SELECT count(*) FROM pricing.tax_rates r WHERE r.valid_from >= DATE '2023-01-01'"
    assert _reason(tax, catalog, "drop WHERE conjunct `r.valid_from >= CAST('2023-01-01' AS DATE)`") is None
    # A profile `pin` writes a literal value: the generator's floor does not apply to it.
    from heron_pipeline.mutants.datacontract import profiles_for
    from heron_pipeline.mutants.window import floored_at_window_start

    pinned = [(name, column) for name, profile in profiles_for(catalog).items()
              for column, rule in profile.columns.items()
              if "pin" in rule and catalog.table(name).column(column).kind in ("timestamptz", "date")]
    assert all(not floored_at_window_start(catalog, name, column) for name, column in pinned)
    assert floored_at_window_start(catalog, "orders.orders", "placed_at")


# -- having-singleton -----------------------------------------------------------------------------------------

_SKUS = ("SELECT p.id, p.title, count(*) FROM catalog.products p JOIN catalog.product_variants v "
         "ON v.tenant_id = p.tenant_id AND v.product_id = p.id WHERE p.status = 'active' "
         "GROUP BY {} HAVING count(*) {}")
_SKUS_LEFT = "inner → LEFT JOIN catalog.product_variants AS v"


@pytest.mark.parametrize("having", [">= 8", ">= 2", "> 1"])
def test_a_lonely_null_extended_row_fails_a_count_threshold(catalog, having):
    sql = _SKUS.format("p.id, p.tenant_id, p.title", having)
    assert _rule(_reason(sql, catalog, _SKUS_LEFT)) == "having-singleton"


@pytest.mark.parametrize("group, having", [
    ("p.id, p.tenant_id, p.title", ">= 1"),  # one row is enough: the product without SKUs appears
    ("p.id, p.tenant_id, p.title", "> 0"),
    ("p.title", ">= 8"),  # titles repeat: the NULL-extended row can join a group of other products
])
def test_a_null_extended_row_that_can_count(catalog, group, having):
    assert _reason(_SKUS.format(group, having), catalog, _SKUS_LEFT) is None


def test_a_group_by_name_that_is_also_an_input_column_is_not_the_output_alias(catalog):
    # PostgreSQL reads GROUP BY status as users.status, not as the alias of r.name.
    sql = _ROLES.format("t.name = 'Brightwater Medical Supply'", "status").replace("SELECT r.name,", "SELECT r.name AS status,")
    assert _reason(sql, catalog, _ROLES_DROP) is None
    aliased = _ROLES.format("t.name = 'Brightwater Medical Supply'", "role_name").replace(
        "SELECT r.name,", "SELECT r.name AS role_name,")
    assert _rule(_reason(aliased, catalog, _ROLES_DROP)) == "count-distinct-unique"


# -- id-implies-tenant, now checked against the catalog ---------------------------------------------------------

def test_an_id_equality_implies_the_tenant_only_through_a_foreign_key(catalog):
    linked = ("SELECT o.id FROM orders.orders o JOIN crm.accounts a ON a.tenant_id = o.tenant_id AND a.id = o.account_id")
    drop = "drop the tenant filter in ON of crm.accounts AS a"
    assert _rule(_reason(linked, catalog, drop)) == "id-implies-tenant"
    # Equal ids of two unrelated tables say nothing about the tenant.
    unrelated = linked.replace("a.id = o.account_id", "a.id = o.id")
    assert _reason(unrelated, catalog, drop) is None


def test_id_implies_tenant_through_a_cte_and_a_correlated_subquery(catalog):
    cte = ("WITH p AS (SELECT s.tenant_id, s.user_id, count(*) AS n FROM auth.sessions s GROUP BY s.tenant_id, s.user_id) "
           "SELECT u.full_name, p.n FROM p JOIN auth.users u ON u.tenant_id = p.tenant_id AND u.id = p.user_id")
    assert _rule(_reason(cte, catalog, "drop the tenant filter in ON of auth.users AS u")) == "id-implies-tenant"
    computed = cte.replace("s.user_id, count(*)", "s.user_id, s.user_id + 1 AS uid, count(*)").replace(
        "u.id = p.user_id", "u.id = p.uid")
    assert _reason(computed, catalog, "drop the tenant filter in ON of auth.users AS u") is None
    correlated = ("SELECT m.id FROM comms.messages m WHERE EXISTS (SELECT 1 FROM comms.message_events e "
                  "WHERE e.tenant_id = m.tenant_id AND e.message_id = m.id)")
    assert _rule(_reason(correlated, catalog, "drop the tenant filter in WHERE")) == "id-implies-tenant"


# -- count-not-null ---------------------------------------------------------------------------------------------

_PROMOS = ("SELECT pr.code, count(pp.id) {} AS n FROM pricing.promotions pr "
           "LEFT JOIN pricing.promotion_products pp ON pp.tenant_id = pr.tenant_id AND pp.promotion_id = pr.id "
           "LEFT JOIN catalog.products p ON p.tenant_id = pp.tenant_id AND p.id = pp.product_id GROUP BY pr.code")


def test_counting_a_not_null_column_of_a_matched_table_counts_rows(catalog):
    # The FILTER needs p matched; p's ON equates pp.tenant_id, so pp is matched too and pp.id is set.
    sql = _PROMOS.format("FILTER (WHERE p.status = 'active')")
    assert _rule(_reason(sql, catalog, "count rows instead of `COUNT(pp.id)`")) == "count-not-null"
    inner = "SELECT o.status, count(o.id) FROM orders.orders o GROUP BY o.status"
    assert _rule(_reason(inner, catalog, "count rows instead of `COUNT(o.id)`")) == "count-not-null"


def test_count_of_a_column_that_can_be_null_is_not_count_star(catalog):
    # Without the FILTER a promotion without products has one NULL-extended row: count(pp.id) = 0, count(*) = 1.
    assert _reason(_PROMOS.format(""), catalog, "count rows instead of `COUNT(pp.id)`") is None
    # A FILTER that does not need p matched proves nothing.
    sql = _PROMOS.format("FILTER (WHERE p.status IS NULL OR p.status = 'active')")
    assert _reason(sql, catalog, "count rows instead of `COUNT(pp.id)`") is None
    nullable = "SELECT o.status, count(o.account_id) FROM orders.orders o GROUP BY o.status"
    got = _reason(nullable, catalog, "count rows instead of `COUNT(o.account_id)`")
    assert (got is None) == catalog.table("orders.orders").column("account_id").nullable


# -- null-group-dropped -------------------------------------------------------------------------------------------

_UNITS = ("WITH units AS (SELECT {key}.tenant_id, ol.variant_id, sum(ol.quantity) AS n FROM orders.orders o "
          "JOIN orders.order_lines ol ON ol.tenant_id = o.tenant_id AND ol.order_id = o.id "
          "GROUP BY {key}.tenant_id, ol.variant_id), "
          "ranked AS (SELECT u.*, row_number() OVER ({partition}ORDER BY u.n DESC, u.variant_id) AS rn FROM units u) "
          "SELECT t.name, r.variant_id FROM ranked r {join} JOIN tenancy.tenants t ON t.id = r.tenant_id WHERE r.rn = 1")
_UNITS_LEFT = "inner → LEFT JOIN orders.order_lines AS ol"


def test_null_groups_in_their_own_partition_are_dropped_downstream(catalog):
    sql = _UNITS.format(key="ol", partition="PARTITION BY u.tenant_id ", join="")
    assert _rule(_reason(sql, catalog, _UNITS_LEFT)) == "null-group-dropped"


@pytest.mark.parametrize("key, partition, join", [
    ("ol", "", ""),  # one window over all rows: the NULL group can take rank 1 from a real one
    ("ol", "PARTITION BY u.tenant_id ", "LEFT"),  # the final outer join keeps the NULL row
    ("o", "PARTITION BY u.tenant_id ", ""),  # tenant_id from orders is set on the new rows
])
def test_null_groups_that_reach_the_result_or_other_rows(catalog, key, partition, join):
    assert _reason(_UNITS.format(key=key, partition=partition, join=join), catalog, _UNITS_LEFT) is None
