"""Tool adapters: a registry of tools that turn questions into predicted SQL (no Dagster)."""

from heron_pipeline.adapters.base import Adapter, PredictionContext
from heron_pipeline.adapters.reference import AltAdapter, GoldAdapter
from heron_pipeline.adapters.registry import adapter_names, create_adapter, register

__all__ = ["Adapter", "AltAdapter", "GoldAdapter", "PredictionContext", "adapter_names", "create_adapter", "register"]
