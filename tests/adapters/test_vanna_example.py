"""The real ``vanna`` package driven through the cli adapter against the scripted server, offline.

Vanna is not one of heron's dependencies (it pulls pandas, plotly and httpx): the example runs in
its own interpreter, named by HERON_VANNA_PYTHON (a virtualenv made from
examples/vanna/requirements.txt). Without it the test is skipped and says how to enable it.
"""

from __future__ import annotations

import os
from types import SimpleNamespace

import pytest

from heron_pipeline.adapters import PredictionContext
from heron_pipeline.catalog import load_catalog
from heron_pipeline.config import PROJECT_ROOT
from heron_pipeline.predictions.make import PredictOptions, predict_tool

from tests.llm.fake_openai import FakeOpenAI, Reply

PYTHON = os.environ.get("HERON_VANNA_PYTHON")

pytestmark = pytest.mark.skipif(
    not PYTHON, reason="set HERON_VANNA_PYTHON to an interpreter with examples/vanna/requirements.txt installed")


def test_vanna_answers_through_the_cli_adapter(monkeypatch) -> None:
    questions = [SimpleNamespace(id="q001", question="How many tenants are there per plan?")]
    context = PredictionContext(scale="tiny", catalog=load_catalog(), conventions="The as-of date is 2026-06-30.")
    with FakeOpenAI() as fake:
        fake.responder = lambda body: Reply(content="```sql\nSELECT count(*) AS n FROM tenancy.tenants\n```")
        monkeypatch.setenv("VANNA_BASE_URL", fake.url())
        monkeypatch.setenv("VANNA_MODEL", "scripted")
        monkeypatch.setenv("HERON_CLI_PASS_ENV", "VANNA_BASE_URL,VANNA_MODEL")
        result = predict_tool("cli", questions, context, PredictOptions(
            cli_command=f"{PYTHON} {PROJECT_ROOT / 'examples' / 'vanna' / 'vanna_tool.py'}", cli_name="vanna"))
        [(_path, body)] = fake.requests
    [record] = result.records
    assert record.error is None, record.error
    assert record.sql.strip().rstrip(";") == "SELECT count(*) AS n FROM tenancy.tenants"
    assert "tenancy.tenants" in record.retrieved_tables
    system, *_rest, last = body["messages"]
    assert "CREATE TABLE tenancy.tenants (" in system["content"] and "2026-06-30" in system["content"]
    assert last["content"] == questions[0].question and body["temperature"] == 0
