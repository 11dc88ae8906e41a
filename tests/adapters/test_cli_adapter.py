"""The cli adapter with small real scripts: protocol, scrubbed environment, success, garbage, exit, timeout."""

from __future__ import annotations

import json
import sys
from types import SimpleNamespace

import pytest

from heron_pipeline.adapters import PredictionContext
from heron_pipeline.adapters.command import CommandAdapter, schema_document
from heron_pipeline.catalog import load_catalog
from heron_pipeline.config import PROJECT_ROOT
from heron_pipeline.predictions.make import NO_COMMAND, PredictOptions, predict_tool

Q = [SimpleNamespace(id="q001", question="How many tenants are there?"),
     SimpleNamespace(id="q002", question="How many open support tickets?")]


@pytest.fixture(scope="module")
def context():
    return PredictionContext(scale="tiny", catalog=load_catalog(), conventions="The as-of date is 2026-06-30.",
                             reader_dsn="host=127.0.0.1 port=1 dbname=heron_tiny_42 user=heron_reader")


def script(tmp_path, body: str) -> str:
    path = tmp_path / "tool.py"
    path.write_text("import json, os, sys, time\n" + body)
    return f"{sys.executable} {path}"


def test_request_answer_and_scrubbed_environment(tmp_path, context, monkeypatch) -> None:
    out = tmp_path / "seen.jsonl"
    monkeypatch.setenv("HERON_DSN", "postgresql://admin@x/secret")
    monkeypatch.setenv("HERON_LLM_API_KEY", "sk-secret")
    monkeypatch.setenv("HERON_TEST_OUT", str(out))
    monkeypatch.setenv("HERON_CLI_PASS_ENV", "HERON_TEST_OUT")
    command = script(tmp_path, """
req = json.load(sys.stdin)
with open(os.environ["HERON_TEST_OUT"], "a") as f:
    f.write(json.dumps({"req": req, "env": sorted(os.environ)}) + "\\n")
print(json.dumps({"sql": "SELECT 1 AS one;", "retrieved_tables": ["Tenancy.Tenants"], "prompt_tokens": 7,
                  "completion_tokens": 3, "cost_usd": 0.5}))
""")
    result = predict_tool("cli", Q, context, PredictOptions(n=2, cli_command=command, cli_name="my-tool"))
    assert result.tool == "my-tool" and result.status == "complete" and len(result.records) == 4
    first = result.records[0]
    assert (first.sql, first.retrieved_tables, first.prompt_tokens, first.completion_tokens, first.cost_usd) == (
        "SELECT 1 AS one", ("tenancy.tenants",), 7, 3, 0.5)
    seen = [json.loads(line) for line in out.read_text().splitlines()]
    req = seen[0]["req"]
    assert set(req) == {"id", "sample", "question", "question_mode", "conventions", "dsn", "schema"}
    assert (req["id"], req["sample"], req["question"], req["question_mode"]) == ("q001", 0, Q[0].question, "full")
    assert req["conventions"] == context.conventions and "user=heron_cli" in req["dsn"]
    assert [(s["req"]["id"], s["req"]["sample"]) for s in seen] == [("q001", 0), ("q001", 1), ("q002", 0), ("q002", 1)]
    doc = json.loads(open(req["schema"]).read())
    assert doc == json.loads(json.dumps(schema_document(context.catalog)))
    assert doc["format"] == "heron-schema/1" and len(doc["tables"]) == len(context.catalog.tables)
    env = set(seen[0]["env"]) - {"PWD", "SHLVL", "_", "LC_CTYPE"}  # set by the interpreter itself on some systems
    assert env <= {"PATH", "HOME", "LANG", "HERON_TEST_OUT"} and "HERON_DSN" not in env and "HERON_LLM_API_KEY" not in env


@pytest.mark.parametrize("body, error_class, message", [
    ("print('I have no idea')", "no_sql", "no SQL in reply"),
    ("print(json.dumps({'answer': 'SELECT 1'}))", "malformed_reply", "no 'sql' string"),
    ("print(json.dumps({'sql': 'SELECT 1', 'retrieved_tables': 'a.b'}))", "malformed_reply", "list of table names"),
    ("sys.stderr.write('traceback...\\nboom: bad\\n'); sys.exit(3)", "tool_failed", "exit status 3: boom: bad"),
    ("time.sleep(30)", "tool_timeout", "no answer within 0.5 s"),
])
def test_failures_are_one_questions_error(tmp_path, context, body, error_class, message) -> None:
    adapter = CommandAdapter(script(tmp_path, body), timeout_s=0.5, environ={"PATH": "/usr/bin:/bin"})
    [record] = adapter.predict(Q[0], context)
    assert record.sql is None and record.error_class == error_class and message in record.error


def test_plain_sql_text_is_an_answer(tmp_path, context) -> None:
    adapter = CommandAdapter(script(tmp_path, "print('```sql\\nSELECT 2 AS two;\\n```')"), environ={})
    [record] = adapter.predict(Q[0], context)
    assert record.sql == "SELECT 2 AS two" and record.error_class is None and record.cost_usd is None


def test_a_tool_that_fails_everywhere_is_an_outage(tmp_path, context) -> None:
    result = predict_tool("cli", Q, context, PredictOptions(cli_command=script(tmp_path, "sys.exit(1)")))
    assert result.status == "incomplete" and result.summary["call_failures_by_class"] == {"tool_failed": 2}


def test_configuration_errors(tmp_path, context) -> None:
    skipped = predict_tool("cli", Q, context, PredictOptions())
    assert (skipped.status, skipped.reason) == ("skipped", NO_COMMAND)
    with pytest.raises(ValueError, match="is a built-in tool's name"):
        predict_tool("cli", Q, context, PredictOptions(cli_command="true", cli_name="gold"))
    with pytest.raises(ValueError, match="HERON_CLI_TIMEOUT must be a number"):
        CommandAdapter("true", environ={"HERON_CLI_TIMEOUT": "soon"})
    [record] = CommandAdapter("/no/such/tool", environ={}).predict(Q[0], context)
    assert record.error_class == "tool_failed" and "cannot start" in record.error


def test_the_worked_example(context) -> None:
    command = f"{sys.executable} {PROJECT_ROOT / 'examples' / 'cli' / 'keyword_tool.py'}"
    result = predict_tool("cli", Q, context, PredictOptions(cli_command=command, cli_name="keyword"))
    assert result.status == "complete"
    tenants = result.records[0]
    assert tenants.retrieved_tables[0] == "tenancy.tenants" and tenants.sql == "SELECT count(*) AS n FROM tenancy.tenants"
    assert len(tenants.retrieved_tables) == 10 and tenants.cost_usd == 0.0
