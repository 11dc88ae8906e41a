"""Join paths and the FK expansion on the hand-made catalog (tests/retrieval/small_catalog.py).

The tests use a graph whose hubs are the tables referenced by half of the small catalog's 10 tables
(auth.users only), so that the hub rule is what the test pins rather than the default share.
"""

from __future__ import annotations

from hypothesis import given, strategies as st

from heron_pipeline.catalog import load_catalog
from heron_pipeline.retrieval import JoinGraph, expand_with_join_paths, join_path
from tests.retrieval.small_catalog import small_catalog

CATALOG = small_catalog()
GRAPH = JoinGraph(CATALOG, hub_share=0.5)
TABLES = list(CATALOG.tables)


def _path(a: str, b: str, **kwargs) -> list[str] | None:
    return join_path(CATALOG, a, b, graph=kwargs.pop("graph", GRAPH), **kwargs)


def test_hubs_are_the_heavily_referenced_tables() -> None:
    assert GRAPH.hubs == {"auth.users"}
    assert JoinGraph(CATALOG).hubs == {"auth.users"}  # 5 of 10 tables reference users, 2 accounts
    assert JoinGraph(CATALOG, hub_share=0.2).hubs == {"auth.users", "crm.accounts", "tenancy.currencies"}
    assert JoinGraph(CATALOG, hub_share=None).hubs == set()


def test_tenant_key_and_hubs_end_paths_but_never_sit_inside_them() -> None:
    assert _path("support.cases", "tenancy.tenants") == ["support.cases", "tenancy.tenants"]
    assert _path("comms.messages", "auth.users") == ["comms.messages", "auth.users"]
    # messages reach other tables only through the users hub (or "through their tenant"): no path
    assert _path("comms.messages", "support.cases") is None
    assert _path("comms.messages", "support.cases", graph=JoinGraph(CATALOG, hub_share=None)) == [
        "comms.messages", "auth.users", "support.cases"]
    assert "tenancy.tenants" not in GRAPH.neighbours["support.cases"]


def test_bridges_go_through_non_hub_tables() -> None:
    assert _path("support.cases", "billing.invoices") == ["support.cases", "crm.accounts", "billing.invoices"]
    assert _path("support.cases", "tenancy.countries") == ["support.cases", "crm.accounts", "tenancy.countries"]
    assert _path("billing.invoices", "tenancy.exchange_rates") == [
        "billing.invoices", "tenancy.currencies", "tenancy.exchange_rates"]


def test_options_hub_penalty_and_shared_keys() -> None:
    shared = JoinGraph(CATALOG, hub_share=0.5, shared_keys=True)
    assert shared.adjacent("billing.invoices", "tenancy.exchange_rates")  # both carry a currency code
    assert _path("billing.invoices", "tenancy.exchange_rates", graph=shared) == [
        "billing.invoices", "tenancy.exchange_rates"]
    flat = JoinGraph(CATALOG, hub_share=None)
    penalised = JoinGraph(CATALOG, hub_share=None, hub_penalty=True)
    # cases → invoices: through accounts (4 neighbours) or users (5); both 2 hops, and without a
    # penalty the lexicographically first wins
    assert _path("support.cases", "billing.invoices", graph=flat)[1] == "auth.users"
    assert _path("support.cases", "billing.invoices", graph=penalised)[1] == "crm.accounts"


def test_max_hops_bounds_the_path() -> None:
    assert _path("support.cases", "tenancy.countries", max_hops=1) is None
    assert _path("support.cases", "tenancy.exchange_rates", max_hops=3) is None
    assert _path("support.cases", "tenancy.exchange_rates", max_hops=4) == [
        "support.cases", "crm.accounts", "billing.invoices", "tenancy.currencies", "tenancy.exchange_rates"]


def test_expansion_inserts_the_bridge_before_the_seed_that_needs_it() -> None:
    ranked = ["support.cases", "tenancy.countries", "comms.messages"]
    expand = lambda r, **kw: expand_with_join_paths(r, CATALOG, graph=GRAPH, **kw)  # noqa: E731
    assert expand(ranked) == ["support.cases", "crm.accounts", "tenancy.countries", "comms.messages"]
    assert expand(ranked, limit=2) == ["support.cases", "crm.accounts"]
    assert expand(ranked, seeds=1) == ranked  # only the top `seeds` are joined up
    assert expand(["support.cases", "crm.accounts"]) == ["support.cases", "crm.accounts"]  # adjacent
    assert expand(["billing.invoices", "x.unknown", "billing.invoices", "tenancy.exchange_rates"]) == [
        "billing.invoices", "x.unknown", "tenancy.currencies", "tenancy.exchange_rates"]


@given(st.lists(st.sampled_from(TABLES), max_size=7), st.integers(1, 5))
def test_expansion_is_a_superset_without_repeats_that_keeps_the_tail_order(ranked: list[str], seeds: int) -> None:
    out = expand_with_join_paths(ranked, CATALOG, seeds=seeds, graph=GRAPH)
    assert len(out) == len(set(out))
    assert set(ranked) <= set(out)
    # after the last seed, the rest of the ranking follows in its order (minus tables already placed)
    last = max((out.index(t) for t in ranked[:seeds]), default=-1)
    assert out[last + 1:] == [t for t in dict.fromkeys(ranked[seeds:]) if t not in out[:last + 1]]
    # every added table lies on a path between two seeds
    for added in set(out) - set(ranked):
        assert any(added in (_path(a, b) or []) for a in ranked[:seeds] for b in ranked[:seeds])


def test_heron_catalog_paths() -> None:
    catalog = load_catalog()
    assert join_path(catalog, "orders.order_lines", "catalog.products") == [
        "orders.order_lines", "catalog.product_variants", "catalog.products"]
    assert join_path(catalog, "support.cases", "tenancy.countries") == [
        "support.cases", "crm.accounts", "tenancy.countries"]
    hubs = JoinGraph(catalog).hubs
    assert hubs == {"auth.users", "tenancy.currencies"}
