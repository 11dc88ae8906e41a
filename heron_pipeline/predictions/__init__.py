"""Prediction records and their immutable artifacts (no Dagster)."""

from heron_pipeline.predictions.record import PredictionRecord

__all__ = ["PredictionRecord"]
