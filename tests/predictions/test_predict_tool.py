"""predict_tool with raw-llm against a real HTTP server: usage, cache, rerun, outage, budget, resume."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time
from types import SimpleNamespace

import pytest

from heron_pipeline.adapters import PredictionContext
from heron_pipeline.adapters.prompt import SYSTEM_PROMPT, render_schema
from heron_pipeline.artifacts.ref import canonical_jsonl
from heron_pipeline.catalog import load_catalog
from heron_pipeline.llm import LLMSettings
from heron_pipeline.predictions.make import NO_ENDPOINT, PredictOptions, predict_tool
from heron_pipeline.questions import QUESTIONS_DIR
from heron_pipeline.questions.conventions import load_conventions

from tests.llm.fake_openai import FakeOpenAI, Reply, prompt_tokens_of

QUESTIONS = [SimpleNamespace(id=f"q{i:03d}", question=f"How many things of kind {i}?", natural=f"Kind {i} count?")
             for i in range(1, 11)]


@pytest.fixture(scope="module")
def context():
    return PredictionContext(scale="tiny", catalog=load_catalog(),
                             conventions=load_conventions(QUESTIONS_DIR).text)


@pytest.fixture
def fake():
    with FakeOpenAI(slow_seconds=3.0) as server:
        yield server


def options(fake, tmp_path, prefix="", n=1, **kw) -> PredictOptions:
    llm_kw = {k: kw.pop(k) for k in list(kw) if k in LLMSettings.__dataclass_fields__}
    llm = LLMSettings(model="test-model", base_url=fake.url(prefix), api_key="k", timeout_s=0.5, max_retries=0,
                      **llm_kw)
    return PredictOptions(n=n, llm=llm, cache_dir=tmp_path / "cache", **kw)


def artifact(result) -> bytes:
    return canonical_jsonl(r.to_json() for r in result.records)


def test_prompt_carries_conventions_schema_and_question(fake, tmp_path, context) -> None:
    result = predict_tool("raw-llm", QUESTIONS[:1], context, options(fake, tmp_path))
    assert result.status == "complete" and result.kind == "sql"
    [(_path, body)] = fake.requests
    system, user = body["messages"]
    assert system["content"] == f"{SYSTEM_PROMPT}\n\n{context.conventions}\n\n{render_schema(context.catalog)}"
    assert "2026-06-30" in system["content"] and "tenant_id" in context.conventions
    assert user["content"] == QUESTIONS[0].question
    [record] = result.records
    assert record.sql == "SELECT count(*) AS n FROM tenancy.tenants" and record.error_class is None
    assert record.steps == ("generate: ok",)
    assert result.conditions["schema"] == "full" and result.conditions["question_mode"] == "full"


def test_natural_mode_sends_the_natural_text(fake, tmp_path, context) -> None:
    predict_tool("raw-llm", QUESTIONS[:1], context, options(fake, tmp_path, question_mode="natural"))
    assert fake.requests[0][1]["messages"][1]["content"] == "Kind 1 count?"
    with pytest.raises(ValueError, match="question mode 'natural': 1 question"):
        predict_tool("raw-llm", [SimpleNamespace(id="q9", question="x")], context,
                     options(fake, tmp_path, question_mode="natural"))


def test_compact_schema_is_smaller_and_keeps_every_table(fake, tmp_path, context) -> None:
    predict_tool("raw-llm", QUESTIONS[:1], context, options(fake, tmp_path, schema="compact"))
    system = fake.requests[0][1]["messages"][0]["content"]
    assert len(system) < len(render_schema(context.catalog)) / 2
    assert all(f"\n{name} " in system for name in context.catalog.tables)


def test_usage_sums_equal_the_servers_and_a_rerun_makes_zero_requests(fake, tmp_path, context) -> None:
    opts = options(fake, tmp_path, n=2, concurrency=3)
    first = predict_tool("raw-llm", QUESTIONS, context, opts)
    assert first.status == "complete" and len(first.records) == 20
    assert [(r.question_id, r.sample) for r in first.records] == [(q.id, s) for q in QUESTIONS for s in (0, 1)]
    served = fake.served_usage
    assert first.summary["prompt_tokens"] == sum(u["prompt_tokens"] for u in served)
    assert first.summary["completion_tokens"] == sum(u["completion_tokens"] for u in served)
    assert first.summary["cached_prompt_tokens"] == sum(u["prompt_tokens_details"]["cached_tokens"] for u in served)
    assert first.summary["requests"] == fake.calls() == 20 and first.summary["cost_usd"] is None  # no price known
    temps = sorted(body["temperature"] for _, body in fake.requests)
    assert temps == [0.0] * 10 + [0.8] * 10
    again = predict_tool("raw-llm", QUESTIONS, context, opts)
    assert fake.calls() == 20 and again.summary["requests"] == 0 and again.summary["cache_hits"] == 20
    assert artifact(again) == artifact(first)


def test_failures_are_cached_so_a_rerun_reproduces_the_artifact(fake, tmp_path, context) -> None:
    fake.responder = lambda body: Reply(status=500) if body["messages"][1]["content"].endswith("3?") else None
    opts = options(fake, tmp_path)
    first = predict_tool("raw-llm", QUESTIONS, context, opts)
    failed = [r for r in first.records if r.sql is None]
    assert [(r.question_id, r.error_class) for r in failed] == [("q003", "provider_http")]
    assert first.status == "complete"  # 1 of 10 calls is not an outage
    assert first.summary["errors_by_class"] == {"provider_http": 1}
    again = predict_tool("raw-llm", QUESTIONS, context, opts)
    assert fake.calls() == 10 and artifact(again) == artifact(first)
    fake.responder = None
    retried = predict_tool("raw-llm", QUESTIONS, context, PredictOptions(**{**opts.__dict__, "retry_failed": True}))
    assert fake.calls() == 11 and all(r.sql for r in retried.records)
    assert fake.requests[-1][1]["messages"][1]["content"] == QUESTIONS[2].question


def test_outage_marks_the_predictions_incomplete(fake, tmp_path, context) -> None:
    fake.responder = lambda body: Reply(status=503) if body["messages"][1]["content"][-2] in "1234" else None
    result = predict_tool("raw-llm", QUESTIONS, context, options(fake, tmp_path))
    assert result.status == "incomplete" and len(result.records) == 10
    assert result.summary["call_failures_by_class"] == {"provider_http": 4}
    assert "4 of 10 calls (40 %) failed at the provider (provider_http 4)" in result.reason


def test_endpoint_down_is_an_outage_not_a_result(tmp_path, context, free_port) -> None:
    llm = LLMSettings(model="m", base_url=f"http://127.0.0.1:{free_port()}/v1", timeout_s=0.5, max_retries=1)
    result = predict_tool("raw-llm", QUESTIONS[:3], context, PredictOptions(llm=llm, cache_dir=tmp_path))
    assert result.status == "incomplete" and {r.error_class for r in result.records} == {"provider_connection"}


def test_budget_stop_records_the_rest_as_budget_errors(fake, tmp_path, context) -> None:
    # every call costs more than the budget: the first spends it, the rest are never sent
    opts = options(fake, tmp_path, budget_usd=1e-9, usd_per_mtok_prompt=1.0, usd_per_mtok_completion=1.0,
                   concurrency=1)
    result = predict_tool("raw-llm", QUESTIONS, context, opts)
    assert fake.calls() == 1 and result.status == "incomplete" and "budget" in result.reason
    assert [r.error_class for r in result.records] == [None] + ["budget"] * 9
    assert result.summary["cost_usd"] == pytest.approx(result.records[0].cost_usd) and result.records[0].cost_usd > 0


def test_offline_miss_is_cache_miss(fake, tmp_path, context) -> None:
    predict_tool("raw-llm", QUESTIONS[:2], context, options(fake, tmp_path))
    result = predict_tool("raw-llm", QUESTIONS[:4], context, options(fake, tmp_path, offline=True))
    assert fake.calls() == 2 and [r.error_class for r in result.records] == [None, None, "cache_miss", "cache_miss"]
    assert result.status == "incomplete"


def test_unconfigured_llm_tools_are_skipped_and_llm_is_an_alias(context, tmp_path, capsys, fake) -> None:
    skipped = predict_tool("raw-llm", QUESTIONS, context, PredictOptions())
    assert (skipped.status, skipped.reason, skipped.records) == ("skipped", NO_ENDPOINT, [])
    alias = predict_tool("llm", QUESTIONS[:1], context, options(fake, tmp_path))
    assert alias.tool == "raw-llm" and alias.status == "complete"
    assert "tool 'llm' is deprecated; use 'raw-llm'" in capsys.readouterr().err


def test_an_adapter_crash_is_one_questions_error(fake, tmp_path, context) -> None:
    bad = SimpleNamespace(id="q999")  # no text: the prompt cannot be built
    result = predict_tool("raw-llm", [QUESTIONS[0], bad], context, options(fake, tmp_path))
    assert result.records[0].sql and result.records[1].error_class == "adapter_error"


def test_progress_events(fake, tmp_path, context) -> None:
    events = []
    predict_tool("raw-llm", QUESTIONS[:3], context, options(fake, tmp_path), progress=events.append)
    assert [e["done"] for e in events] == [1, 2, 3, 3] and events[-1]["final"] and events[-1]["requests"] == 3
    from heron_pipeline.predictions.progress import progress_line

    assert progress_line(events[-1]).startswith("raw-llm: 3/3 questions, 3 requests, 0 from cache")


RESUME_SCRIPT = textwrap.dedent("""
    import sys
    from types import SimpleNamespace
    from heron_pipeline.adapters import PredictionContext
    from heron_pipeline.catalog import load_catalog
    from heron_pipeline.llm import LLMSettings
    from heron_pipeline.predictions.make import PredictOptions, predict_tool
    url, cache = sys.argv[1], sys.argv[2]
    questions = [SimpleNamespace(id=f"q{i:03d}", question=f"How many things of kind {i}?") for i in range(1, 11)]
    llm = LLMSettings(model="test-model", base_url=url, timeout_s=60, max_retries=0, concurrency=1)
    predict_tool("raw-llm", questions, PredictionContext(scale="tiny", catalog=load_catalog()),
                 PredictOptions(llm=llm, cache_dir=cache))
""")


def test_a_run_killed_halfway_resumes_with_only_the_unanswered_questions(fake, tmp_path, context) -> None:
    # the server answers four questions, then hangs: the run is killed while waiting for the fifth
    answered = []

    def responder(body):
        if len(answered) >= 4:
            return Reply(delay_s=60)
        answered.append(body["messages"][1]["content"])
        return None

    fake.responder = responder
    cache = tmp_path / "cache"
    child = subprocess.Popen([sys.executable, "-c", RESUME_SCRIPT, fake.url(), str(cache)], start_new_session=True)
    deadline = time.monotonic() + 120
    while fake.calls() < 5 and child.poll() is None and time.monotonic() < deadline:
        time.sleep(0.2)
    time.sleep(0.5)  # let the fourth answer reach the cache
    os.killpg(child.pid, signal.SIGKILL)
    child.wait()
    assert len(answered) == 4
    fake.reset()
    result = predict_tool("raw-llm", QUESTIONS, context, PredictOptions(
        llm=LLMSettings(model="test-model", base_url=fake.url(), max_retries=0, concurrency=1,
                        timeout_s=0.5), cache_dir=cache))
    asked = [body["messages"][1]["content"] for _, body in fake.requests]
    assert len(asked) == 6 and not set(asked) & set(answered)
    assert result.status == "complete" and result.summary["cache_hits"] == 4


def test_reference_and_offline_tools_run_through_predict_tool(context) -> None:
    gold_q = SimpleNamespace(id="q1", question="How many tenants?", gold_sql="SELECT count(*) FROM tenancy.tenants",
                             alt_sql=None, gold_tables=("tenancy.tenants",))
    gold = predict_tool("gold", [gold_q], context, PredictOptions(n=2))
    assert (gold.kind, gold.status, [r.sql for r in gold.records]) == ("reference", "complete", [gold_q.gold_sql] * 2)
    assert gold.summary["cost_usd"] == 0.0  # the reference tools cost nothing (not "unknown")
    alt = predict_tool("alt", [gold_q], context, PredictOptions())
    assert alt.records[0].error_class == "reference_missing" and alt.summary["errors_by_class"] == {
        "reference_missing": 1}
    bm25 = predict_tool("bm25-fk", [gold_q], context, PredictOptions())
    assert (bm25.kind, bm25.status) == ("retrieval", "complete") and bm25.summary["errors_by_class"] == {}
    assert bm25.records[0].sql is None and "tenancy.tenants" in bm25.records[0].retrieved_tables


def test_heron_llm_cache_dir_wins_over_the_default_location(fake, tmp_path, context) -> None:
    llm = LLMSettings(model="test-model", base_url=fake.url(), timeout_s=0.5, max_retries=0,
                      cache_dir=tmp_path / "from-env")
    predict_tool("raw-llm", QUESTIONS[:1], context, PredictOptions(llm=llm, cache_dir=tmp_path / "default"))
    assert list((tmp_path / "from-env").glob("*/*.json")) and not (tmp_path / "default").exists()


def test_plain_progress_prints_one_line_per_tool_every_interval() -> None:
    import io

    from heron_pipeline.predictions.progress import ConsoleProgress

    stream = io.StringIO()
    progress = ConsoleProgress(stream, interval_s=3600)
    event = {"tool": "raw-llm", "done": 1, "total": 3, "requests": 1, "cache_hits": 0, "retries": 0,
             "prompt_tokens": 10, "completion_tokens": 2, "cost_usd": None, "errors_by_class": {}}
    for done in (1, 2, 3):
        progress({**event, "done": done})
    progress({**event, "tool": "din-sql"})
    progress({**event, "done": 3, "final": True, "errors_by_class": {"no_sql": 1}})
    lines = stream.getvalue().splitlines()
    assert lines == [
        "raw-llm: 1/3 questions, 1 requests, 0 from cache, 0 retries, 12 tokens, cost unknown, errors: none",
        "din-sql: 1/3 questions, 1 requests, 0 from cache, 0 retries, 12 tokens, cost unknown, errors: none",
        "raw-llm: 3/3 questions, 1 requests, 0 from cache, 0 retries, 12 tokens, cost unknown, errors: no_sql 1",
    ]


def test_compact_rendering_keeps_only_meaningful_comments(context) -> None:
    from heron_pipeline.adapters.prompt import meaningful_comment, render_table_compact

    catalog = context.catalog
    table = next(t for t in catalog.tables.values() if t.is_soft_deletable and t.is_tenant_scoped
                 and any(c.name == "status" and c.comment for c in t.columns) and t.foreign_keys)
    text = render_table_compact(table)
    head = text.splitlines()[0]
    assert head.startswith(f"{table.qualified} [tenant, soft-delete] (")
    assert " tenant_id " not in head and "deleted_at timestamptz?" in head
    fk = next(fk for fk in table.foreign_keys if fk.own_column != "tenant_id")
    assert f"{fk.own_column} " in head and f"-> {fk.ref_table}" in head
    status = table.column("status")
    assert f"  status: {' '.join(status.comment.split())}" in text
    assert meaningful_comment(table.column("deleted_at")) is None


def test_live_progress_draws_a_bar_per_tool_and_stops() -> None:
    import io

    from heron_pipeline.predictions.progress import ConsoleProgress

    stream = io.StringIO()
    progress = ConsoleProgress(stream, live=True)
    event = {"tool": "din-sql", "done": 1, "total": 2, "requests": 4, "cache_hits": 1, "retries": 2,
             "prompt_tokens": 5, "completion_tokens": 1, "cost_usd": 0.01, "errors_by_class": {}}
    progress(event)
    assert progress._bar is not None
    progress({**event, "done": 2, "final": True})
    assert progress._bar is None  # the live display is stopped once every tool has finished
    out = stream.getvalue()
    assert "din-sql" in out and "2/2" in out and "4 requests, 1 from cache, 2 retries" in out
