"""What a call cost: billed usage times a dated per-model price, or "unknown" — never a guessed 0.

The table (``prices.json`` beside this module) holds USD per million tokens for prompt, cached
prompt and completion tokens, each row dated, because prices change and a cost figure without the
date of its price cannot be checked. ``HERON_LLM_USD_PER_MTOK_*`` override single fields of a row or
price a model that is not listed. Lookup is by the exact model name the endpoint is asked for:
a proxy's alias or a local model is unknown unless overridden, which is the honest answer.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from heron_pipeline.llm.errors import LLMSettingsError

PRICE_TABLE = Path(__file__).with_name("prices.json")


@dataclass(frozen=True)
class Price:
    """USD per million tokens; ``source`` says where the figures came from (table row date / override)."""

    prompt: float
    cached_prompt: float
    completion: float
    source: str

    def cost(self, prompt_tokens: int | None, cached_prompt_tokens: int | None, completion_tokens: int | None) -> float:
        """Cost of one call's billed usage; tokens the provider did not report count as 0 (not billed).

        Cached prompt tokens are part of ``prompt_tokens`` (OpenAI's usage convention) and are billed
        at the cached price instead of the prompt price.
        """
        prompt = prompt_tokens or 0
        cached = min(cached_prompt_tokens or 0, prompt)
        return ((prompt - cached) * self.prompt + cached * self.cached_prompt
                + (completion_tokens or 0) * self.completion) / 1e6

    def to_json(self) -> dict[str, Any]:
        return {"prompt": self.prompt, "cached_prompt": self.cached_prompt, "completion": self.completion,
                "source": self.source}


@lru_cache(maxsize=4)
def load_price_table(path: Path = PRICE_TABLE) -> dict[str, dict[str, Any]]:
    """model → row of the price table; a malformed table is an error naming the file."""
    try:
        doc = json.loads(Path(path).read_text(encoding="utf-8"))
        models = doc["models"]
        for name, row in models.items():
            for key in ("prompt", "completion", "as_of"):
                if key not in row:
                    raise KeyError(f"{name}: {key}")
    except (OSError, ValueError, KeyError, TypeError) as err:
        raise LLMSettingsError(f"price table {path} is malformed: {err}") from None
    return models


def price_for(settings: Any, table: dict[str, dict[str, Any]] | None = None) -> Price | None:
    """The price of ``settings.model``: the table row with the override variables on top, or None
    when the prompt or the completion price is still unknown."""
    row = dict((load_price_table() if table is None else table).get(settings.model) or {})
    overrides = {"prompt": settings.usd_per_mtok_prompt, "cached_prompt": settings.usd_per_mtok_cached_prompt,
                 "completion": settings.usd_per_mtok_completion}
    overridden = sorted(k for k, v in overrides.items() if v is not None)
    row.update({k: v for k, v in overrides.items() if v is not None})
    if row.get("prompt") is None or row.get("completion") is None:
        return None
    if row.get("cached_prompt") is None:
        row["cached_prompt"] = row["prompt"]  # no cached rate known: bill cached tokens in full (an upper bound)
    source = f"table {row['as_of']}" if "as_of" in row else "override"
    if overridden and "as_of" in row:
        source += f", override {'/'.join(overridden)}"
    return Price(float(row["prompt"]), float(row["cached_prompt"]), float(row["completion"]), source)


def check_budget(settings: Any, price: Price | None) -> None:
    """A budget needs a price: refuse HERON_LLM_BUDGET_USD for a model whose cost would be unknown."""
    if settings.budget_usd is not None and price is None:
        raise LLMSettingsError(
            f"HERON_LLM_BUDGET_USD is set but model {settings.model!r} has no known price: set "
            f"HERON_LLM_USD_PER_MTOK_PROMPT and HERON_LLM_USD_PER_MTOK_COMPLETION (or unset the budget)")
