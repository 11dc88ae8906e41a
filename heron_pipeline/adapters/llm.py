"""Deprecated module path: the LLM settings now live in ``heron_pipeline.llm`` and the adapter is
``raw-llm`` (heron_pipeline.adapters.raw_llm). Kept so that callers written before the bench core
(``heron bench``'s and the Dagster layer's ``from heron_pipeline.adapters.llm import LLMSettings``)
keep working until they are updated."""

from heron_pipeline.llm.settings import LLMSettings

__all__ = ["LLMSettings"]
