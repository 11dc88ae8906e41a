"""Causes on a real state: known-wrong SQL on tiny 42 scored, aggregated, published and explained.

The wrong SQL comes from the raw-llm tool, its model the scripted OpenAI-compatible server
(tests/llm/fake_openai.py) answering each question with SQL whose cause is known. The gold and the
trap mutant answers are computed by the bench core (``bench.compute_gold``) and read back by
identity, as ``heron bench`` scores with them."""

from __future__ import annotations

import dataclasses
import hashlib
import json
from pathlib import Path

import pytest
import yaml

from heron_pipeline.artifacts import ArtifactLayout, write_document
from heron_pipeline.artifacts import ArtifactMismatch, ArtifactRef
from heron_pipeline.bench import GoldResult, compute_gold, existing_state
from heron_pipeline.diagnosis import trap_cause, trap_label, trap_matches
from heron_pipeline.mutants.answers import read_mutant_answers
from heron_pipeline.cli import main
from heron_pipeline.harness.aggregate import compute_standings
from heron_pipeline.harness.state_run import state_run
from heron_pipeline.harness.scorer import score_state
from heron_pipeline.harness.store import store_scores_in
from heron_pipeline.artifacts import write_jsonl_artifact
from heron_pipeline.leaderboard.write import render_leaderboard
from heron_pipeline.metrics import html_cells
from heron_pipeline.predictions.record import PredictionRecord
from heron_pipeline.questions import QUESTIONS_DIR, load_questions
from heron_pipeline.adapters import PredictionContext
from heron_pipeline.catalog import load_catalog
from heron_pipeline.llm import LLMSettings
from heron_pipeline.predictions.make import PredictOptions, predict_tool
from heron_pipeline.questions.conventions import load_conventions
from tests.llm.fake_openai import FakeOpenAI, Reply

ACTIVE_ACCOUNTS = "SELECT a.id, a.name FROM crm.accounts AS a WHERE a.deleted_at IS NULL"
ONE_TENANT = "tenancy.tenants AS t {join} crm.accounts AS a{on} WHERE t.name = 'Brightwater Medical Supply'"
TRAPS = {"q_tenant": ["tenant-isolation", "soft-delete"]}
QUESTIONS = [
    {"id": "q_tenant", "question": "How many live accounts does Brightwater Medical Supply have?",
     "gold_sql": "SELECT count(*) AS n FROM " + ONE_TENANT.format(join="JOIN", on=" ON a.tenant_id = t.id")
                 + " AND a.deleted_at IS NULL", "gold_tables": ["tenancy.tenants", "crm.accounts"]},
    {"id": "q_values", "question": "How many accounts are live?",
     "gold_sql": "SELECT count(*) AS n FROM crm.accounts WHERE deleted_at IS NULL", "gold_tables": ["crm.accounts"]},
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
    # the tenant condition dropped where it bites (every tenant's accounts counted)
    "q_tenant": "SELECT count(*) AS n FROM " + ONE_TENANT.format(join="CROSS JOIN", on="")
                + " AND a.deleted_at IS NULL",
    "q_values": "SELECT count(*) AS n FROM crm.accounts WHERE deleted_at IS NOT NULL",  # no trap's mutant
    "q_soft": "SELECT a.id, a.name FROM crm.accounts AS a",  # soft-delete filter removed
    "q_table": "SELECT count(*) AS n FROM billing.payments",  # a plausible wrong table, named
    "q_shape": "SELECT a.id FROM crm.accounts AS a WHERE a.deleted_at IS NULL ORDER BY a.id",  # a column too few
    "q_syntax": "SELECT count(c.nope) FROM crm.contacts c",  # PostgreSQL refuses it: error
    "q_parse": "SELECT count(* AS n FROM crm.leads",  # the sandbox's parser refuses a syntax error: rejected
    "q_right": "SELECT count(c.id) AS n FROM crm.contacts c WHERE c.deleted_at IS NULL",
}


def scripted_raw_llm(server, questions, root) -> list[PredictionRecord]:
    """The raw-llm tool's predictions, its model the scripted OpenAI-compatible server answering each
    question (recognised in the prompt) with its known-wrong SQL."""
    def reply(body: dict) -> Reply:
        prompt = body["messages"][-1]["content"]
        [q] = [q for q in questions if " ".join(q.question.split()) in prompt]
        return Reply(content=f"```sql\n{WRONG[q.id]}\n```")

    context = PredictionContext(scale="tiny", catalog=load_catalog(), conventions=load_conventions(QUESTIONS_DIR).text,
                                primary_dsn=server.benchmark_dsn("tiny", 42))
    with FakeOpenAI() as fake:
        fake.responder = reply
        llm = LLMSettings(model="m", base_url=fake.url(), timeout_s=30, max_retries=0)
        made = predict_tool("raw-llm", questions, context, PredictOptions(llm=llm, cache_dir=root / "llm_cache"))
    assert made.status == "complete", made.reason
    return list(made.records)


@pytest.fixture(scope="module")
def world(tiny42, tmp_path_factory):
    root = tmp_path_factory.mktemp("diagnosis")
    qdir = root / "questions"
    qdir.mkdir()
    (qdir / "01_test.yaml").write_text(yaml.safe_dump(
        [{**q, "shape": "single", "retrieval": "named", "traps": TRAPS.get(q["id"], ["soft-delete"])}
         for q in QUESTIONS]))
    questions = load_questions(qdir)
    artifacts = root / "artifacts"
    layout = ArtifactLayout(artifacts)
    run = state_run(tiny42, "tiny", 42)
    state = existing_state(tiny42, artifacts, "tiny", 42)
    gold_result = compute_gold(tiny42, artifacts, state, questions, "-")
    gold = gold_result.rows(questions)
    predictions = scripted_raw_llm(tiny42, questions, root)
    assert [(p.question_id, p.sql) for p in predictions] == [(q.id, WRONG[q.id]) for q in questions]
    records = score_state("wrong", questions, predictions, gold, run, mutant_answers=gold_result.mutant_rows())
    path, digest = store_scores_in(layout.scores("wrong", "tiny", 42, "full"), records)
    pred_path, pred_digest = write_jsonl_artifact(layout.predictions("wrong", "tiny", "full"),
                                                  [p.to_json() for p in predictions])
    # what bench.run.write_manifest records (the fields explain reads)
    write_document(layout.runs(), {
        "kind": "heron-run", "finished_at": "2026-12-02T00:00:00+00:00",
        "options": {"scale": "tiny", "seeds": [42], "question_mode": "full"},
        "questions": {"dir": str(qdir), "digest": "-"},
        "predictions": [{"tool": "wrong", "predictions": {"path": str(pred_path), "digest": pred_digest}}],
        "scores": [{"tool": "wrong", "seed": 42, "status": "scored", "scores": {"path": str(path), "digest": digest},
                    "mutant_answers": gold_result.mutant_answers.to_json()}],
    })
    standings = compute_standings([path], "tiny")
    return {"records": {r.question_id: r for r in records}, "standings": standings, "artifacts": artifacts,
            "server": tiny42, "gold": gold_result, "questions": questions, "predictions": predictions, "run": run}


def test_each_known_wrong_prediction_gets_its_cause(world, tiny42) -> None:
    r = world["records"]
    with tiny42.connect("heron_tiny_42") as conn:
        deleted = conn.execute("SELECT count(*) FROM crm.accounts WHERE deleted_at IS NOT NULL").fetchone()[0]
    assert deleted > 0
    soft = r["q_soft"]
    assert (soft.cause, soft.cause_detail) == ("trap:soft-delete", "equals mutant: drop the soft-delete filter in WHERE")
    assert soft.trap_mutants == ["soft-delete: drop the soft-delete filter in WHERE"] and soft.rows_extra is None
    tenant = r["q_tenant"]
    assert (tenant.cause, tenant.trap_mutants) == ("trap:tenant-isolation",
                                                   ["tenant-isolation: drop the tenant filter in ON of crm.accounts AS a"])
    values = r["q_values"]
    assert (values.cause, values.rows_missing, values.rows_extra, values.trap_mutants) == ("values", 1, 1, [])
    table = r["q_table"]
    assert (table.cause, table.missing_tables, table.extra_tables) == ("schema-linking", ["billing.refunds"],
                                                                      ["billing.payments"])
    assert (r["q_shape"].cause, r["q_shape"].cause_detail) == ("shape", "1 columns, gold has 2")
    assert r["q_shape"].trap_mutants == []  # its soft-delete mutant has two columns
    assert (r["q_syntax"].cause, r["q_syntax"].error_class) == ("error", "error")
    assert (r["q_parse"].cause, r["q_parse"].error_class) == ("rejected", "rejected")
    right = r["q_right"]
    assert right.correct and right.cause is None and right.rows_missing is None


def test_table_linking_per_prediction_and_per_tool(world) -> None:
    r = world["records"]
    assert (r["q_table"].table_recall, r["q_table"].table_precision) == (0.0, 0.0)
    assert (r["q_soft"].table_recall, r["q_soft"].table_precision) == (1.0, 1.0)
    # a prediction that did not run links no table, whatever its text (issue 33): before, q_syntax (right
    # table, bad column: error) scored (1, 1) and q_parse (rejected) was left out
    assert (r["q_syntax"].table_recall, r["q_syntax"].table_precision) == (0.0, 0.0)
    assert (r["q_parse"].table_recall, r["q_parse"].table_precision) == (0.0, 0.0)
    assert not r["q_syntax"].exact_match and r["q_syntax"].soft_f1 == 0.0 and r["q_syntax"].row_f1 == 0.0
    tool = world["standings"]["tools"][0]  # q_table, q_syntax and q_parse 0, the five others 1
    assert tool["table_recall"] == pytest.approx(500 / 8) and tool["table_precision"] == pytest.approx(500 / 8)


def test_causes_add_up_to_the_wrong_questions(world) -> None:
    tool = world["standings"]["tools"][0]
    assert list(tool["wrong_by_cause"].items()) == [
        ("error", 1), ("rejected", 1), ("schema-linking", 1), ("trap:soft-delete", 1), ("trap:tenant-isolation", 1),
        ("shape", 1), ("values", 1)]
    wrong = round(tool["questions"] * (1 - tool["multi_state_ex1"] / 100))
    assert sum(tool["wrong_by_cause"].values()) == wrong == 7


def test_the_board_shows_them(world) -> None:
    board = {**world["standings"], "question_mode": "full"}
    files = render_leaderboard([board])
    header, row = files["csv"].splitlines()[:2]
    fields = dict(zip(header.split(","), row.split(",")))
    causes = "error:1;rejected:1;schema-linking:1;trap:soft-delete:1;trap:tenant-isolation:1;shape:1;values:1"
    assert fields["wrong_by_cause"] == causes
    assert fields["table_recall"] == "62.5" and fields["table_precision"] == "62.5"
    assert f"| {causes} |" in files["md"]
    assert json.loads(files["json"])["standings"][0]["tools"][0]["wrong_by_cause"]["trap:soft-delete"] == 1
    cell = next(c for c in html_cells() if c.title(board) == "wrong by cause")
    html = cell.render(world["standings"]["tools"][0], board)
    assert html.count("<span ") == 7 and 'style="width:14.3%;background:#d95f02"' in html and 'data-sort="7"' in html
    assert html.count("background:#1b9e77") == 2  # the traps share one colour


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
    assert "cause: trap:soft-delete — equals mutant: drop the soft-delete filter in WHERE" in out
    assert "  soft-delete: drop the soft-delete filter in WHERE" in out
    assert "rows: 0 in gold only, 37 in the prediction only" in out
    assert "first 2 in the prediction only:" in out and "WHERE a.deleted_at IS NULL" in out
    code, out, err = _explain(world, monkeypatch, capsys, "--tool", "wrong", "--question", "q_tenant")
    assert code == 0, err
    assert "cause: trap:tenant-isolation — equals mutant: drop the tenant filter in ON of crm.accounts AS a" in out
    assert "reproduced from the stored mutant answers" in out
    code, out, _ = _explain(world, monkeypatch, capsys, "--tool", "wrong", "--question", "q_table")
    assert code == 0 and "cause: schema-linking — misses billing.refunds" in out
    assert "tables gold does not read: billing.payments" in out


def _natural_run(world, artifacts: Path) -> None:
    """A run manifest as `heron bench` writes it by default (question mode natural, the bench's default),
    naming the world's scores, in an artifact root of its own."""
    layout = ArtifactLayout(world["artifacts"])
    [manifest] = list(layout.runs().glob("*.json"))
    doc = json.loads(manifest.read_text())
    doc["options"] = {**doc["options"], "question_mode": "natural"}
    qdir = artifacts.parent / "questions-natural"  # the same questions, each with a natural text
    qdir.mkdir()
    (qdir / "01_test.yaml").write_text(yaml.safe_dump(
        [{**q, "natural": f"natural: {q['question']}", "shape": "single", "retrieval": "named",
          "traps": TRAPS.get(q["id"], ["soft-delete"])} for q in QUESTIONS]))
    doc["questions"] = {**doc["questions"], "dir": str(qdir)}
    write_document(ArtifactLayout(artifacts).runs(), doc)


def test_explain_right_after_a_default_bench_finds_its_run(world, monkeypatch, capsys, tmp_path) -> None:
    """Issue 30: `heron explain --tool T --question Q` after `heron bench` (natural, its default) found no run
    ("no recorded run of tiny (full)"): explain defaulted to full mode. It takes the latest run that scored the
    tool, whichever mode, and shows the text that run's tools saw."""
    artifacts = tmp_path / "artifacts"
    _natural_run(world, artifacts)
    world = {**world, "artifacts": artifacts}
    code, out, err = _explain(world, monkeypatch, capsys, "--tool", "wrong", "--question", "q_soft")
    assert code == 0, err
    assert "natural: Which accounts are there (not deleted)? Id and name." in out
    assert "cause: trap:soft-delete" in out
    # a mode asked for still narrows the search, and says which one it looked for
    code, out, err = _explain(world, monkeypatch, capsys, "--tool", "wrong", "--question", "q_soft",
                              "--question-mode", "full")
    assert (code, out) == (1, "") and "no recorded run of tiny (full)" in err and "--question-mode full" in err


def test_explain_defaults_its_run_options_as_heron_bench_does() -> None:
    """--scale and --question-mode are heron bench's flags (declared once in bench.options): the same choices,
    and --scale the same default, so `heron explain` after a bare `heron bench` looks where the bench wrote."""
    from heron_pipeline.bench.options import BenchOptions
    from heron_pipeline.cli import build_parser

    parser = build_parser()
    explain_args = parser.parse_args(["explain", "--tool", "t", "--question", "q"])
    bench_args = parser.parse_args(["bench"])
    assert explain_args.scale == bench_args.scale == BenchOptions().scale
    assert explain_args.question_mode is None  # any mode: the latest run that scored the tool
    assert bench_args.question_mode == BenchOptions().question_mode == "natural"
    submit_args = parser.parse_args(["submit", "--tool", "t", "--scale", "tiny", "--out", "x"])
    assert (submit_args.seeds, submit_args.question_mode) == (bench_args.seeds, bench_args.question_mode)
    explain_mode, bench_mode = (next(a for a in _subparser(parser, name)._actions if a.dest == "question_mode")
                                for name in ("explain", "bench"))
    assert explain_mode.choices == bench_mode.choices and explain_mode.help != bench_mode.help


def _subparser(parser, name: str):
    import argparse

    [sub] = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    return sub.choices[name]


@pytest.mark.parametrize("argv,code,line", [
    (("--tool", "nobody", "--question", "q_soft"), 2, "--tool nobody: no recorded run of tiny scored it; "
                                                      "they scored wrong"),
    (("--tool", "nobody", "--question", "q_soft", "--question-mode", "full"), 2,
     "--tool nobody: no recorded run of tiny (full) scored it; they scored wrong"),
    (("--tool", "wrong", "--question", "q_soft", "--question-mode", "natural"), 1,
     "not found: no recorded run of tiny (natural) in"),
    (("--tool", "wrong", "--question", "q_nope"), 2, "--question q_nope: not a question of"),
    (("--tool", "wrong", "--question", "q_soft", "--seed", "43"), 2, "--seed 43: wrong was scored on seeds 42"),
    (("--tool", "wrong", "--question", "q_soft", "--scale", "small"), 1, "not found: no recorded run of small in"),
])
def test_explain_names_what_it_did_not_find(world, monkeypatch, capsys, argv, code, line) -> None:
    got, out, err = _explain(world, monkeypatch, capsys, *argv)
    assert (got, out) == (code, "") and line in err and len(err.strip().splitlines()) == 1


def test_trap_causes_are_reproducible_from_the_stored_mutant_answers(world, tmp_path) -> None:
    gold, questions = world["gold"], {q.id: q for q in world["questions"]}
    ref = gold.mutant_answers
    assert ref.path.parent == ArtifactLayout(world["artifacts"]).mutant_answers("tiny", 42)
    assert hashlib.sha256(ref.path.read_bytes()).hexdigest() == ref.digest == ref.path.stem
    assert GoldResult.from_json(gold.to_json()).mutant_answers == ref  # what Dagster and the manifest carry
    document = json.loads(ref.path.read_text())
    # q_tenant's two trap mutants both change its answer on tiny 42; q_table and the counts of all
    # rows have no trap mutant; a mutant equal to gold here is counted, not stored
    assert [m["operator"] for m in document["questions"]["q_tenant"]] == ["drop-tenant-filter",
                                                                          "drop-soft-delete-filter"]
    assert "q_table" not in document["questions"] and document["not_stored"] == {}
    stored = read_mutant_answers(ref.path)
    by_id = {p.question_id: p for p in world["predictions"]}
    for qid, record in world["records"].items():
        if not (record.cause or "").startswith("trap:"):
            continue
        pred_rows = list(world["run"].execute(by_id[qid].sql).rows)
        found = trap_matches(questions[qid].gold_sql, pred_rows, stored.get(qid, ()),
                             [t.value for t in questions[qid].traps])
        assert [trap_label(m) for m in found] == record.trap_mutants and found
        assert trap_cause(found[0], [t.value for t in questions[qid].traps]) == record.cause
    changed = tmp_path / ref.path.name
    changed.write_bytes(ref.path.read_bytes().replace(b"drop the", b"drop teh"))
    with pytest.raises(ArtifactMismatch):
        dataclasses.replace(gold, mutant_answers=ArtifactRef(changed, ref.digest)).mutant_rows()
