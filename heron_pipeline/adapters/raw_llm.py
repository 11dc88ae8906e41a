"""``raw-llm``: the whole schema in one prompt to an OpenAI-compatible model, SQL from the reply.

Follows the "raw" zero-shot baselines of the text-to-SQL literature (e.g. Rajkumar et al. 2022,
"Evaluating the Text-to-SQL Capabilities of Large Language Models": the schema as CREATE TABLE
statements, then the question) and the spec's raw-gpt-4o row. It simplifies them to one call with
no examples and no self-consistency; the only choice is the schema rendering: ``full`` (every
comment, ≈ 383 KB) or ``compact`` (names, types, keys, FKs and the comments that carry meaning,
≈ 146 KB; heron_pipeline.adapters.prompt). It is the baseline every smarter tool must beat.

Formerly ``llm``; that name stays as a deprecated alias (registry) resolving to ``raw-llm``.
"""

from __future__ import annotations

from typing import Any

from heron_pipeline.adapters.base import PredictionContext
from heron_pipeline.adapters.extract import NoSQLFound, extract_sql
from heron_pipeline.adapters.prompt import SCHEMA_STYLES, build_messages, render_schema
from heron_pipeline.adapters.tally import Tally
from heron_pipeline.llm.client import LLMClient
from heron_pipeline.llm.errors import NO_SQL
from heron_pipeline.predictions.record import PredictionRecord


class SchemaText:
    """The rendered schema of one catalog, made once per adapter (keyed by the catalog object
    itself: an ``id()`` could be reused by the next catalog)."""

    def __init__(self, style: str):
        if style not in SCHEMA_STYLES:
            raise ValueError(f"schema rendering must be one of {', '.join(SCHEMA_STYLES)}, got {style!r}")
        self.style = style
        self._of: object | None = None
        self._text = ""

    def __call__(self, catalog: Any) -> str:
        if self._of is not catalog:
            self._text, self._of = render_schema(catalog, self.style), catalog
        return self._text


class RawLLMAdapter:
    """Full-schema prompting (see module docstring)."""

    name = "raw-llm"

    def __init__(self, llm: LLMClient, *, schema: str = "full"):
        self.llm = llm
        self.settings = llm.settings
        self.schema_text = SchemaText(schema)

    def conditions(self) -> dict[str, Any]:
        return {**self.llm.conditions(), "schema": self.schema_text.style}

    def messages(self, question: Any, context: PredictionContext) -> list[dict[str, str]]:
        return build_messages(context.text_of(question), self.schema_text(context.schema()), context.conventions)

    def predict(self, question: Any, context: PredictionContext) -> list[PredictionRecord]:
        messages = self.messages(question, context)
        return [self._sample(question.id, i, messages) for i in range(context.n)]

    def _sample(self, question_id: str, sample: int, messages: list[dict[str, str]]) -> PredictionRecord:
        tally = Tally(question_id, sample)
        result = tally.add("generate", self.llm.complete(messages, sample=sample))
        if not result.ok:
            return tally.record(None, error_class=result.error_class, error=result.error)
        try:
            return tally.record(extract_sql(result.content))
        except NoSQLFound as err:
            return tally.record(None, error_class=NO_SQL, error=str(err))
