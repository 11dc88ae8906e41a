"""The llm adapter against a local OpenAI-compatible server, through the real openai client."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from heron_pipeline.adapters import PredictionContext, create_adapter
from heron_pipeline.adapters.llm import LLMAdapter, LLMSettings
from heron_pipeline.catalog import load_catalog

from .fake_openai import USAGE, FakeOpenAI

QUESTION = SimpleNamespace(id="q001", question="How many  tenants\nare there?")


@pytest.fixture(scope="module")
def fake():
    with FakeOpenAI(slow_seconds=3.0) as server:
        yield server


@pytest.fixture(scope="module")
def context():
    return PredictionContext(scale="tiny", n=1, catalog=load_catalog())


def _adapter(fake: FakeOpenAI, prefix: str, tmp_path, **kw) -> LLMAdapter:
    settings = LLMSettings(model="test-model", base_url=fake.url(prefix), api_key="k", timeout_s=0.5, max_retries=0,
                           **kw)
    return LLMAdapter(settings, cache_dir=tmp_path / "cache")


def test_success_extracts_sql_and_records_billed_usage(fake, context, tmp_path) -> None:
    [record] = _adapter(fake, "", tmp_path).predict(QUESTION, context)
    assert record.error is None
    assert record.sql == "SELECT count(*) AS n FROM tenancy.tenants"
    assert (record.prompt_tokens, record.completion_tokens) == (USAGE["prompt_tokens"], USAGE["completion_tokens"])
    assert record.latency_s is not None and record.latency_s > 0


def test_prompt_holds_the_full_schema_with_comments_and_the_question(fake, context, tmp_path) -> None:
    before = len(fake.requests)
    _adapter(fake, "", tmp_path / "fresh").predict(QUESTION, context)
    _path, body = fake.requests[before]
    system, user = body["messages"]
    catalog = context.catalog
    assert all(f"CREATE TABLE {name} (" in system["content"] for name in catalog.tables)
    commented = next(t for t in catalog.tables.values() if t.comment)
    assert " ".join(commented.comment.split()) in system["content"]
    assert user["content"] == "How many tenants are there?"
    assert body["model"] == "test-model" and body["temperature"] == 0.0


def test_cache_hit_does_not_call_the_server_again(fake, context, tmp_path) -> None:
    first = _adapter(fake, "", tmp_path)
    before = fake.calls("")
    a = first.predict(QUESTION, context)
    second = _adapter(fake, "", tmp_path)  # a new process would build a new adapter: same cache folder
    b = second.predict(QUESTION, context)
    assert fake.calls("") == before + 1
    assert (first.calls, second.calls) == (1, 0)
    assert a == b  # same SQL, same billed usage, same latency: a re-run reproduces the artifact


def test_samples_are_distinct_requests_in_the_cache(fake, tmp_path) -> None:
    ctx = PredictionContext(scale="tiny", n=3, catalog=load_catalog())
    adapter = _adapter(fake, "", tmp_path, temperature=0.7)
    records = adapter.predict(QUESTION, ctx)
    assert [r.sample for r in records] == [0, 1, 2] and adapter.calls == 3
    assert _adapter(fake, "", tmp_path, temperature=0.7).predict(QUESTION, ctx) == records


def test_changed_temperature_is_a_new_request(fake, context, tmp_path) -> None:
    _adapter(fake, "", tmp_path).predict(QUESTION, context)
    warmer = _adapter(fake, "", tmp_path, temperature=0.5)
    warmer.predict(QUESTION, context)
    assert warmer.calls == 1


@pytest.mark.parametrize("prefix, expected", [
    ("/slow", "timeout:"),
    ("/garbage", "garbage:"),
    ("/prose", "garbage: no SQL"),
    ("/error", "http: 500"),
])
def test_failures_become_records_with_an_error(fake, context, tmp_path, prefix, expected) -> None:
    adapter = _adapter(fake, prefix, tmp_path)
    [record] = adapter.predict(QUESTION, context)
    assert record.sql is None
    assert record.error.startswith(expected), record.error


def test_failed_calls_are_not_cached(fake, context, tmp_path) -> None:
    _adapter(fake, "/error", tmp_path).predict(QUESTION, context)
    again = _adapter(fake, "/error", tmp_path)
    again.predict(QUESTION, context)
    assert again.calls == 1


def test_unreachable_server_is_an_error_not_a_crash(context, tmp_path) -> None:
    adapter = LLMAdapter(LLMSettings(model="m", base_url="http://127.0.0.1:9/v1", timeout_s=0.5, max_retries=0),
                         cache_dir=tmp_path)
    [record] = adapter.predict(QUESTION, context)
    assert record.sql is None and record.error.startswith(("connection:", "timeout:"))


def test_settings_from_environment_and_registry_factory(fake, tmp_path) -> None:
    env = {"HERON_LLM_MODEL": "m", "HERON_LLM_BASE_URL": fake.url(), "HERON_LLM_TEMPERATURE": "0.2",
           "HERON_LLM_TIMEOUT": "7", "HERON_LLM_USD_PER_MTOK_PROMPT": "0.5"}
    settings = LLMSettings.from_environ(env)
    assert settings.configured and settings.temperature == 0.2 and settings.timeout_s == 7.0
    assert not LLMSettings.from_environ({}).configured
    adapter = create_adapter("llm", settings=settings, cache_dir=tmp_path)
    assert adapter.conditions()["model"] == "m" and adapter.conditions()["temperature"] == 0.2
    with pytest.raises(ValueError, match="needs a model"):
        LLMAdapter(LLMSettings())
