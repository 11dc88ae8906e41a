"""The LLM layer's settings, read once from ``HERON_LLM_*`` by the caller at run time.

Kept apart from heron's core Settings because only the LLM tools use them. Every variable that
worked before keeps its name and meaning (MODEL, BASE_URL, API_KEY, TEMPERATURE, TIMEOUT, MAX_TOKENS,
MAX_RETRIES, USD_PER_MTOK_PROMPT, USD_PER_MTOK_COMPLETION, CACHE_DIR); CONCURRENCY, BUDGET_USD,
SAMPLE_TEMPERATURE and USD_PER_MTOK_CACHED_PROMPT are new. A bad value is one line naming the
variable, never a traceback from deep inside a run.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Mapping

from heron_pipeline.llm.errors import LLMSettingsError

#: field → (variable, parser name)
ENV_VARS: dict[str, tuple[str, str]] = {
    "model": ("HERON_LLM_MODEL", "text"),
    "base_url": ("HERON_LLM_BASE_URL", "text"),
    "api_key": ("HERON_LLM_API_KEY", "text"),
    "temperature": ("HERON_LLM_TEMPERATURE", "temperature"),
    "sample_temperature": ("HERON_LLM_SAMPLE_TEMPERATURE", "temperature"),
    "timeout_s": ("HERON_LLM_TIMEOUT", "positive"),
    "max_tokens": ("HERON_LLM_MAX_TOKENS", "count"),
    "max_retries": ("HERON_LLM_MAX_RETRIES", "retries"),
    "concurrency": ("HERON_LLM_CONCURRENCY", "count"),
    "budget_usd": ("HERON_LLM_BUDGET_USD", "positive"),
    "usd_per_mtok_prompt": ("HERON_LLM_USD_PER_MTOK_PROMPT", "price"),
    "usd_per_mtok_cached_prompt": ("HERON_LLM_USD_PER_MTOK_CACHED_PROMPT", "price"),
    "usd_per_mtok_completion": ("HERON_LLM_USD_PER_MTOK_COMPLETION", "price"),
    "cache_dir": ("HERON_LLM_CACHE_DIR", "path"),
}

#: Sampling temperature of samples 1..n-1 when none is set: the Codex paper's (Chen et al. 2021)
#: best temperature for pass@k with large k; sample 0 stays at ``temperature`` (0 on the board).
DEFAULT_SAMPLE_TEMPERATURE = 0.8


@dataclass(frozen=True)
class LLMSettings:
    """Endpoint, model, sampling, limits and (optional) override prices of every LLM tool."""

    model: str = ""
    base_url: str = ""
    api_key: str = ""
    temperature: float = 0.0
    sample_temperature: float = DEFAULT_SAMPLE_TEMPERATURE
    timeout_s: float = 60.0
    max_tokens: int = 1024
    max_retries: int = 2
    concurrency: int = 4
    budget_usd: float | None = None
    usd_per_mtok_prompt: float | None = None
    usd_per_mtok_cached_prompt: float | None = None
    usd_per_mtok_completion: float | None = None
    cache_dir: Path | None = None

    @property
    def configured(self) -> bool:
        """True when a model and an endpoint are set (the LLM tools can run)."""
        return bool(self.model and self.base_url)

    def temperature_of(self, sample: int) -> float:
        """Sample 0 at the configured temperature, every further sample at the sampling temperature."""
        return self.temperature if sample == 0 else self.sample_temperature

    @classmethod
    def from_environ(cls, environ: Mapping[str, str] | None = None) -> "LLMSettings":
        """The settings from ``HERON_LLM_*`` (unset or empty variables keep the defaults)."""
        env = os.environ if environ is None else environ
        kwargs: dict[str, Any] = {}
        for name, (var, kind) in ENV_VARS.items():
            raw = env.get(var)
            if raw is None or not raw.strip():
                continue
            kwargs[name] = _parse(var, kind, raw.strip())
        return cls(**kwargs)


def _parse(var: str, kind: str, raw: str) -> Any:
    if kind == "text":
        return raw
    if kind == "path":
        return Path(raw).expanduser()
    if kind in ("count", "retries"):
        try:
            value = int(raw)
        except ValueError:
            raise LLMSettingsError(f"{var} must be a whole number, got {raw!r}") from None
        if value < (0 if kind == "retries" else 1):
            raise LLMSettingsError(f"{var} must be at least {0 if kind == 'retries' else 1}, got {value}")
        return value
    try:
        value = float(raw)
    except ValueError:
        raise LLMSettingsError(f"{var} must be a number, got {raw!r}") from None
    if value != value or value in (float("inf"), float("-inf")):
        raise LLMSettingsError(f"{var} must be a finite number, got {raw!r}")
    if kind == "positive" and value <= 0:
        raise LLMSettingsError(f"{var} must be greater than 0, got {raw!r}")
    if kind in ("temperature", "price") and value < 0:
        raise LLMSettingsError(f"{var} must not be negative, got {raw!r}")
    return value
