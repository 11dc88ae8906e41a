"""The LLM layer (heron_pipeline.llm) against a real HTTP server on 127.0.0.1, through the real client."""

from __future__ import annotations

import pytest

from heron_pipeline.llm import LLMClient, LLMSettings, LLMSettingsError, price_for
from heron_pipeline.llm.prices import Price, load_price_table

from tests.llm.fake_openai import CANNED_REPLY, FakeOpenAI, Reply, count_tokens, prompt_tokens_of

MESSAGES = [{"role": "system", "content": "You write SQL."}, {"role": "user", "content": "How many tenants?"}]


@pytest.fixture
def fake():
    with FakeOpenAI(slow_seconds=3.0) as server:
        yield server


def settings(fake: FakeOpenAI, prefix: str = "", **kw) -> LLMSettings:
    base = {"model": "test-model", "base_url": fake.url(prefix), "api_key": "k", "timeout_s": 0.5, "max_retries": 0}
    return LLMSettings(**{**base, **kw})


class Sleeps(list):
    """Records the waits the client asks for instead of sleeping (the backoff is what is tested)."""

    def __call__(self, seconds: float) -> None:
        self.append(seconds)


def test_reply_and_billed_usage_are_the_servers(fake, tmp_path) -> None:
    client = LLMClient(settings(fake), cache_dir=tmp_path)
    first = client.complete(MESSAGES)
    second = LLMClient(settings(fake), cache_dir=tmp_path / "other").complete(MESSAGES)
    assert first.ok and first.content == CANNED_REPLY
    served = fake.served_usage
    assert first.prompt_tokens == served[0]["prompt_tokens"] == prompt_tokens_of({"messages": MESSAGES})
    assert first.completion_tokens == served[0]["completion_tokens"] == count_tokens(CANNED_REPLY)
    assert first.cached_prompt_tokens == 0
    # the second request repeats the system message: the server reports it as cached
    assert second.cached_prompt_tokens == served[1]["prompt_tokens_details"]["cached_tokens"] == count_tokens(
        MESSAGES[0]["content"]) > 0


def test_cost_from_the_price_table_and_overrides(fake, tmp_path) -> None:
    table = load_price_table()
    assert table["gpt-4o"]["as_of"] and table["gpt-4o"]["prompt"] == 2.5
    price = price_for(LLMSettings(model="gpt-4o"))
    assert price == Price(2.5, 1.25, 10.0, f"table {table['gpt-4o']['as_of']}")
    # 1000 prompt tokens of which 400 cached, 100 completion: 600*2.5 + 400*1.25 + 100*10 per million
    assert price.cost(1000, 400, 100) == pytest.approx((1500 + 500 + 1000) / 1e6)
    assert price_for(LLMSettings(model="gpt-4o", usd_per_mtok_prompt=1.0)).prompt == 1.0
    assert price_for(LLMSettings(model="local-llama")) is None
    override = price_for(LLMSettings(model="local-llama", usd_per_mtok_prompt=1.0, usd_per_mtok_completion=2.0))
    assert override is not None and override.cached_prompt == 1.0 and override.source == "override"
    # an unknown model's cost is unknown, never 0
    result = LLMClient(settings(fake), cache_dir=tmp_path).complete(MESSAGES)
    assert result.ok and result.cost_usd is None
    priced = LLMClient(settings(fake, usd_per_mtok_prompt=1.0, usd_per_mtok_completion=2.0),
                       cache_dir=tmp_path / "p").complete(MESSAGES)
    assert priced.cost_usd == pytest.approx((priced.prompt_tokens * 1.0 + priced.completion_tokens * 2.0) / 1e6)


def test_a_budget_needs_a_price(fake) -> None:
    with pytest.raises(LLMSettingsError, match="HERON_LLM_BUDGET_USD is set but model 'test-model' has no known price"):
        LLMClient(settings(fake, budget_usd=1.0))
    LLMClient(settings(fake, budget_usd=1.0, usd_per_mtok_prompt=1.0, usd_per_mtok_completion=1.0))


def test_429_then_success_honours_retry_after_and_counts_the_retry(fake, tmp_path) -> None:
    fake.push(Reply(status=429, headers={"Retry-After": "2"}), Reply(status=503, headers={"retry-after-ms": "250"}))
    sleeps = Sleeps()
    client = LLMClient(settings(fake, max_retries=3), cache_dir=tmp_path, sleep=sleeps)
    result = client.complete(MESSAGES)
    assert result.ok and result.content == CANNED_REPLY
    assert sleeps == [2.0, 0.25]
    assert fake.calls() == 3 and client.stats.requests == 3 and client.stats.retries == 2


def test_backoff_grows_without_retry_after(fake, tmp_path) -> None:
    fake.push(Reply(status=500), Reply(status=500), Reply(status=500))
    sleeps = Sleeps()
    result = LLMClient(settings(fake, max_retries=2), cache_dir=tmp_path, sleep=sleeps).complete(MESSAGES)
    assert result.error_class == "provider_http" and "HTTP 500" in result.error and "after 2 retries" in result.error
    assert len(sleeps) == 2 and 0.4 <= sleeps[0] <= 0.6 and 0.8 <= sleeps[1] <= 1.2


def test_client_errors_other_than_429_are_not_retried(fake, tmp_path) -> None:
    fake.push(Reply(status=400))
    client = LLMClient(settings(fake, max_retries=3), cache_dir=tmp_path, sleep=Sleeps())
    assert client.complete(MESSAGES).error_class == "provider_http" and fake.calls() == 1


@pytest.mark.parametrize("prefix, error_class", [
    ("/slow", "provider_timeout"), ("/garbage", "malformed_reply"), ("/error", "provider_http"),
])
def test_failures_are_classified_and_cached(fake, tmp_path, prefix, error_class) -> None:
    result = LLMClient(settings(fake, prefix), cache_dir=tmp_path).complete(MESSAGES)
    assert result.error_class == error_class and result.content is None
    again = LLMClient(settings(fake, prefix), cache_dir=tmp_path)
    assert again.complete(MESSAGES) == result.__class__(**{**result.__dict__, "from_cache": True})
    assert fake.calls(prefix) == 1 and again.stats.requests == 0 and again.stats.cache_hits == 1


def test_retry_failed_re_asks_only_failures(fake, tmp_path) -> None:
    LLMClient(settings(fake), cache_dir=tmp_path).complete(MESSAGES)  # a good reply, cached
    other = [MESSAGES[0], {"role": "user", "content": "How many users?"}]
    fake.push(Reply(status=500))
    assert LLMClient(settings(fake), cache_dir=tmp_path).complete(other).error_class == "provider_http"
    before = fake.calls()
    retry = LLMClient(settings(fake), cache_dir=tmp_path, retry_failed=True)
    assert retry.complete(MESSAGES).ok and retry.complete(other).ok
    assert fake.calls() == before + 1 and retry.stats.cache_hits == 1
    # the failure was replaced by the answer: a plain rerun sends nothing
    plain = LLMClient(settings(fake), cache_dir=tmp_path)
    assert plain.complete(other).ok and plain.stats.requests == 0


def test_offline_answers_from_the_cache_only(fake, tmp_path) -> None:
    LLMClient(settings(fake), cache_dir=tmp_path).complete(MESSAGES)
    offline = LLMClient(settings(fake), cache_dir=tmp_path, offline=True)
    assert offline.complete(MESSAGES).ok
    miss = offline.complete([MESSAGES[0], {"role": "user", "content": "never asked"}])
    assert miss.error_class == "cache_miss" and fake.calls() == 1
    # a miss is not cached: online, the question is asked
    assert LLMClient(settings(fake), cache_dir=tmp_path).complete(
        [MESSAGES[0], {"role": "user", "content": "never asked"}]).ok


def test_unreachable_endpoint_is_a_connection_error_without_retries(tmp_path, free_port) -> None:
    sleeps = Sleeps()
    client = LLMClient(LLMSettings(model="m", base_url=f"http://127.0.0.1:{free_port()}/v1", timeout_s=0.5,
                                   max_retries=3), cache_dir=tmp_path, sleep=sleeps)
    result = client.complete(MESSAGES)
    assert result.error_class == "provider_connection" and sleeps == [] and client.stats.requests == 1


def test_budget_stops_further_requests(fake, tmp_path) -> None:
    # each call costs (prompt + completion) tokens × $1 per token: the first spends the whole budget
    s = settings(fake, budget_usd=1e-6, usd_per_mtok_prompt=1.0, usd_per_mtok_completion=1.0)
    client = LLMClient(s, cache_dir=tmp_path)
    assert client.complete(MESSAGES).ok
    refused = client.complete([MESSAGES[0], {"role": "user", "content": "second"}])
    assert refused.error_class == "budget" and fake.calls() == 1
    assert client.complete(MESSAGES).ok  # a cached answer costs nothing this run


def test_samples_are_distinct_requests_at_the_sampling_temperature(fake, tmp_path) -> None:
    client = LLMClient(settings(fake, temperature=0.0, sample_temperature=0.9), cache_dir=tmp_path)
    for sample in range(3):
        client.complete(MESSAGES, sample=sample)
    assert [body["temperature"] for _, body in fake.requests] == [0.0, 0.9, 0.9]
    LLMClient(settings(fake, temperature=0.0, sample_temperature=0.9), cache_dir=tmp_path).complete(MESSAGES, sample=2)
    assert fake.calls() == 3


@pytest.mark.parametrize("env, message", [
    ({"HERON_LLM_TIMEOUT": "soon"}, "HERON_LLM_TIMEOUT must be a number"),
    ({"HERON_LLM_CONCURRENCY": "0"}, "HERON_LLM_CONCURRENCY must be at least 1"),
    ({"HERON_LLM_MAX_RETRIES": "-1"}, "HERON_LLM_MAX_RETRIES must be at least 0"),
    ({"HERON_LLM_BUDGET_USD": "0"}, "HERON_LLM_BUDGET_USD must be greater than 0"),
    ({"HERON_LLM_TEMPERATURE": "-0.1"}, "HERON_LLM_TEMPERATURE must not be negative"),
    ({"HERON_LLM_USD_PER_MTOK_PROMPT": "nan"}, "must be a finite number"),
])
def test_bad_settings_name_the_variable(env, message) -> None:
    with pytest.raises(LLMSettingsError, match=message):
        LLMSettings.from_environ(env)


def test_settings_from_environment(tmp_path) -> None:
    env = {"HERON_LLM_MODEL": "m", "HERON_LLM_BASE_URL": "http://x/v1", "HERON_LLM_TEMPERATURE": "0.2",
           "HERON_LLM_TIMEOUT": "7", "HERON_LLM_USD_PER_MTOK_PROMPT": "0.5", "HERON_LLM_CONCURRENCY": "2",
           "HERON_LLM_BUDGET_USD": "3.5", "HERON_LLM_SAMPLE_TEMPERATURE": "0.6", "HERON_LLM_CACHE_DIR": str(tmp_path),
           "HERON_LLM_MAX_TOKENS": "99", "HERON_LLM_MAX_RETRIES": "5", "HERON_LLM_API_KEY": "sk",
           "HERON_LLM_USD_PER_MTOK_COMPLETION": "1.5"}
    s = LLMSettings.from_environ(env)
    assert (s.model, s.base_url, s.api_key, s.temperature, s.timeout_s, s.concurrency, s.budget_usd,
            s.sample_temperature, s.cache_dir, s.max_tokens, s.max_retries, s.usd_per_mtok_prompt,
            s.usd_per_mtok_completion) == ("m", "http://x/v1", "sk", 0.2, 7.0, 2, 3.5, 0.6, tmp_path, 99, 5, 0.5, 1.5)
    assert s.configured and not LLMSettings.from_environ({}).configured
    assert LLMSettings.from_environ({}).concurrency == 4 and LLMSettings.from_environ({}).budget_usd is None
