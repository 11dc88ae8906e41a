"""Every tool scored end to end on tiny 42/43/44: predictions through the scripted server (or the
external command), executed in the sandbox and compared with the gold on each state.

The scripted model answers every step in the format the step asks for, with the gold tables and
the gold SQL of the question it recognises in the request — so a wrong prompt (the question
missing, a step skipped, the SQL of the wrong step taken as the prediction) makes a tool score
below 100 %.
"""

from __future__ import annotations

import json
import sys

import pytest

from heron_pipeline.adapters import PredictionContext
from heron_pipeline.adapters.din_sql import CLASSIFY, LINKING
from heron_pipeline.adapters.mac_sql import SELECTOR
from heron_pipeline.catalog import load_catalog
from heron_pipeline.database.names import benchmark_database
from heron_pipeline.questions.gold import gold_rows, run_state, write_gold_artifact
from heron_pipeline.harness.scorer import score_state
from heron_pipeline.harness.state_run import state_run
from heron_pipeline.llm import LLMSettings
from heron_pipeline.predictions.make import PredictOptions, predict_tool
from heron_pipeline.questions import QUESTIONS_DIR, load_questions
from heron_pipeline.questions.conventions import load_conventions

from tests.llm.fake_openai import FakeOpenAI, Reply

SEEDS = (42, 43, 44)
LLM_TOOLS = ("raw-llm", "retrieval", "rag", "mac-sql", "din-sql")


@pytest.fixture(scope="module")
def states(tiny42):
    from heron_pipeline.seeding.build import build

    for seed in SEEDS:
        if not tiny42.database_exists(f"heron_tiny_{seed}"):
            build(tiny42, "tiny", seed)
    return tiny42


@pytest.fixture(scope="module")
def questions():
    everything = load_questions(QUESTIONS_DIR)
    return [everything[0], everything[37], everything[81]]  # a single, a join and an analytical one


def gold_model(questions):
    def reply(body: dict) -> Reply:
        last = body["messages"][-1]["content"]
        system = body["messages"][0]["content"]
        [q] = [q for q in questions if " ".join(q.question.split()) in last]
        if system.startswith((LINKING, SELECTOR)):
            return Reply(content=json.dumps({"tables": list(q.gold_tables)}))
        if system.startswith(CLASSIFY):
            return Reply(content='{"class": "non-nested"}')
        return Reply(content=f"```sql\n{q.gold_sql}\n```")
    return reply


def test_every_tool_scores_end_to_end(states, questions, tmp_path, monkeypatch) -> None:
    catalog = load_catalog()
    context = PredictionContext(scale="tiny", catalog=catalog, conventions=load_conventions(QUESTIONS_DIR).text,
                                primary_dsn=states.benchmark_dsn("tiny", 42))
    gold = {seed: gold_rows(_gold_artifact(states, tmp_path, seed, questions), questions)
            for seed in SEEDS}
    answers = tmp_path / "answers.json"
    answers.write_text(json.dumps({" ".join(q.question.split()): q.gold_sql for q in questions}))
    tool_script = tmp_path / "gold_tool.py"
    tool_script.write_text("import json, os, sys\nreq = json.load(sys.stdin)\n"
                           "answers = json.load(open(os.environ['ANSWERS']))\n"
                           "print(json.dumps({'sql': answers[req['question']]}))\n")
    with FakeOpenAI() as fake:
        fake.responder = gold_model(questions)
        llm = LLMSettings(model="m", base_url=fake.url(), timeout_s=30, max_retries=0)
        results = {tool: predict_tool(tool, questions, context, PredictOptions(llm=llm, cache_dir=tmp_path / "c"))
                   for tool in LLM_TOOLS}
    monkeypatch.setenv("ANSWERS", str(answers))
    monkeypatch.setenv("HERON_CLI_PASS_ENV", "ANSWERS")
    results["cli"] = predict_tool("cli", questions, context, PredictOptions(
        cli_command=f"{sys.executable} {tool_script}", cli_name="gold-cli"))
    for tool, result in results.items():
        assert result.status == "complete", (tool, result.reason)
        assert all(r.sql for r in result.records), (tool, [r.error for r in result.records])
        for seed in SEEDS:
            scores = score_state(result.tool, questions, result.records, gold[seed], state_run(states, "tiny", seed))
            assert [s.correct for s in scores] == [True] * len(questions), (tool, seed, [s.error for s in scores])


def _gold_artifact(server, artifacts, seed, questions):
    """The gold of every question on tiny ``seed``, stored as the core stores it (no audit runs)."""
    with server.connect(benchmark_database("tiny", seed)) as conn:
        runs = run_state(conn, questions, audit=False)
    return write_gold_artifact(artifacts, "tiny", seed, runs)[0]
