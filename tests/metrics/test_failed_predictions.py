"""No score without a right answer (issue 33): a prediction that failed, was rejected or timed out
scores 0 on every metric — EM and table linking included — in its score record and in the standings.

The prediction is the gold SQL itself, so every text-based metric would credit it in full if it
were computed on SQL that never ran (before: EM 1, table recall and precision 1)."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import pytest

from heron_pipeline.harness.aggregate import compute_standings
from heron_pipeline.harness.scorer import StateRun, score_prediction
from heron_pipeline.harness.store import store_scores_in
from heron_pipeline.metrics import Scored, metrics, record_values
from heron_pipeline.predictions.record import PredictionRecord

GOLD = "SELECT c.id, c.email FROM crm.contacts AS c WHERE c.deleted_at IS NULL ORDER BY c.id"
QUESTION = SimpleNamespace(id="q1", gold_sql=GOLD, gold_tables=["crm.contacts"], shape="single",
                           retrieval="named", traps=())
GOLD_ROWS = [(1, "a@x"), (2, "b@x")]
PREDICTION = PredictionRecord("q1", 0, GOLD, retrieved_tables=("crm.contacts",))


class Refused(Exception):
    pass


def _state(seed: int, kind: str | None) -> StateRun:
    """A state where the prediction fails with class ``kind`` (None: it runs and returns gold's rows)."""
    def execute(sql: str):
        if kind is not None:
            raise Refused(kind)
        return SimpleNamespace(rows=list(GOLD_ROWS))
    return StateRun(scale="tiny", seed=seed, execute=execute, classify=lambda exc: str(exc))


#: The record fields of every per-record metric that scores the answer (the diagnosis names the
#: failure instead: its cause is the failure class).
def _scored_fields() -> list[str]:
    return [f.name for m in metrics() if m.record is not None and m.failed is not None for f in m.fields]


def test_every_per_record_metric_says_what_a_failure_scores() -> None:
    assert {m.name for m in metrics() if m.record is not None and m.failed is None} == {"wrong_by_cause"}


def test_the_prediction_scores_in_full_when_it_runs() -> None:
    record = score_prediction("t", QUESTION, PREDICTION, GOLD_ROWS, _state(42, None))
    assert record.correct and record.exact_match
    assert (record.table_recall, record.table_precision, record.soft_f1, record.row_f1) == (1.0, 1.0, 1.0, 1.0)


@pytest.mark.parametrize("kind", ["rejected", "timeout", "limit", "error"])
def test_a_failed_prediction_scores_zero_in_its_record(kind: str) -> None:
    record = score_prediction("t", QUESTION, PREDICTION, GOLD_ROWS, _state(42, kind))
    assert (record.correct, record.error_class) == (False, kind)
    values = record.to_json()
    assert values["exact_match"] is False
    assert (values["table_recall"], values["table_precision"]) == (0.0, 0.0)
    for name in _scored_fields():
        assert values[name] in (0.0, False), name  # 0 wherever defined
    assert values["cause"] == kind


def test_a_prediction_without_sql_scores_zero() -> None:
    no_sql = PredictionRecord("q1", 0, None, error="no SQL", error_class="no_sql", retrieved_tables=("crm.contacts",))
    values = record_values(Scored(QUESTION, no_sql, GOLD_ROWS, None, False, "no_sql"))
    assert all(values[name] in (0.0, False) for name in _scored_fields())


def test_an_undefined_figure_stays_undefined() -> None:
    """A tool that reports no retrieval and a question without gold tables: None, not 0 (not exposed)."""
    bare = PredictionRecord("q1", 0, GOLD)
    question = SimpleNamespace(**{**vars(QUESTION), "gold_tables": []})
    values = record_values(Scored(question, bare, GOLD_ROWS, None, False, "timeout"))
    assert values["recall_10"] is None and values["table_recall"] is None and values["exact_match"] is False


def test_a_failure_on_one_state_zeroes_the_aggregate(tmp_path: Path) -> None:
    """Ran on seed 42, timed out on 43 (and rejected everywhere for a second tool): the standings'
    EM, table linking, Set-Recall and partial credit give the failure nothing."""
    paths = []
    for tool, kinds in (("flaky", {42: None, 43: "timeout"}), ("refused", {42: "rejected", 43: "rejected"}),
                        ("fine", {42: None, 43: None})):
        for seed, kind in kinds.items():
            record = score_prediction(tool, QUESTION, PREDICTION, GOLD_ROWS, _state(seed, kind))
            paths.append(store_scores_in(tmp_path / f"{tool}_{seed}", [record])[0])
    tools = {t["tool"]: t for t in compute_standings(paths, "tiny")["tools"]}
    for name in ("flaky", "refused"):
        t = tools[name]
        assert t["multi_state_ex1"] == 0.0 and t["exact_match"] == 0.0, name
        assert t["table_recall"] == 0.0 and t["table_precision"] == 0.0, name
        assert t["set_recall"]["@10"] == 0.0, name
    assert tools["flaky"]["soft_f1"] == 50.0 and tools["refused"]["soft_f1"] == 0.0  # mean over (question, state)
    fine = tools["fine"]
    assert (fine["exact_match"], fine["table_recall"], fine["table_precision"], fine["set_recall"]["@10"]) == (
        100.0, 100.0, 100.0, 100.0)
