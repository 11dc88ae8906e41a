"""Similar training examples: hand-made pairs whose ranking can be checked by eye, and the real set."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from heron_pipeline.questions.train import load_training_pairs
from heron_pipeline.retrieval import ExampleRetriever


@dataclass(frozen=True)
class P:
    id: str
    question: str
    tables: tuple[str, ...]


PAIRS = [
    P("t1", "How many loyalty points were earned per month?", ("marketing.loyalty_transactions",)),
    P("t2", "Which warehouses moved the most stock?", ("inventory.stock_transfers", "inventory.warehouses")),
    P("t3", "How many members does each team have?", ("auth.teams", "auth.team_members")),
]


def test_rank_orders_by_similarity_and_drops_unrelated_pairs() -> None:
    retriever = ExampleRetriever(PAIRS)
    assert [p.id for p in retriever.rank("points earned by loyalty members", k=3)][0] == "t1"
    assert [p.id for p in retriever.rank("stock transfers between warehouses", k=3)] == ["t2"]
    assert retriever.rank("quasar zebra") == []
    assert len(retriever.rank("how many", k=2)) == 2
    with pytest.raises(ValueError, match="k must be"):
        retriever.rank("x", k=0)


def test_the_tables_field_finds_pairs_worded_differently() -> None:
    with_tables = ExampleRetriever(PAIRS)
    without = ExampleRetriever(PAIRS, tables_weight=0.0)
    assert [p.id for p in with_tables.rank("team_members of auth")] == ["t3"]
    assert without.rank("auth") == []


def test_real_training_set() -> None:
    retriever = ExampleRetriever(load_training_pairs())
    top = retriever.rank("For Kestrel Foodservice, how many loyalty members are in each tier?", k=4)
    assert top[0].id == "t034"  # the loyalty-tier example
    assert "t035" in [p.id for p in top]  # the other loyalty example
