"""The offline retrievers as tools: registered names, records without SQL, ranked tables, modes."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from heron_pipeline.adapters import PredictionContext, adapter_names, create_adapter
from heron_pipeline.catalog import load_catalog
from heron_pipeline.retrieval import TableRetriever, expand_with_join_paths


@dataclass(frozen=True)
class Q:
    id: str
    question: str
    natural: str | None = None


QUESTION = Q("t1", "For Halyard Outfitters, how many order lines per product title were placed in 2025?",
             natural="Halyard Outfitters: units sold per product last year")


@pytest.fixture(scope="module")
def context() -> PredictionContext:
    return PredictionContext(scale="tiny", n=2, catalog=load_catalog())


def test_both_are_registered_as_retrieval_tools() -> None:
    assert {"bm25", "bm25-fk"} <= set(adapter_names())
    for name in ("bm25", "bm25-fk"):
        adapter = create_adapter(name)
        assert adapter.name == name and adapter.kind == "retrieval"
        assert adapter.conditions()["fk_expansion"] == (name == "bm25-fk")


def test_records_have_no_sql_and_the_ranked_tables(context: PredictionContext) -> None:
    retriever = TableRetriever(context.catalog)
    ranked = retriever.rank(QUESTION.question)
    plain = create_adapter("bm25").predict(QUESTION, context)
    fk = create_adapter("bm25-fk").predict(QUESTION, context)
    assert [r.sample for r in plain] == [0, 1]
    for record in (*plain, *fk):
        assert record.sql is None and record.error is None and record.question_id == "t1"
    assert plain[0].retrieved_tables == tuple(ranked[:20])
    assert fk[0].retrieved_tables == tuple(expand_with_join_paths(ranked, context.catalog, limit=20))
    assert plain[0].retrieved_tables[1] == "tenancy.tenants"  # value-linked after the best lexical match
    assert "orders.order_lines" in plain[0].retrieved_tables[:3]


def test_depth_bounds_the_list(context: PredictionContext) -> None:
    records = create_adapter("bm25", depth=3).predict(QUESTION, context)
    assert len(records[0].retrieved_tables) == 3
    with pytest.raises(ValueError, match="depth"):
        create_adapter("bm25", depth=0)


def test_natural_mode_uses_the_natural_text_and_a_missing_one_is_an_error(context: PredictionContext) -> None:
    natural = PredictionContext(scale="tiny", n=1, catalog=context.catalog, options={"question_mode": "natural"})
    adapter = create_adapter("bm25")
    [record] = adapter.predict(QUESTION, natural)
    assert record.retrieved_tables == tuple(TableRetriever(context.catalog).rank(QUESTION.natural)[:20])
    [missing] = adapter.predict(Q("t2", "text"), natural)
    assert missing.retrieved_tables == () and missing.error == "question t2 has no natural text"
    bad = PredictionContext(scale="tiny", n=1, catalog=context.catalog, options={"question_mode": "poetic"})
    [wrong] = adapter.predict(QUESTION, bad)
    assert "unknown question mode" in wrong.error


def test_predictions_are_deterministic(context: PredictionContext) -> None:
    first = [r.to_json() for r in create_adapter("bm25-fk").predict(QUESTION, context)]
    second = [r.to_json() for r in create_adapter("bm25-fk").predict(QUESTION, context)]
    assert first == second and first[0]["latency_s"] is None
