"""Uncertainty and slicing of per-question scores.

A benchmark of a few hundred questions gives EX differences of a few points
that may be noise; the percentile bootstrap of the mean (Efron 1979) gives an
interval without assuming normality.  A fixed seed keeps reports reproducible.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Hashable, Mapping, Sequence

import numpy as np


def bootstrap_ci(
    values: Sequence[float | bool], resamples: int = 1000, seed: int = 0, level: float = 0.95
) -> tuple[float, float]:
    """Percentile bootstrap interval of the mean of `values`, in the values' own unit."""
    if len(values) == 0:
        raise ValueError("bootstrap of zero values is undefined")
    if not 0 < level < 1 or resamples < 1:
        raise ValueError("need 0 < level < 1 and resamples ≥ 1")
    data = np.asarray(values, dtype=float)
    rng = np.random.default_rng(seed)
    means = np.empty(resamples)
    chunk = max(1, 2_000_000 // len(data))  # bound memory for large inputs
    for start in range(0, resamples, chunk):
        stop = min(resamples, start + chunk)
        picks = rng.integers(0, len(data), size=(stop - start, len(data)))
        means[start:stop] = data[picks].mean(axis=1)
    tail = (1 - level) / 2 * 100
    low, high = np.percentile(means, [tail, 100 - tail])
    return float(low), float(high)


def breakdown(
    per_question_values: Mapping[Hashable, float | bool], tags: Mapping[Hashable, Sequence[str]]
) -> dict[str, tuple[int, float]]:
    """bucket → (n, mean value) over the questions carrying that bucket label.

    A question may sit in several buckets (shape, retrieval, trap); questions
    without a value are skipped.  Buckets come back sorted by label.
    """
    buckets: dict[str, list[float]] = defaultdict(list)
    for qid, labels in tags.items():
        if qid not in per_question_values:
            continue
        for label in dict.fromkeys(labels):  # a label listed twice counts once
            buckets[label].append(float(per_question_values[qid]))
    return {label: (len(v), sum(v) / len(v)) for label, v in sorted(buckets.items())}
