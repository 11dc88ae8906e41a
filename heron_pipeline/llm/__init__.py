"""The LLM layer: one dependable way to call an OpenAI-compatible chat endpoint (no Dagster).

Every LLM adapter goes through ``LLMClient.complete``: settings from ``HERON_LLM_*``, billed usage
only, cost from a dated price table, retries with backoff, a run budget, and a disk cache keyed by
the exact request in which failures are cached too (so a rerun makes zero requests).
"""

from heron_pipeline.llm.client import CallResult, LLMClient, RunStats
from heron_pipeline.llm.errors import (CACHED_FAILURES, ERROR_CLASSES, PROVIDER_FAILURES, LLMSettingsError)
from heron_pipeline.llm.prices import Price, check_budget, load_price_table, price_for
from heron_pipeline.llm.settings import LLMSettings

__all__ = ["CACHED_FAILURES", "ERROR_CLASSES", "PROVIDER_FAILURES", "CallResult", "LLMClient", "LLMSettings",
           "LLMSettingsError", "Price", "RunStats", "check_budget", "load_price_table", "price_for"]
