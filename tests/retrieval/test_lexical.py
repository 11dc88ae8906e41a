"""The BM25 retriever on a hand-made catalog (rankings checkable by eye) and on heron's own."""

from __future__ import annotations

from dataclasses import replace

import pytest

from heron_pipeline.catalog import load_catalog
from heron_pipeline.retrieval import (FIELDS, RetrieverConfig, TableRetriever, ValueLinker, reference_values,
                                      table_documents)
from tests.retrieval.small_catalog import small_catalog


def test_documents_keep_fields_apart_and_carry_enum_labels() -> None:
    docs = {d.table: d for d in table_documents(small_catalog(), {"tenancy.tenants": ["Halyard Outfitters"]})}
    cases = docs["support.cases"]
    assert set(cases.fields) == set(FIELDS)
    assert cases.tokens("name") == ("support", "case")
    assert cases.tokens("enums") == ("open", "escalated", "solved")  # billing.invoice_status is not used here
    assert "tenant" not in cases.tokens("columns")  # tenant_id, id are common columns
    assert cases.tokens("columns")[:2] == ("account", "id")
    assert docs["tenancy.tenants"].tokens("values") == ("halyard", "outfitter")
    assert docs["crm.accounts"].tokens("values") == ()


def test_rank_orders_by_weighted_field_scores_and_drops_unmatched_tables() -> None:
    retriever = TableRetriever(small_catalog(), values={})
    ranked = retriever.rank("How many support tickets are escalated?")
    assert ranked[0] == "support.cases"  # name, comment and enum label all match
    assert "comms.messages" not in ranked and "tenancy.countries" not in ranked  # no shared token
    scores = dict(retriever.scored("How many support tickets are escalated?"))
    assert all(score > 0 for score in scores.values())
    assert retriever.rank("zebra quasar") == []


def test_field_weights_change_the_ranking() -> None:
    catalog = small_catalog()
    text = "customers"  # in the comments of tenants, accounts and cases; in no name
    comments_only = TableRetriever(catalog, values={}, config=RetrieverConfig(weights={"comments": 1.0}))
    names_only = TableRetriever(catalog, values={}, config=RetrieverConfig(weights={"name": 1.0}))
    assert set(comments_only.rank(text)) == {"tenancy.tenants", "crm.accounts", "support.cases"}
    assert names_only.rank(text) == []
    both = TableRetriever(catalog, values={}, config=RetrieverConfig(weights={"name": 3.0, "comments": 1.0}))
    single = dict(comments_only.scored("accounts customers"))
    weighted = dict(both.scored("accounts customers"))
    assert weighted["crm.accounts"] > weighted["tenancy.tenants"]
    assert weighted["tenancy.tenants"] == pytest.approx(single["tenancy.tenants"])  # no name match: unchanged


def test_ties_keep_catalog_order_and_k_cuts() -> None:
    catalog = small_catalog()
    twin = replace(catalog.tables["support.cases"], name="archived_cases")  # same columns, other name
    catalog.tables = {"support.archived_cases": twin, **catalog.tables}
    retriever = TableRetriever(catalog, values={},
                               config=RetrieverConfig(weights={"columns": 1.0}, link_values=False))
    assert retriever.rank("tenant") == []  # tenant_id is a common column, left out of the columns field
    scores = dict(retriever.scored("assignee"))
    assert scores == {"support.archived_cases": pytest.approx(scores["support.cases"]),
                      "support.cases": scores["support.cases"]}
    assert retriever.rank("assignee") == ["support.archived_cases", "support.cases"]  # catalog order
    assert retriever.rank("assignee", k=1) == ["support.archived_cases"]


def test_value_links_place_the_named_table_after_the_best_lexical_match() -> None:
    values = {"tenancy.tenants": ["Halyard Outfitters", "Kestrel Foodservice"], "tenancy.countries": ["Germany"]}
    retriever = TableRetriever(small_catalog(), values=values)
    ranked = retriever.rank("For Halyard Outfitters, how many support tickets are escalated in Germany?")
    assert ranked[:2] == ["support.cases", "tenancy.tenants"]
    assert retriever.linked("Kestrel Foodservice and Halyard Outfitters") == ["tenancy.tenants"]
    assert retriever.linked("Germany") == []  # one-token values never link
    off = TableRetriever(small_catalog(), values=values, config=RetrieverConfig(link_values=False))
    assert "tenancy.tenants" not in off.rank("For Halyard Outfitters, how many support tickets are escalated?")[:2]


def test_value_linker_matches_whole_phrases_only() -> None:
    linker = ValueLinker({"a.t": ["Orchard & Vine Hospitality"], "b.u": ["Vine Hospitality Group"]})
    assert linker.tables("orders of Orchard & Vine Hospitality") == ["a.t"]
    assert linker.tables("orchard vine") == []
    assert linker.tables("Vine Hospitality Group, then Orchard and Vine Hospitality") == ["b.u", "a.t"]


def test_reference_values_hold_the_anchor_tenants_and_profile_data() -> None:
    values = reference_values()
    assert "Halyard Outfitters" in values["tenancy.tenants"]
    assert "Euro" in values["tenancy.currencies"]
    assert "Germany" in values["tenancy.countries"]


@pytest.mark.parametrize("text, table", [
    ("For Halyard Outfitters, how many support tickets were opened in 2025?", "support.cases"),
    ("Which shipping carriers are active?", "orders.carriers"),
    ("List the carriers that ship internationally", "orders.carriers"),
])
def test_heron_catalog_top_hit(text: str, table: str) -> None:
    assert TableRetriever(load_catalog()).rank(text)[0] == table


def test_heron_catalog_links_anchor_names_to_tenants() -> None:
    ranked = TableRetriever(load_catalog()).rank("For Halyard Outfitters, how many support tickets were opened?")
    assert ranked.index("tenancy.tenants") == 1
