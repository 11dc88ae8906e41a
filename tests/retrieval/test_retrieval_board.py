"""The retrieval board: hand-checked Set-Recall figures, and its place in the leaderboard files."""

from __future__ import annotations

import json

import pytest

from heron_pipeline.harness.retrieval_board import retrieval_standings
from heron_pipeline.leaderboard import write_leaderboard
from heron_pipeline.predictions.record import PredictionRecord
from heron_pipeline.questions.model import Question, Retrieval, Shape


def _q(qid: str, tables: tuple[str, ...], bucket: Retrieval) -> Question:
    return Question(id=qid, question=f"text of {qid}", gold_sql="SELECT 1", gold_tables=tables, shape=Shape.SINGLE,
                    retrieval=bucket, traps=(), source="test.yaml")


QUESTIONS = [
    _q("q1", ("a.x", "a.y"), Retrieval.NAMED),
    _q("q2", ("b.z",), Retrieval.ONE_HOP),
    _q("q3", ("a.x", "b.z", "c.w"), Retrieval.ONE_HOP),
]
FILL = [f"f.t{i}" for i in range(30)]


def _r(qid: str, tables: list[str], sample: int = 0, error: str | None = None) -> PredictionRecord:
    return PredictionRecord(qid, sample, None, retrieved_tables=tuple(tables), error=error)


PREDICTIONS = {
    # q1: a.x at rank 1, a.y at rank 7; q2: an error; q3: c.w at 1, a.x at 21, b.z never
    "t": [_r("q1", ["a.x", *FILL[:5], "a.y"]), _r("q2", [], error="boom"), _r("q2", ["b.z"], sample=1),
          _r("q3", ["c.w", *FILL[:19], "a.x"])],
    # perfect on q1 and q2, no record for q3
    "u": [_r("q1", ["a.y", "a.x", "a.y"]), _r("q2", ["B.Z"])],
}


def test_figures_match_the_hand_computed_means() -> None:
    board = retrieval_standings(PREDICTIONS, QUESTIONS, conditions={"t": {"model": "offline:t"}}, scale="tiny")
    assert [row["tool"] for row in board] == ["u", "t"]  # ranked by @10
    u, t = board
    assert t["questions"] == 3 and t["errors"] == 1
    assert t["set_recall"] == pytest.approx({"@5": 100 * (0.5 + 0 + 1 / 3) / 3, "@10": 100 * (1 + 0 + 1 / 3) / 3,
                                             "@20": 100 * (1 + 0 + 1 / 3) / 3, "@all": 100 * (1 + 0 + 2 / 3) / 3})
    assert t["by_bucket"]["named"] == pytest.approx({"questions": 1, "@5": 50.0, "@10": 100.0, "@20": 100.0,
                                                     "@all": 100.0})
    assert t["by_bucket"]["1-hop"] == pytest.approx({"questions": 2, "@5": 100 / 6, "@10": 100 / 6, "@20": 100 / 6,
                                                     "@all": 100 / 3})
    assert u["set_recall"]["@10"] == pytest.approx(200 / 3)  # a missing question counts 0
    assert u["errors"] == 0
    assert t["conditions"] == {"model": "offline:t", "question_mode": "full", "scale": "tiny"}
    assert u["conditions"] == {"question_mode": "full", "scale": "tiny"}


def test_no_questions_is_an_error() -> None:
    with pytest.raises(ValueError, match="at least one question"):
        retrieval_standings(PREDICTIONS, [])


def test_the_board_is_written_under_its_own_key_and_table(tmp_path) -> None:
    board = retrieval_standings(PREDICTIONS, QUESTIONS, question_mode="natural")
    files = write_leaderboard([], tmp_path, retrieval=board)
    doc = json.loads(files["json"].read_text())
    assert doc["standings"] == [] and [row["tool"] for row in doc["retrieval"]] == ["u", "t"]
    assert doc["retrieval"][1]["set_recall"]["@10"] == pytest.approx(400 / 9)
    md = files["md"].read_text()
    assert "## Retrieval board" in md
    line = next(l for l in md.splitlines() if l.startswith("| t |"))
    assert line.split(" | ")[1:8] == ["natural", "3", "1", "27.8", "44.4", "44.4", "55.6"]
    assert "16.7 (n=2)" in line and "100.0 (n=1)" in line
    assert "t" not in files["csv"].read_text().splitlines()[1:]  # not an EX row


def test_without_a_retrieval_board_the_files_are_as_before(tmp_path) -> None:
    files = write_leaderboard([], tmp_path)
    assert "retrieval" not in json.loads(files["json"].read_text())
    assert "Retrieval board" not in files["md"].read_text()
