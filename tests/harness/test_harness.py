"""Scoring one state: every prediction is executed in the sandbox; wrong and hostile ones score 0."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from heron_pipeline.artifacts.ref import read_jsonl
from heron_pipeline.harness.scorer import StateRun, score_state
from heron_pipeline.harness.state_run import classify_failure, state_run
from heron_pipeline.harness.store import store_scores_in
from heron_pipeline.predictions.record import PredictionRecord
from heron_pipeline.questions.model import Question, Retrieval, Shape, Trap
from heron_pipeline.results import Column, ResultSet, execute_readonly
from heron_pipeline.sandbox.errors import ExecutionError, SandboxUnavailable
from heron_pipeline.sandbox.limits import Limits


def question(qid: str, gold_sql: str, *, shape=Shape.SINGLE, traps=(Trap.SOFT_DELETE,)) -> Question:
    return Question(id=qid, question="…", gold_sql=gold_sql, gold_tables=("tenancy.tenants",), shape=shape,
                    retrieval=Retrieval.NAMED, traps=traps, source="test.yaml")


QUESTIONS = [
    question("q_count", "SELECT count(*) AS n FROM tenancy.tenants WHERE deleted_at IS NULL"),
    question("q_order", "SELECT id, name FROM tenancy.tenants WHERE deleted_at IS NULL ORDER BY id"),
    question("q_hostile", "SELECT name FROM tenancy.tenants WHERE deleted_at IS NULL"),
    question("q_sleep", "SELECT 1 AS one"),
    question("q_syntax", "SELECT 2 AS two"),
    question("q_missing", "SELECT 3 AS three"),
]

PREDICTIONS = [
    # gold text verbatim, and a genuinely different equivalent (columns permuted, alias, other filter form)
    PredictionRecord("q_count", 0, "SELECT count(t.id) FROM tenancy.tenants t WHERE NOT (t.deleted_at IS NOT NULL)",
                     retrieved_tables=("tenancy.tenants", "crm.accounts")),
    PredictionRecord("q_order", 0, "SELECT name, id FROM tenancy.tenants WHERE deleted_at IS NULL ORDER BY id"),
    PredictionRecord("q_order", 1, "SELECT id, name FROM tenancy.tenants WHERE deleted_at IS NULL ORDER BY id DESC"),
    PredictionRecord("q_hostile", 0, "DROP TABLE tenancy.tenants"),
    PredictionRecord("q_sleep", 0, "SELECT 1 AS one FROM pg_sleep(3)"),
    PredictionRecord("q_syntax", 0, "SELEC 2"),
]


@pytest.fixture(scope="module")
def gold(tiny42):
    with tiny42.connect("heron_tiny_42", autocommit=False) as conn:
        return {q.id: list(execute_readonly(conn, q.gold_sql).rows) for q in QUESTIONS}


@pytest.fixture(scope="module")
def scored(tiny42, gold):
    run = state_run(tiny42, "tiny", 42, limits=Limits(statement_timeout_s=1.0))
    records = score_state("t", QUESTIONS, PREDICTIONS, gold, run)
    return {(r.question_id, r.sample): r for r in records}


def test_right_predictions_score_one(scored) -> None:
    count = scored[("q_count", 0)]
    assert count.correct and count.error_class is None and count.soft_f1 == 1.0 and count.row_f1 == 1.0
    assert count.recall_all == 1.0 and count.recall_5 == 1.0
    assert scored[("q_order", 0)].correct  # columns permuted, rows in the gold's order


def test_wrong_order_scores_zero_but_keeps_partial_credit(scored) -> None:
    wrong = scored[("q_order", 1)]
    assert not wrong.correct and wrong.error_class is None
    assert wrong.row_f1 == 1.0  # same rows as a multiset …
    assert wrong.soft_f1 < 1.0  # … but Soft-F1 pairs rows by position


def test_hostile_sql_is_rejected_and_scores_zero(scored, tiny42) -> None:
    hostile = scored[("q_hostile", 0)]
    assert not hostile.correct and hostile.error_class == "rejected" and hostile.soft_f1 == 0.0
    with tiny42.connect("heron_tiny_42") as conn:
        assert conn.execute("SELECT count(*) FROM tenancy.tenants").fetchone()[0] > 0


def test_hostile_sql_with_the_parser_off_still_scores_zero(tiny42, gold) -> None:
    run = state_run(tiny42, "tiny", 42, parser=False)
    preds = [PredictionRecord("q_hostile", 0, "DELETE FROM tenancy.tenants RETURNING name")]
    [record] = score_state("t", QUESTIONS[2:3], preds, gold, run)
    assert not record.correct and record.error_class in ("rejected", "error")
    with tiny42.connect("heron_tiny_42") as conn:
        assert conn.execute("SELECT count(*) FROM tenancy.tenants").fetchone()[0] > 0


def test_sleep_syntax_error_and_missing_prediction_are_classified(scored) -> None:
    assert scored[("q_sleep", 0)].error_class in ("rejected", "timeout")
    assert scored[("q_syntax", 0)].error_class in ("rejected", "error")
    missing = scored[("q_missing", 0)]
    assert missing.error_class == "no_sql" and not missing.correct


def test_scores_artifact_is_content_hashed(scored, tmp_path) -> None:
    records = list(scored.values())
    path, digest = store_scores_in(tmp_path / "t", records)
    assert path.parent == tmp_path / "t" and path.stem == digest
    assert store_scores_in(tmp_path / "t", records) == (path, digest)  # same records: the same file
    assert [doc["question_id"] for doc in read_jsonl(path)] == [r.question_id for r in records]


def test_ves_timing_is_recorded_for_correct_predictions_only(tiny42, gold) -> None:
    run = state_run(tiny42, "tiny", 42)
    preds = [PREDICTIONS[0], PredictionRecord("q_order", 0, "SELECT 1")]
    records = score_state("t", QUESTIONS[:2], preds, gold, run, time_ves=True)
    timed, untimed = records
    assert timed.correct and timed.gold_time_s > 0 and timed.pred_time_s > 0
    assert not untimed.correct and untimed.gold_time_s is None


# -- pure: no shortcut, unknown failures, missing gold ------------------------------------------------

GOLD_ROWS = {"q1": [(1,)]}
Q1 = SimpleNamespace(id="q1", gold_sql="SELECT 1", gold_tables=("a.b",), shape="single", retrieval="named", traps=())


def _run(execute) -> StateRun:
    return StateRun("tiny", 42, execute=execute, classify=classify_failure)


def test_gold_text_is_executed_not_trusted() -> None:
    calls = []

    def execute(sql):
        calls.append(sql)
        raise ExecutionError("relation does not exist")

    [record] = score_state("gold", [Q1], [PredictionRecord("q1", 0, "SELECT 1")], GOLD_ROWS, _run(execute))
    assert calls == ["SELECT 1"] and not record.correct and record.error_class == "error"
    [record] = score_state("gold", [Q1], [PredictionRecord("q1", 0, "SELECT 1")], GOLD_ROWS,
                           _run(lambda sql: ResultSet((Column("x", "integer"),), [(2,)])))
    assert not record.correct  # same text as the gold, different rows: wrong


def test_sandbox_unavailable_stops_the_run() -> None:
    def execute(sql):
        raise SandboxUnavailable("server down")

    with pytest.raises(SandboxUnavailable):
        score_state("t", [Q1], [PredictionRecord("q1", 0, "SELECT 1")], GOLD_ROWS, _run(execute))


def test_prediction_for_unknown_question_and_missing_gold_are_errors() -> None:
    ok = _run(lambda sql: ResultSet((Column("x", "integer"),), [(1,)]))
    with pytest.raises(ValueError, match="unknown question"):
        score_state("t", [Q1], [PredictionRecord("q9", 0, "SELECT 1")], GOLD_ROWS, ok)
    with pytest.raises(ValueError, match="no gold result"):
        score_state("t", [Q1], [], {}, ok)


# -- Soft-F1 does not follow the query plan (issue 11, item 5) ----------------------------------------

PLAN_QUESTIONS = [
    question("q_plain", "SELECT id, name, status FROM tenancy.tenants WHERE deleted_at IS NULL"),
    question("q_ties", "SELECT status, name FROM tenancy.tenants WHERE deleted_at IS NULL ORDER BY status"),
]
PLAN_PREDICTIONS = [
    # partly right (every fifth tenant missing), columns permuted, in an order the prediction fixes itself
    PredictionRecord("q_plain", 0, "SELECT status, name, id FROM tenancy.tenants "
                                   "WHERE deleted_at IS NULL AND id % 5 <> 0 ORDER BY signed_up_at, id"),
    PredictionRecord("q_ties", 0, "SELECT name, status FROM tenancy.tenants WHERE id % 5 <> 0 ORDER BY status, id"),
]


@pytest.fixture
def tiny_clone(tiny42):
    """A copy of heron_tiny_42 as heron_tiny_4242, free to be physically rewritten; dropped after."""
    from psycopg import sql as pgsql

    name = "heron_tiny_4242"
    with tiny42.connect() as admin:
        admin.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = 'heron_tiny_42'")
        admin.execute(pgsql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(pgsql.Identifier(name)))
        admin.execute(pgsql.SQL("CREATE DATABASE {} TEMPLATE heron_tiny_42").format(pgsql.Identifier(name)))
    yield tiny42, 4242
    tiny42.drop_database(name)


def _score_plan_state(server, seed, tmp_path):
    from collections import Counter

    from heron_pipeline.harness.aggregate import compute_standings

    with server.connect(f"heron_tiny_{seed}", autocommit=False) as conn:
        gold = {q.id: list(execute_readonly(conn, q.gold_sql).rows) for q in PLAN_QUESTIONS}
    run = state_run(server, "tiny", seed)
    records = score_state("t", PLAN_QUESTIONS, PLAN_PREDICTIONS, gold, run)
    path, _ = store_scores_in(tmp_path / f"t_{seed}", records)
    standings = compute_standings([path], "tiny")
    return gold, {r.question_id: r.soft_f1 for r in records}, standings, Counter(map(tuple, gold["q_plain"]))


def test_soft_f1_and_standings_survive_vacuum_and_a_physical_reorder(tiny_clone, tmp_path) -> None:
    server, seed = tiny_clone
    gold_before, soft_before, standings_before, plain_before = _score_plan_state(server, seed, tmp_path / "a")
    with server.connect(f"heron_tiny_{seed}") as admin:
        # Same data, other physical order: what VACUUM, ANALYZE and autovacuum may do to a plan
        admin.execute("CLUSTER tenancy.tenants USING tenants_signed_up_at_idx")
        admin.execute("VACUUM ANALYZE")
    gold_after, soft_after, standings_after, plain_after = _score_plan_state(server, seed, tmp_path / "b")
    assert plain_after == plain_before  # the same rows …
    assert gold_after["q_plain"] != gold_before["q_plain"]  # … fetched in another order (the test has teeth)
    assert gold_after["q_ties"] != gold_before["q_ties"]
    assert 0 < soft_before["q_plain"] < 1 and 0 < soft_before["q_ties"] < 1
    assert soft_after == soft_before
    assert standings_after == standings_before


def test_one_width_rule_in_every_question_mode() -> None:
    """Issue 33: the natural-mode containment rule is gone; a wider prediction is wrong, and a
    prediction that reads no table is wrong whatever its rows (``reads-no-data``)."""
    sql = "SELECT 'extra', count(*) FROM tenancy.tenants"
    wide = _run(lambda sql: ResultSet((Column("x", "text"), Column("y", "integer")), [("extra", 1)]))
    [record] = score_state("t", [Q1], [PredictionRecord("q1", 0, sql)], GOLD_ROWS, wide)
    assert not record.correct and record.error_class is None
    with pytest.raises(TypeError):
        score_state("t", [Q1], [PredictionRecord("q1", 0, sql)], GOLD_ROWS, wide, extra_columns=True)
    narrow = _run(lambda sql: ResultSet((Column("y", "integer"),), [(1,)]))
    [record] = score_state("t", [Q1], [PredictionRecord("q1", 0, "SELECT count(*) FROM tenancy.tenants")],
                           GOLD_ROWS, narrow)
    assert record.correct
    [record] = score_state("t", [Q1], [PredictionRecord("q1", 0, "SELECT 1")], GOLD_ROWS, narrow)
    assert not record.correct and record.error_class == "reads-no-data"
