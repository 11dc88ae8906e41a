"""One call to an OpenAI-compatible chat endpoint, with everything a fair benchmark run needs.

``LLMClient.complete(messages, sample=i)`` returns a ``CallResult`` and never raises for the
provider's sake: the reply text, or one error class (``heron_pipeline.llm.errors``) with a one-line
message, plus the billed usage and its cost. Around the real ``openai`` client (its own retries
switched off, so each retry is counted here):

- retries with exponential backoff on 429, 408, 5xx and timeouts, honouring ``Retry-After`` /
  ``retry-after-ms`` (capped at ``RETRY_AFTER_CAP_S``); connection refusals fail at once — an
  endpoint that is down is an outage to report, not a reason to wait minutes per question;
- the disk cache (``heron_pipeline.llm.cache``) consulted first; good replies AND provider
  failures are written, ``retry_failed`` re-asks only cached failures, ``offline`` never sends
  (a miss is ``cache_miss``);
- the run budget: once the cost of this run's requests reaches ``budget_usd`` every further call
  is refused as ``budget`` before anything is sent (requests already in flight may finish: the
  overshoot is bounded by ``concurrency`` calls);
- thread safety: one client is shared by the worker threads of a tool run; ``RunStats`` is
  updated under a lock.

Usage is only what the response's ``usage`` says (prompt, cached prompt, completion); a call that
failed before a response exists has no usage and is costed 0 — the provider did not report billing
it. A cache hit reproduces the usage, cost and latency of the call that was billed, so a rerun's
records are the same bytes; this run's own spending is ``RunStats.spent_usd``.
"""

from __future__ import annotations

import email.utils
import random
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

import openai

from heron_pipeline.llm.cache import ResponseCache, request_key
from heron_pipeline.llm.errors import (BUDGET, CACHE_MISS, CACHED_FAILURES, MALFORMED_REPLY, PROVIDER_CONNECTION,
                                       PROVIDER_HTTP, PROVIDER_TIMEOUT)
from heron_pipeline.llm.prices import Price, check_budget, price_for
from heron_pipeline.llm.settings import LLMSettings

RETRY_AFTER_CAP_S = 60.0
BACKOFF_BASE_S = 0.5
BACKOFF_CAP_S = 8.0
CACHE_FORMAT = 2


@dataclass(frozen=True)
class CallResult:
    """The outcome of one logical call (all its retries): ``content`` or ``error_class``/``error``."""

    content: str | None
    error_class: str | None = None
    error: str | None = None
    prompt_tokens: int | None = None
    cached_prompt_tokens: int | None = None
    completion_tokens: int | None = None
    cost_usd: float | None = None
    latency_s: float | None = None
    from_cache: bool = False

    @property
    def ok(self) -> bool:
        return self.error_class is None


@dataclass
class RunStats:
    """Counters of one tool run (what the progress line and the summary show)."""

    calls: int = 0  # logical calls, cache hits included
    requests: int = 0  # HTTP requests sent, retries included
    retries: int = 0
    cache_hits: int = 0
    spent_usd: float = 0.0  # cost of this run's requests (the budget's measure)
    failures_by_class: dict[str, int] = field(default_factory=dict)  # per logical call
    lock: threading.Lock = field(default_factory=threading.Lock, repr=False, compare=False)

    def snapshot(self) -> dict[str, Any]:
        with self.lock:
            return {"calls": self.calls, "requests": self.requests, "retries": self.retries,
                    "cache_hits": self.cache_hits, "spent_usd": self.spent_usd,
                    "call_failures_by_class": dict(sorted(self.failures_by_class.items()))}


def _usage_of(response: Any) -> tuple[int | None, int | None, int | None]:
    usage = getattr(response, "usage", None)
    if usage is None:
        return None, None, None
    details = getattr(usage, "prompt_tokens_details", None)
    cached = getattr(details, "cached_tokens", None) if details is not None else None
    return getattr(usage, "prompt_tokens", None), cached, getattr(usage, "completion_tokens", None)


def retry_after_s(err: Exception) -> float | None:
    """Seconds the server asked us to wait (``retry-after-ms`` or ``Retry-After`` seconds / HTTP date)."""
    response = getattr(err, "response", None)
    headers = getattr(response, "headers", None)
    if headers is None:
        return None
    raw_ms = headers.get("retry-after-ms")
    if raw_ms:
        try:
            return max(0.0, float(raw_ms) / 1000)
        except ValueError:
            pass
    raw = headers.get("retry-after")
    if not raw:
        return None
    try:
        return max(0.0, float(raw))
    except ValueError:
        pass
    try:
        when = email.utils.parsedate_to_datetime(raw)
    except (TypeError, ValueError):
        return None
    return max(0.0, when.timestamp() - time.time())


def _retryable(err: Exception) -> bool:
    if isinstance(err, openai.APITimeoutError):
        return True
    if isinstance(err, openai.APIStatusError):
        return err.status_code in (408, 429) or err.status_code >= 500
    return False


class LLMClient:
    """Calls one model at one endpoint for one tool run (see module docstring)."""

    def __init__(self, settings: LLMSettings, *, cache_dir: Path | None = None, offline: bool = False,
                 retry_failed: bool = False, client: Any = None, sleep: Callable[[float], None] = time.sleep,
                 price: Price | None | str = "table"):
        if not settings.configured:
            raise ValueError("the LLM tools need a model and an endpoint: set HERON_LLM_MODEL and HERON_LLM_BASE_URL")
        self.settings = settings
        self.price = price_for(settings) if price == "table" else price
        check_budget(settings, self.price)  # type: ignore[arg-type]
        # HERON_LLM_CACHE_DIR, when set, wins over the caller's default location (<artifacts>/llm_cache)
        directory = settings.cache_dir or cache_dir
        self.cache = ResponseCache(directory) if directory else None
        self.offline = offline
        self.retry_failed = retry_failed
        self.sleep = sleep
        self.stats = RunStats()
        self._random = random.Random()
        self._client = client or openai.OpenAI(base_url=settings.base_url, api_key=settings.api_key or "not-needed",
                                               timeout=settings.timeout_s, max_retries=0)

    # -- public ---------------------------------------------------------------------------------
    @property
    def budget_reached(self) -> bool:
        budget = self.settings.budget_usd
        with self.stats.lock:
            return budget is not None and self.stats.spent_usd >= budget

    def params(self, sample: int) -> dict[str, Any]:
        """The request parameters that are part of the cache key."""
        return {"temperature": self.settings.temperature_of(sample), "max_tokens": self.settings.max_tokens,
                "sample": sample}

    def conditions(self) -> dict[str, Any]:
        """Model, endpoint, sampling and price: what the tool's numbers were measured under."""
        s = self.settings
        return {"model": s.model, "base_url": s.base_url, "temperature": s.temperature,
                "sample_temperature": s.sample_temperature, "max_tokens": s.max_tokens,
                "price_usd_per_mtok": self.price.to_json() if self.price else None}

    def complete(self, messages: list[dict[str, str]], *, sample: int = 0) -> CallResult:
        """The reply to ``messages`` as sample ``sample`` (cache first; see module docstring)."""
        key = request_key(self.settings.model, messages, self.params(sample))
        entry = self.cache.get(key) if self.cache else None
        if entry is not None and not (self.retry_failed and self._outcome(entry) in CACHED_FAILURES):
            result = self._result(entry, from_cache=True)
            self._count(result, hit=True)
            return result
        if self.offline:
            result = CallResult(None, CACHE_MISS, "offline and not in the response cache")
            self._count(result)
            return result
        if self.budget_reached:
            result = CallResult(None, BUDGET, f"run budget of ${self.settings.budget_usd:g} reached")
            self._count(result)
            return result
        entry = self._send(messages, sample)
        if self.cache is not None:
            self.cache.put(key, entry)
        result = self._result(entry, from_cache=False)
        with self.stats.lock:
            self.stats.spent_usd += result.cost_usd or 0.0
        self._count(result)
        return result

    # -- internals ------------------------------------------------------------------------------
    @staticmethod
    def _outcome(entry: dict[str, Any]) -> str:
        return str(entry.get("outcome") or "ok")  # entries of the first cache format were replies only

    def _result(self, entry: dict[str, Any], *, from_cache: bool) -> CallResult:
        prompt, cached, completion = (entry.get("prompt_tokens"), entry.get("cached_prompt_tokens"),
                                      entry.get("completion_tokens"))
        cost = self.price.cost(prompt, cached, completion) if self.price else None
        outcome = self._outcome(entry)
        content = entry.get("content") if outcome == "ok" else None
        if outcome == "ok" and not isinstance(content, str):
            outcome, entry = MALFORMED_REPLY, {**entry, "error": "cached reply has no text"}
        return CallResult(content=content, error_class=None if outcome == "ok" else outcome,
                          error=entry.get("error") if outcome != "ok" else None, prompt_tokens=prompt,
                          cached_prompt_tokens=cached, completion_tokens=completion, cost_usd=cost,
                          latency_s=entry.get("latency_s"), from_cache=from_cache)

    def _count(self, result: CallResult, *, hit: bool = False) -> None:
        with self.stats.lock:
            self.stats.calls += 1
            self.stats.cache_hits += hit
            if result.error_class:
                self.stats.failures_by_class[result.error_class] = self.stats.failures_by_class.get(
                    result.error_class, 0) + 1

    def _backoff(self, attempt: int, err: Exception) -> float:
        asked = retry_after_s(err)
        if asked is not None:
            return min(asked, RETRY_AFTER_CAP_S)
        return min(BACKOFF_CAP_S, BACKOFF_BASE_S * 2 ** attempt) * self._random.uniform(0.8, 1.2)

    def _send(self, messages: list[dict[str, str]], sample: int) -> dict[str, Any]:
        """A cache entry for the request: the reply, or the failure class of its last attempt."""
        s = self.settings
        started = time.perf_counter()
        attempt = 0
        while True:
            with self.stats.lock:
                self.stats.requests += 1
            try:
                response = self._client.chat.completions.create(
                    model=s.model, messages=messages, temperature=s.temperature_of(sample), max_tokens=s.max_tokens)
                break
            except Exception as err:  # noqa: BLE001 - every failure becomes a class below
                if _retryable(err) and attempt < s.max_retries:
                    wait = self._backoff(attempt, err)
                    with self.stats.lock:
                        self.stats.retries += 1
                    attempt += 1
                    self.sleep(wait)
                    continue
                return self._failure(err, started, attempt)
        latency = time.perf_counter() - started
        prompt, cached, completion = _usage_of(response)
        entry: dict[str, Any] = {"v": CACHE_FORMAT, "latency_s": latency, "prompt_tokens": prompt,
                                 "cached_prompt_tokens": cached, "completion_tokens": completion,
                                 "retries": attempt, "response_model": getattr(response, "model", None)}
        choices = getattr(response, "choices", None) or []
        message = getattr(choices[0], "message", None) if choices else None
        content = getattr(message, "content", None)
        if not isinstance(content, str):
            return {**entry, "outcome": MALFORMED_REPLY, "error": "the reply has no message text"}
        return {**entry, "outcome": "ok", "content": content}

    def _failure(self, err: Exception, started: float, attempts: int) -> dict[str, Any]:
        if isinstance(err, openai.APITimeoutError):
            outcome, line = PROVIDER_TIMEOUT, f"no reply within {self.settings.timeout_s:g} s"
        elif isinstance(err, openai.APIStatusError):
            outcome, line = PROVIDER_HTTP, f"HTTP {err.status_code} {type(err).__name__}"
        elif isinstance(err, openai.APIConnectionError):
            cause = err.__cause__ or err.__context__
            outcome, line = PROVIDER_CONNECTION, f"{type(err).__name__}: {type(cause).__name__ if cause else 'no detail'}"
        else:  # undecodable body, response model validation, anything the client could not parse
            outcome, line = MALFORMED_REPLY, f"{type(err).__name__}: {' '.join(str(err).split())[:120]}"
        if attempts:
            line += f" (after {attempts} retr{'y' if attempts == 1 else 'ies'})"
        return {"v": CACHE_FORMAT, "outcome": outcome, "error": line, "latency_s": time.perf_counter() - started,
                "prompt_tokens": None, "cached_prompt_tokens": None, "completion_tokens": None, "retries": attempts}
