"""Causes on a real state: known-wrong SQL on tiny 42 scored, aggregated, published and explained."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml

from heron_pipeline.artifacts import ArtifactLayout, write_document
from heron_pipeline.cli import main
from heron_pipeline.harness.aggregate import compute_standings
from heron_pipeline.harness.state_run import state_run
from heron_pipeline.harness.scorer import score_state
from heron_pipeline.harness.store import store_scores_in
from heron_pipeline.artifacts import write_jsonl_artifact
from heron_pipeline.leaderboard.write import render_leaderboard
from heron_pipeline.metrics import html_cells
from heron_pipeline.predictions.record import PredictionRecord
from heron_pipeline.questions import load_questions

ACTIVE_ACCOUNTS = "SELECT a.id, a.name FROM crm.accounts AS a WHERE a.deleted_at IS NULL"
QUESTIONS = [
    {"id": "q_soft", "question": "Which accounts are there (not deleted)? Id and name.",
     "gold_sql": ACTIVE_ACCOUNTS, "gold_tables": ["crm.accounts"]},
    {"id": "q_table", "question": "How many refunds are there?", "gold_sql": "SELECT count(*) AS n FROM billing.refunds",
     "gold_tables": ["billing.refunds"]},
    {"id": "q_shape", "question": "Accounts (not deleted), id and name, by id.", "gold_sql": ACTIVE_ACCOUNTS + " ORDER BY a.id",
     "gold_tables": ["crm.accounts"]},
    {"id": "q_syntax", "question": "How many contacts?", "gold_sql": "SELECT count(*) AS n FROM crm.contacts",
     "gold_tables": ["crm.contacts"]},
    {"id": "q_parse", "question": "How many leads?", "gold_sql": "SELECT count(*) AS n FROM crm.leads",
     "gold_tables": ["crm.leads"]},
    {"id": "q_right", "question": "How many contacts (not deleted)?",
     "gold_sql": "SELECT count(*) AS n FROM crm.contacts WHERE deleted_at IS NULL", "gold_tables": ["crm.contacts"]},
]
WRONG = {
    "q_soft": "SELECT a.id, a.name FROM crm.accounts AS a",  # soft-delete filter removed
    "q_table": "SELECT count(*) AS n FROM billing.payments",  # a plausible wrong table
    "q_shape": "SELECT a.id FROM crm.accounts AS a WHERE a.deleted_at IS NULL ORDER BY a.id",  # a column too few
    "q_syntax": "SELECT count(c.nope) FROM crm.contacts c",  # PostgreSQL refuses it: error
    "q_parse": "SELEC count(*) FROM crm.leads",  # the sandbox's parser refuses a syntax error: rejected
    "q_right": "SELECT count(c.id) AS n FROM crm.contacts c WHERE c.deleted_at IS NULL",
}


@pytest.fixture(scope="module")
def world(tiny42, tmp_path_factory):
    root = tmp_path_factory.mktemp("diagnosis")
    qdir = root / "questions"
    qdir.mkdir()
    (qdir / "01_test.yaml").write_text(yaml.safe_dump(
        [{**q, "shape": "single", "retrieval": "named", "traps": ["soft-delete"]} for q in QUESTIONS]))
    questions = load_questions(qdir)
    artifacts = root / "artifacts"
    layout = ArtifactLayout(artifacts)
    run = state_run(tiny42, "tiny", 42)
    gold = {q.id: list(run.run_gold(q.gold_sql).rows) for q in questions}
    predictions = [PredictionRecord(qid, 0, sql) for qid, sql in WRONG.items()]
    records = score_state("wrong", questions, predictions, gold, run)
    path, digest = store_scores_in(layout.scores("wrong", "tiny", 42, "full"), records)
    pred_path, pred_digest = write_jsonl_artifact(layout.predictions("wrong", "tiny", "full"),
                                                  [p.to_json() for p in predictions])
    # what bench.run.write_manifest records (the fields explain reads)
    write_document(layout.runs(), {
        "kind": "heron-run", "finished_at": "2026-12-02T00:00:00+00:00",
        "options": {"scale": "tiny", "seeds": [42], "question_mode": "full"},
        "questions": {"dir": str(qdir), "digest": "-"},
        "predictions": [{"tool": "wrong", "predictions": {"path": str(pred_path), "digest": pred_digest}}],
        "scores": [{"tool": "wrong", "seed": 42, "status": "scored", "scores": {"path": str(path), "digest": digest}}],
    })
    standings = compute_standings([path], "tiny")
    return {"records": {r.question_id: r for r in records}, "standings": standings, "artifacts": artifacts,
            "server": tiny42}


def test_each_known_wrong_prediction_gets_its_cause(world, tiny42) -> None:
    r = world["records"]
    with tiny42.connect("heron_tiny_42") as conn:
        deleted = conn.execute("SELECT count(*) FROM crm.accounts WHERE deleted_at IS NOT NULL").fetchone()[0]
    assert deleted > 0
    soft = r["q_soft"]
    assert (soft.cause, soft.rows_missing, soft.rows_extra) == ("values", 0, deleted)  # until trap attribution
    table = r["q_table"]
    assert (table.cause, table.missing_tables, table.extra_tables) == ("schema-linking", ["billing.refunds"],
                                                                      ["billing.payments"])
    assert (r["q_shape"].cause, r["q_shape"].cause_detail) == ("shape", "1 columns, gold has 2")
    assert (r["q_syntax"].cause, r["q_syntax"].error_class) == ("error", "error")
    assert (r["q_parse"].cause, r["q_parse"].error_class) == ("rejected", "rejected")
    right = r["q_right"]
    assert right.correct and right.cause is None and right.rows_missing is None


def test_table_linking_per_prediction_and_per_tool(world) -> None:
    r = world["records"]
    assert (r["q_table"].table_recall, r["q_table"].table_precision) == (0.0, 0.0)
    assert (r["q_soft"].table_recall, r["q_soft"].table_precision) == (1.0, 1.0)
    assert (r["q_syntax"].table_recall, r["q_syntax"].table_precision) == (1.0, 1.0)  # right table, bad column
    assert (r["q_parse"].table_recall, r["q_parse"].table_precision) == (None, None)  # sqlglot cannot parse it
    tool = world["standings"]["tools"][0]  # q_table 0, the four others 1
    assert tool["table_recall"] == pytest.approx(80.0) and tool["table_precision"] == pytest.approx(80.0)


def test_causes_add_up_to_the_wrong_questions(world) -> None:
    tool = world["standings"]["tools"][0]
    assert tool["wrong_by_cause"] == {"error": 1, "rejected": 1, "schema-linking": 1, "shape": 1, "values": 1}
    wrong = round(tool["questions"] * (1 - tool["multi_state_ex1"] / 100))
    assert sum(tool["wrong_by_cause"].values()) == wrong == 5


def test_the_board_shows_them(world) -> None:
    board = {**world["standings"], "question_mode": "full"}
    files = render_leaderboard([board])
    header, row = files["csv"].splitlines()[:2]
    fields = dict(zip(header.split(","), row.split(",")))
    assert fields["wrong_by_cause"] == "error:1;rejected:1;schema-linking:1;shape:1;values:1"
    assert fields["table_recall"] == "80.0" and fields["table_precision"] == "80.0"
    assert "| error:1;rejected:1;schema-linking:1;shape:1;values:1 |" in files["md"]
    assert json.loads(files["json"])["standings"][0]["tools"][0]["wrong_by_cause"]["values"] == 1
    cell = next(c for c in html_cells() if c.title(board) == "wrong by cause")
    html = cell.render(world["standings"]["tools"][0], board)
    assert html.count("<span ") == 5 and 'style="width:20.0%;background:#d95f02"' in html and 'data-sort="5"' in html


def _explain(world, monkeypatch, capsys, *argv: str) -> tuple[int, str, str]:
    settings = world["server"].settings
    monkeypatch.setenv("HERON_DATA_DIR", str(settings.data_dir))
    monkeypatch.setenv("HERON_PORT", str(settings.port))
    monkeypatch.setenv("HERON_ARTIFACT_DIR", str(world["artifacts"]))
    code = main(["explain", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_explain_shows_the_cause_and_the_rows(world, monkeypatch, capsys) -> None:
    code, out, err = _explain(world, monkeypatch, capsys, "--tool", "wrong", "--question", "q_soft", "--rows", "2")
    assert code == 0, err
    assert "cause: values — 0 rows missing, 35 extra" in out
    assert "rows: 0 in gold only, 35 in the prediction only" in out
    assert "first 2 in the prediction only:" in out and "WHERE a.deleted_at IS NULL" in out
    code, out, _ = _explain(world, monkeypatch, capsys, "--tool", "wrong", "--question", "q_table")
    assert code == 0 and "cause: schema-linking — misses billing.refunds" in out
    assert "tables gold does not read: billing.payments" in out


@pytest.mark.parametrize("argv,code,line", [
    (("--tool", "nobody", "--question", "q_soft"), 2, "--tool nobody: no recorded run of tiny (full) scored it; "
                                                      "they scored wrong"),
    (("--tool", "wrong", "--question", "q_nope"), 2, "--question q_nope: not a question of"),
    (("--tool", "wrong", "--question", "q_soft", "--seed", "43"), 2, "--seed 43: wrong was scored on seeds 42"),
    (("--tool", "wrong", "--question", "q_soft", "--scale", "small"), 1, "not found: no recorded run of small (full)"),
])
def test_explain_names_what_it_did_not_find(world, monkeypatch, capsys, argv, code, line) -> None:
    got, out, err = _explain(world, monkeypatch, capsys, *argv)
    assert (got, out) == (code, "") and line in err and len(err.strip().splitlines()) == 1
