"""The catalog subset renders like the full prompt, for the chosen tables only."""

from __future__ import annotations

import pytest

from heron_pipeline.adapters.prompt import render_schema, render_table
from heron_pipeline.catalog import load_catalog
from heron_pipeline.retrieval import subset_catalog


def test_subset_keeps_the_tables_in_order_and_only_the_enums_they_use() -> None:
    catalog = load_catalog()
    sub = subset_catalog(catalog, ["support.cases", "orders.carriers", "support.cases"])
    assert list(sub.tables) == ["support.cases", "orders.carriers"]
    assert set(sub.enums) == {c.type_sql for c in catalog.table("support.cases").columns if c.kind == "enum"}
    text = render_schema(sub)
    assert render_table(catalog.table("orders.carriers")) in text
    assert "CREATE TABLE orders.orders " not in text
    assert sub.domains == ["orders", "support"]


def test_subset_refuses_unknown_tables() -> None:
    with pytest.raises(KeyError, match="no.such"):
        subset_catalog(load_catalog(), ["no.such"])
