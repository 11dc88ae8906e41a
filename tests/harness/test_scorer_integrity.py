"""No score without a right answer (issue 33), where the comparator's verdict becomes a score: a
prediction that reads no table of the database is wrong (``reads-no-data``) whatever its rows, a
comparison that overruns the comparator's work budget is wrong and named (``comparator-budget``),
and a prediction wider than gold is wrong in both question modes (one width rule)."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from heron_pipeline.harness.scorer import COMPARATOR_BUDGET, READS_NO_DATA, StateRun, reads_data, score_state
from heron_pipeline.harness.state_run import classify_failure
from heron_pipeline.predictions.record import PredictionRecord
from heron_pipeline.questions import QUESTIONS_DIR, load_questions
from heron_pipeline.results import Column, ResultSet


def _question(gold_sql: str, qid: str = "q1") -> SimpleNamespace:
    return SimpleNamespace(id=qid, gold_sql=gold_sql, gold_tables=("tenancy.tenants",), shape="single",
                           retrieval="named", traps=())


def _score(pred_sql: str, gold_sql: str, gold_rows: list[tuple], pred_rows: list[tuple]):
    width = len(pred_rows[0]) if pred_rows else 1
    run = StateRun("tiny", 42, classify=classify_failure,
                   execute=lambda sql: ResultSet(tuple(Column(f"c{j}", "integer") for j in range(width)), pred_rows))
    [record] = score_state("t", [_question(gold_sql)], [PredictionRecord("q1", 0, pred_sql)], {"q1": gold_rows}, run)
    return record


EMPTY_PROBE = "SELECT t.id FROM tenancy.tenants t WHERE t.deleted_at > now() + interval '100 years'"
ONE_ROW = "SELECT count(*) FROM tenancy.tenants t WHERE t.deleted_at IS NULL"


@pytest.mark.parametrize(("pred_sql", "gold_sql", "gold_rows", "pred_rows"), [
    ("SELECT 1 WHERE false", EMPTY_PROBE, [], []),
    ("SELECT 3", ONE_ROW, [(3,)], [(3,)]),
    ("SELECT 0,0,0,1,1,1,2,2,2,3,3,3", ONE_ROW, [(3,)], [(0, 0, 0, 1, 1, 1, 2, 2, 2, 3, 3, 3)]),
    ("SELECT 3 FROM (VALUES (1)) v(x)", ONE_ROW, [(3,)], [(3,)]),
    ("SELECT n FROM generate_series(3, 3) n", ONE_ROW, [(3,)], [(3,)]),
    ("WITH tenants AS (SELECT 3 AS n) SELECT n FROM tenants", ONE_ROW, [(3,)], [(3,)]),
    ("SELECT 3 FROM pg_class LIMIT 1", ONE_ROW, [(3,)], [(3,)]),
    ("SELECT 3 FROM pg_catalog.pg_class LIMIT 1", ONE_ROW, [(3,)], [(3,)]),
], ids=["empty probe, nothing read", "a constant row", "an enumeration of constants", "VALUES", "a set function",
        "a CTE named like a table", "the catalog, unqualified", "the catalog, qualified"])
def test_a_prediction_that_reads_no_data_is_wrong_and_named(pred_sql, gold_sql, gold_rows, pred_rows) -> None:
    record = _score(pred_sql, gold_sql, gold_rows, pred_rows)
    assert not record.correct
    assert record.error_class == READS_NO_DATA == "reads-no-data"
    assert record.cause == READS_NO_DATA  # what heron explain and the reports show
    assert record.pred_row_count == len(pred_rows)


@pytest.mark.parametrize("pred_sql", [
    ONE_ROW,
    "SELECT (SELECT count(*) FROM tenancy.tenants t WHERE t.deleted_at IS NULL)",
    "WITH live AS (SELECT * FROM tenancy.tenants WHERE deleted_at IS NULL) SELECT count(*) FROM live",
    "SELECT 3 WHERE EXISTS (SELECT 1 FROM tenancy.tenants)",
])
def test_a_prediction_that_reads_a_schema_table_is_judged_by_the_comparator(pred_sql) -> None:
    record = _score(pred_sql, ONE_ROW, [(3,)], [(3,)])
    assert record.correct and record.error_class is None and record.cause is None
    assert not _score(pred_sql, ONE_ROW, [(3,)], [(4,)]).correct


def test_unparseable_sql_is_left_to_the_comparator() -> None:
    assert reads_data("SELEC 3 FRM") is None and reads_data(None) is None


def test_every_gold_reads_data() -> None:
    """The rule never touches a gold: every gold (and alternative) SQL reads a table of the schema."""
    questions = load_questions(QUESTIONS_DIR)
    assert len(questions) >= 100
    for q in questions:
        for sql in (q.gold_sql, q.alt_sql):
            if sql is not None:
                assert reads_data(sql) is True, q.id


def test_a_wider_prediction_is_wrong_whatever_the_question_mode() -> None:
    """One width rule: the natural-mode containment rule (``extra_columns``) is gone from the scorer."""
    record = _score("SELECT t.id, count(*) FROM tenancy.tenants t GROUP BY t.id", ONE_ROW, [(3,)], [(7, 3)])
    assert not record.correct and record.error_class is None and record.cause == "shape"
    with pytest.raises(TypeError):
        score_state("t", [], [], {}, StateRun("tiny", 42, execute=print, classify=classify_failure),
                    extra_columns=True)  # type: ignore[call-arg]


def test_a_comparison_past_the_budget_is_wrong_and_named_never_raised() -> None:
    bits = 9  # every column and pair of columns alike, rows not: 362,880 candidate mappings
    gold = [tuple((x >> b) & 1 for b in range(bits)) for x in range(1 << bits)]
    pred = [r[:-1] + (sum(r[:-1]) % 2,) for r in gold]
    gold_sql = "SELECT " + ", ".join(f"t.b{j}" for j in range(bits)) + " FROM tenancy.tenants t"
    record = _score(gold_sql, gold_sql, gold, pred)
    assert not record.correct
    assert record.error_class == COMPARATOR_BUDGET == "comparator-budget"
    assert record.cause == COMPARATOR_BUDGET
