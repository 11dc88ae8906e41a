"""The adapter registry, the reference tools and SQL extraction from model replies."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from heron_pipeline.adapters import AltAdapter, GoldAdapter, PredictionContext, adapter_names, create_adapter, register
from heron_pipeline.adapters.extract import NoSQLFound, extract_sql
from heron_pipeline.adapters.registry import _REGISTRY
from heron_pipeline.artifacts import ArtifactLayout, write_jsonl_artifact
from heron_pipeline.predictions.make import load_predictions, make_predictions
from heron_pipeline.predictions.record import PredictionRecord

Q = SimpleNamespace(id="q1", question="?", gold_sql="SELECT 1 AS a", alt_sql="SELECT 2 - 1 AS a",
                    gold_tables=("tenancy.tenants",))


def test_builtin_adapters_are_registered() -> None:
    assert {"gold", "alt", "raw-llm", "cli"} <= set(adapter_names())
    assert "llm" not in adapter_names()  # an alias, not a second tool
    assert isinstance(create_adapter("gold"), GoldAdapter)
    assert isinstance(create_adapter("alt"), AltAdapter)


def test_unknown_and_duplicate_names_are_errors() -> None:
    with pytest.raises(ValueError, match="unknown tool 'nope'; known: "):
        create_adapter("nope")
    with pytest.raises(ValueError, match="already registered"):
        register("gold", GoldAdapter)
    with pytest.raises(ValueError, match="already registered"):
        register("llm", GoldAdapter)  # an alias is taken too
    with pytest.raises(ValueError, match="alphanumeric"):
        register("bad name", GoldAdapter)


def test_a_registered_factory_is_created_with_its_options() -> None:
    class Echo:
        name = "echo"

        def __init__(self, sql: str):
            self.sql = sql

        def predict(self, question, context):
            return [PredictionRecord(question.id, i, self.sql) for i in range(context.n)]

        def conditions(self):
            return {"model": "echo", "temperature": None}

    register("echo-test", Echo)
    try:
        assert create_adapter("echo-test", sql="SELECT 3").predict(Q, PredictionContext("tiny"))[0].sql == "SELECT 3"
    finally:
        _REGISTRY.pop("echo-test")


def test_reference_tools_return_gold_and_alt_for_every_sample() -> None:
    ctx = PredictionContext("tiny", n=3)
    gold = GoldAdapter().predict(Q, ctx)
    alt = AltAdapter().predict(Q, ctx)
    assert [r.sample for r in gold] == [0, 1, 2] and {r.sql for r in gold} == {Q.gold_sql}
    assert {r.sql for r in alt} == {Q.alt_sql} and Q.alt_sql != Q.gold_sql
    assert gold[0].retrieved_tables == ("tenancy.tenants",) and alt[0].retrieved_tables == ()


def test_missing_alt_is_a_failed_prediction_not_a_crash() -> None:
    q = SimpleNamespace(id="q2", question="?", gold_sql="SELECT 1", alt_sql=None, gold_tables=())
    [record] = AltAdapter().predict(q, PredictionContext("tiny"))
    assert record.sql is None and "no alt_sql" in record.error


def test_predictions_round_trip_through_a_content_hashed_artifact(tmp_path) -> None:
    records = make_predictions(GoldAdapter(), [Q], PredictionContext("tiny", n=2))
    folder = ArtifactLayout(tmp_path).predictions("gold", "tiny", "full")
    path, digest = write_jsonl_artifact(folder, (r.to_json() for r in records))
    assert path.name == f"{digest}.jsonl" and path.parent == tmp_path / "predictions" / "gold" / "tiny" / "full"
    assert load_predictions(path) == records
    again, digest_again = write_jsonl_artifact(folder, (r.to_json() for r in records))
    assert (again, digest_again) == (path, digest)


def test_make_predictions_rejects_an_adapter_that_breaks_the_contract() -> None:
    class Short(GoldAdapter):
        def predict(self, question, context):
            return super().predict(question, context)[:1]

    with pytest.raises(ValueError, match="expected 0..1"):
        make_predictions(Short(), [Q], PredictionContext("tiny", n=2))


@pytest.mark.parametrize("reply, sql", [
    ("```sql\nSELECT 1;\n```", "SELECT 1"),
    ("Sure!\n```SQL\nWITH a AS (SELECT 1) SELECT * FROM a\n```\nThis counts rows.", "WITH a AS (SELECT 1) SELECT * FROM a"),
    ("```\nselect x from t\n```", "select x from t"),
    ("```sql\nSELECT 1\n```\nor better:\n```sql\nSELECT 2\n```", "SELECT 2"),
    ("```python\nprint(1)\n```\n```sql\nSELECT 3\n```", "SELECT 3"),
    ("The answer is:\nSELECT a\nFROM t\nWHERE b = 1;\nThat's it.", "SELECT a\nFROM t\nWHERE b = 1"),
    ("SELECT 1", "SELECT 1"),
    ("  (SELECT 1) UNION (SELECT 2);;", "(SELECT 1) UNION (SELECT 2)"),
])
def test_extract_sql(reply: str, sql: str) -> None:
    assert extract_sql(reply) == sql


@pytest.mark.parametrize("reply", ["", "   ", None, "I cannot answer that.", "```python\nprint(1)\n```"])
def test_extract_sql_refuses_replies_without_sql(reply) -> None:
    with pytest.raises(NoSQLFound):
        extract_sql(reply)
