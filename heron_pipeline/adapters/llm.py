"""``llm``: a full-schema prompt to any OpenAI-compatible chat-completions endpoint.

The baseline every smarter tool must beat: the whole schema (tables, columns, comments, foreign
keys) in the system prompt, the question as the user message, SQL extracted from the reply. Uses
the real ``openai`` client so that any compatible server (OpenAI, vLLM, llama.cpp, Ollama) works.

Failure is data, not a crash: a timeout, an HTTP error, a connection error or a reply with no SQL
becomes a PredictionRecord with ``error`` set. Token counts come from the provider's billed
``usage``; a response is cached on disk by the hash of the request, so a re-run costs nothing and
reproduces the same record (with the usage and latency of the call that was billed).
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Mapping

import openai

from heron_pipeline.adapters.base import PredictionContext
from heron_pipeline.adapters.cache import ResponseCache, request_key
from heron_pipeline.adapters.extract import NoSQLFound, extract_sql
from heron_pipeline.adapters.prompt import build_messages, render_schema
from heron_pipeline.predictions.record import PredictionRecord

_ENV = {
    "base_url": "HERON_LLM_BASE_URL",
    "model": "HERON_LLM_MODEL",
    "api_key": "HERON_LLM_API_KEY",
    "temperature": "HERON_LLM_TEMPERATURE",
    "timeout_s": "HERON_LLM_TIMEOUT",
    "max_tokens": "HERON_LLM_MAX_TOKENS",
    "max_retries": "HERON_LLM_MAX_RETRIES",
    "usd_per_mtok_prompt": "HERON_LLM_USD_PER_MTOK_PROMPT",
    "usd_per_mtok_completion": "HERON_LLM_USD_PER_MTOK_COMPLETION",
    "cache_dir": "HERON_LLM_CACHE_DIR",
}


@dataclass(frozen=True)
class LLMSettings:
    """Endpoint, model and sampling of the ``llm`` adapter, and its prices for the cost column.

    Kept apart from heron's core Settings because only this adapter uses it; ``from_environ`` is the
    one place it reads ``HERON_LLM_*`` variables (called by the registry's factory, i.e. the CLI or
    Dagster layer).
    """

    model: str = ""
    base_url: str = ""
    api_key: str = ""
    temperature: float = 0.0
    timeout_s: float = 60.0
    max_tokens: int = 1024
    max_retries: int = 2
    usd_per_mtok_prompt: float = 0.0
    usd_per_mtok_completion: float = 0.0
    cache_dir: Path | None = None

    @property
    def configured(self) -> bool:
        return bool(self.model and self.base_url)

    @classmethod
    def from_environ(cls, environ: Mapping[str, str] | None = None) -> "LLMSettings":
        env = os.environ if environ is None else environ
        kwargs: dict[str, Any] = {}
        for name, var in _ENV.items():
            raw = env.get(var)
            if not raw:
                continue
            if name in ("temperature", "timeout_s", "usd_per_mtok_prompt", "usd_per_mtok_completion"):
                kwargs[name] = float(raw)
            elif name in ("max_tokens", "max_retries"):
                kwargs[name] = int(raw)
            elif name == "cache_dir":
                kwargs[name] = Path(raw)
            else:
                kwargs[name] = raw
        return cls(**kwargs)


class LLMAdapter:
    """Full-schema prompting over an OpenAI-compatible endpoint (see module docstring)."""

    name = "llm"

    def __init__(self, settings: LLMSettings, *, cache_dir: Path | None = None, client: Any = None):
        if not settings.configured:
            raise ValueError("llm adapter needs a model and a base_url (HERON_LLM_MODEL, HERON_LLM_BASE_URL)")
        self.settings = settings
        directory = cache_dir or settings.cache_dir
        self.cache = ResponseCache(directory) if directory else None
        self.client = client or openai.OpenAI(
            base_url=settings.base_url, api_key=settings.api_key or "not-needed",
            timeout=settings.timeout_s, max_retries=settings.max_retries,
        )
        self.calls = 0  # requests actually sent (cache misses), for tests and cost reports
        self._schema_text: str | None = None
        self._schema_of: object | None = None  # the catalog itself: an id() could be reused

    def conditions(self) -> dict[str, Any]:
        return {"model": self.settings.model, "temperature": self.settings.temperature,
                "base_url": self.settings.base_url, "max_tokens": self.settings.max_tokens}

    def _schema(self, context: PredictionContext) -> str:
        if context.catalog is None:
            from heron_pipeline.catalog import load_catalog

            context = PredictionContext(scale=context.scale, n=context.n, catalog=load_catalog())
        if self._schema_of is not context.catalog:
            self._schema_text, self._schema_of = render_schema(context.catalog), context.catalog
        return self._schema_text  # type: ignore[return-value]

    def predict(self, question: Any, context: PredictionContext) -> list[PredictionRecord]:
        messages = build_messages(question.question, self._schema(context))
        return [self._sample(question.id, i, messages) for i in range(context.n)]

    def _sample(self, question_id: str, sample: int, messages: list[dict[str, str]]) -> PredictionRecord:
        params = {"temperature": self.settings.temperature, "max_tokens": self.settings.max_tokens, "sample": sample}
        key = request_key(self.settings.model, messages, params)
        entry = self.cache.get(key) if self.cache else None
        if entry is None:
            entry, error = self._call(messages)
            if error is not None:
                return PredictionRecord(question_id, sample, None, error=error, latency_s=entry.get("latency_s"),
                                        prompt_tokens=entry.get("prompt_tokens"),
                                        completion_tokens=entry.get("completion_tokens"))
            if self.cache:
                self.cache.put(key, entry)
        usage = {k: entry.get(k) for k in ("prompt_tokens", "completion_tokens", "latency_s")}
        try:
            sql = extract_sql(entry.get("content"))
        except NoSQLFound as err:
            return PredictionRecord(question_id, sample, None, error=f"garbage: {err}", **usage)
        return PredictionRecord(question_id, sample, sql, **usage)

    def _call(self, messages: list[dict[str, str]]) -> tuple[dict[str, Any], str | None]:
        """(response entry, None) or (partial entry, one-line error)."""
        self.calls += 1
        started = time.perf_counter()
        try:
            response = self.client.chat.completions.create(
                model=self.settings.model, messages=messages,
                temperature=self.settings.temperature, max_tokens=self.settings.max_tokens,
            )
        except openai.APITimeoutError:
            return {"latency_s": time.perf_counter() - started}, f"timeout: no reply within {self.settings.timeout_s:g} s"
        except openai.APIStatusError as err:
            return {"latency_s": time.perf_counter() - started}, f"http: {err.status_code} {type(err).__name__}"
        except openai.APIConnectionError as err:
            return {"latency_s": time.perf_counter() - started}, f"connection: {type(err).__name__}"
        except (openai.OpenAIError, ValueError, TypeError) as err:  # undecodable body
            return {"latency_s": time.perf_counter() - started}, f"garbage: {type(err).__name__}: {str(err)[:80]}"
        latency = time.perf_counter() - started
        usage = getattr(response, "usage", None)
        entry = {
            "latency_s": latency,
            "prompt_tokens": getattr(usage, "prompt_tokens", None),
            "completion_tokens": getattr(usage, "completion_tokens", None),
        }
        choices = getattr(response, "choices", None) or []
        message = getattr(choices[0], "message", None) if choices else None
        content = getattr(message, "content", None)
        if not isinstance(content, str):
            return entry, "garbage: reply has no message content"
        entry["content"] = content
        entry["model"] = getattr(response, "model", None)
        return entry, None
