"""Join paths and the FK expansion on the hand-made catalog (tests/retrieval/small_catalog.py)."""

from __future__ import annotations

from hypothesis import given, strategies as st

from heron_pipeline.catalog import load_catalog
from heron_pipeline.retrieval import JoinGraph, expand_with_join_paths, join_path
from tests.retrieval.small_catalog import small_catalog

CATALOG = small_catalog()
TABLES = list(CATALOG.tables)


def test_tenant_key_is_an_edge_to_tenants_but_never_inside_a_path() -> None:
    graph = JoinGraph(CATALOG)
    assert join_path(CATALOG, "support.cases", "tenancy.tenants") == ["support.cases", "tenancy.tenants"]
    # messages reach cases only through the users hub (not "through their tenant")
    assert join_path(CATALOG, "comms.messages", "support.cases") == ["comms.messages", "auth.users", "support.cases"]
    assert "tenancy.tenants" not in graph.neighbours["support.cases"]


def test_bridges_prefer_non_hub_tables() -> None:
    # cases → invoices: via crm.accounts (4 neighbours) or via auth.users (5): accounts is cheaper
    assert join_path(CATALOG, "support.cases", "billing.invoices") == [
        "support.cases", "crm.accounts", "billing.invoices"]
    assert join_path(CATALOG, "support.cases", "tenancy.countries") == [
        "support.cases", "crm.accounts", "tenancy.countries"]


def test_max_hops_bounds_the_path() -> None:
    assert join_path(CATALOG, "comms.messages", "tenancy.countries", max_hops=3) == [
        "comms.messages", "auth.users", "crm.accounts", "tenancy.countries"]
    assert join_path(CATALOG, "comms.messages", "tenancy.countries", max_hops=2) is None


def test_expansion_inserts_the_bridge_before_the_seed_that_needs_it() -> None:
    ranked = ["support.cases", "tenancy.countries", "comms.messages"]
    assert expand_with_join_paths(ranked, CATALOG) == [
        "support.cases", "crm.accounts", "tenancy.countries", "auth.users", "comms.messages"]
    assert expand_with_join_paths(ranked, CATALOG, limit=3) == ["support.cases", "crm.accounts", "tenancy.countries"]
    # only the top `seeds` are joined up; the rest keeps its order
    assert expand_with_join_paths(ranked, CATALOG, seeds=1) == ranked
    # adjacent seeds need no bridge
    assert expand_with_join_paths(["support.cases", "crm.accounts"], CATALOG) == ["support.cases", "crm.accounts"]


def test_expansion_keeps_unknown_tables_and_never_duplicates() -> None:
    assert expand_with_join_paths(["x.unknown", "support.cases", "support.cases"], CATALOG) == [
        "x.unknown", "support.cases"]


@given(st.lists(st.sampled_from(TABLES), max_size=7), st.integers(1, 5))
def test_expansion_is_a_superset_without_repeats_that_keeps_the_tail_order(ranked: list[str], seeds: int) -> None:
    out = expand_with_join_paths(ranked, CATALOG, seeds=seeds)
    assert len(out) == len(set(out))
    assert set(ranked) <= set(out)
    # after the last seed, the rest of the ranking follows in its order (minus tables already placed)
    placed_seeds = [out.index(t) for t in ranked[:seeds]]
    last = max(placed_seeds, default=-1)
    assert out[last + 1:] == [t for t in dict.fromkeys(ranked[seeds:]) if t not in out[:last + 1]]
    # every added table lies on a path between two seeds
    for added in set(out) - set(ranked):
        assert any(added in (join_path(CATALOG, a, b) or []) for a in ranked[:seeds] for b in ranked[:seeds])
