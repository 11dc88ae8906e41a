"""din-sql step by step against a scripted OpenAI-compatible server (real client, real HTTP)."""

from __future__ import annotations

import json
from types import SimpleNamespace

import pytest

from heron_pipeline.adapters import PredictionContext
from heron_pipeline.adapters.din_sql import CLASSIFY, CORRECT, GENERATE, LINKING
from heron_pipeline.adapters.prompt import SYSTEM_PROMPT
from heron_pipeline.catalog import load_catalog
from heron_pipeline.llm import LLMSettings
from heron_pipeline.predictions.make import PredictOptions, predict_tool

from tests.llm.fake_openai import FakeOpenAI, Reply

Q = SimpleNamespace(id="q001", question="Which accounts of each tenant have more than one open opportunity?")
CONVENTIONS = "The data ends on the as-of date 2026-06-30 (UTC)."
GENERATED = "SELECT a.id FROM crm.accounts a JOIN tenancy.tenants t ON t.id = a.tenant_id"
CORRECTED = GENERATED + " WHERE a.deleted_at IS NULL"


def step_of(body: dict) -> str:
    system = body["messages"][0]["content"]
    for name, prefix in (("link", LINKING), ("classify", CLASSIFY), ("correct", CORRECT), ("generate", SYSTEM_PROMPT)):
        if system.startswith(prefix):
            return name
    raise AssertionError(f"unknown step: {system[:80]}")


class Script:
    """Answers per step; records each step's request."""

    def __init__(self, **replies: Reply):
        self.replies = replies
        self.seen: dict[str, dict] = {}

    def __call__(self, body: dict) -> Reply:
        step = step_of(body)
        self.seen[step] = body
        return self.replies[step]


GOOD = dict(
    link=Reply(content='```json\n{"tables": ["crm.accounts", "tenants", "crm.nope"], "columns": []}\n```'),
    classify=Reply(content='{"class": "nested", "sub_questions": ["Open opportunities per account?", "Which exceed one?"]}'),
    generate=Reply(content=f"```sql\n{GENERATED};\n```"),
    correct=Reply(content=f"Fixed the soft delete:\n```sql\n{CORRECTED}\n```"),
)


@pytest.fixture(scope="module")
def context():
    return PredictionContext(scale="tiny", catalog=load_catalog(), conventions=CONVENTIONS)


@pytest.fixture
def fake():
    with FakeOpenAI() as server:
        yield server


def run(fake, tmp_path, context, script, **llm):
    fake.responder = script
    settings = LLMSettings(model="m", base_url=fake.url(), timeout_s=2, max_retries=0, **llm)
    return predict_tool("din-sql", [Q], context, PredictOptions(llm=settings, cache_dir=tmp_path))


def user(body):
    return body["messages"][1]["content"]


def system(body):
    return body["messages"][0]["content"]


def test_each_step_gets_what_it_needs(fake, tmp_path, context) -> None:
    script = Script(**GOOD)
    result = run(fake, tmp_path, context, script)
    [record] = result.records
    assert fake.calls() == 4 and list(script.seen) == ["link", "classify", "generate", "correct"]
    # linking sees every table (compact) and the conventions
    link = system(script.seen["link"])
    assert all(f"\n{t} " in link for t in context.catalog.tables) and CONVENTIONS in link
    # classification and generation see only the linked tables, fully rendered
    for step in ("classify", "generate"):
        text = system(script.seen[step])
        assert "CREATE TABLE crm.accounts (" in text and "CREATE TABLE tenancy.tenants (" in text
        assert "CREATE TABLE crm.opportunities (" not in text and CONVENTIONS in text
    gen = system(script.seen["generate"])
    assert GENERATE["nested"].split(":")[0] in gen and "- Open opportunities per account?" in gen
    assert user(script.seen["generate"]) == Q.question
    assert GENERATED in user(script.seen["correct"]) and Q.question in user(script.seen["correct"])
    assert record.sql == CORRECTED and record.retrieved_tables == ("crm.accounts", "tenancy.tenants")
    assert record.steps == ("link: ok", "link: 2 tables (dropped unknown: crm.nope)", "classify: ok",
                            "classify: nested, 2 sub-questions", "generate (nested): ok", "correct: ok",
                            "correct: changed the query")
    # usage is the sum of the four calls the server billed
    assert record.prompt_tokens == sum(u["prompt_tokens"] for u in fake.served_usage)
    assert record.completion_tokens == sum(u["completion_tokens"] for u in fake.served_usage)
    assert result.summary["requests"] == 4 and result.status == "complete"


def test_unusable_linking_falls_back_and_says_so(fake, tmp_path, context) -> None:
    script = Script(**{**GOOD, "link": Reply(content="The accounts table, I think.")})
    [record] = run(fake, tmp_path, context, script).records
    assert record.sql == CORRECTED
    fallback = next(s for s in record.steps if s.startswith("link: unusable"))
    assert fallback.startswith("link: unusable (no JSON object in the reply); fallback: ")
    assert "crm.accounts" in system(script.seen["classify"])  # the fallback schema still reaches the next step


def test_unusable_classification_falls_back_to_nested(fake, tmp_path, context) -> None:
    script = Script(**{**GOOD, "classify": Reply(content='{"kind": "hard"}')})
    [record] = run(fake, tmp_path, context, script).records
    assert "classify: unusable (no class in the reply); fallback: nested" in record.steps
    assert "(decompose the question yourself)" in system(script.seen["generate"])
    assert record.sql == CORRECTED


def test_correction_without_sql_keeps_the_generated_query(fake, tmp_path, context) -> None:
    script = Script(**{**GOOD, "correct": Reply(content="Looks fine to me!")})
    [record] = run(fake, tmp_path, context, script).records
    assert record.sql == GENERATED and "correct: unusable reply; fallback: the generated SQL" in record.steps


def test_a_failed_generation_is_the_questions_error(fake, tmp_path, context) -> None:
    script = Script(**{**GOOD, "generate": Reply(status=500)})
    [record] = run(fake, tmp_path, context, script).records
    assert record.sql is None and record.error_class == "provider_http" and record.error.startswith("generate: HTTP 500")
    assert record.retrieved_tables == ("crm.accounts", "tenancy.tenants") and "correct" not in script.seen


def test_generation_without_sql_is_no_sql(fake, tmp_path, context) -> None:
    script = Script(**{**GOOD, "generate": Reply(content="I would need more details.")})
    [record] = run(fake, tmp_path, context, script).records
    assert record.error_class == "no_sql" and record.error.startswith("generate: no SQL")


def test_the_budget_stops_a_question_between_steps(fake, tmp_path, context) -> None:
    result = run(fake, tmp_path, context, Script(**GOOD), budget_usd=1e-9, usd_per_mtok_prompt=1.0,
                 usd_per_mtok_completion=1.0)
    [record] = result.records
    assert fake.calls() == 1 and record.error_class == "budget" and record.sql is None
    assert result.status == "incomplete"


def test_a_rerun_makes_zero_requests(fake, tmp_path, context) -> None:
    first = run(fake, tmp_path, context, Script(**GOOD))
    again = run(fake, tmp_path, context, Script(**GOOD))
    assert fake.calls() == 4 and again.records == first.records and again.summary["requests"] == 0
    assert json.dumps(first.conditions, sort_keys=True) == json.dumps(again.conditions, sort_keys=True)
