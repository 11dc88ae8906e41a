"""Paired differences over the same questions: the contamination gap and "A vs B" on the board.

Two figures measured on the same questions are not independent — a hard question is hard for both
— so their difference gets a paired bootstrap: resample question ids with replacement and take the
difference of the two means on the same resample (Efron & Tibshirani 1993, ch. 16; the paired
bootstrap test of Berg-Kirkpatrick et al. 2012 for NLP systems). The interval is the percentile
interval of those differences, with the board's resamples, seed and level (1000, 0, 95 %), so one
reader's "A vs B: +4.0 [1.0, 7.0]" is reproducible by anyone from the per-question vectors.

Why the bootstrap and not McNemar's exact test: the board reports intervals in points, not
p-values, and the same procedure serves the contamination gap (public draw vs hidden draw, paired
by question id: q017 of the public set and q017 of a draw are the same template with other values).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping

import numpy as np

RESAMPLES, SEED, LEVEL = 1000, 0, 0.95
#: A tool is flagged when the lower end of its gap's interval lies above this many points.
GAP_FLAG_POINTS = 10.0
FLAG_TEXT = "public answers not reproduced on a hidden draw"


@dataclass(frozen=True)
class PairedDifference:
    """``a − b`` in points (0–100 scale) with its paired bootstrap interval over ``n`` questions."""

    difference: float
    low: float
    high: float
    n: int

    def to_json(self) -> dict[str, float | int]:
        return {"difference": round(self.difference, 2), "ci": [round(self.low, 2), round(self.high, 2)],
                "questions": self.n}


def paired_difference(a: Mapping[str, bool | int], b: Mapping[str, bool | int], *, resamples: int = RESAMPLES,
                      seed: int = SEED, level: float = LEVEL) -> PairedDifference:
    """Mean of ``a`` minus mean of ``b`` (×100) over the question ids both hold, with a paired bootstrap CI."""
    ids = sorted(set(a) & set(b))
    if not ids:
        raise ValueError("a paired difference needs at least one question both sides answered")
    diff = np.asarray([float(bool(a[q])) - float(bool(b[q])) for q in ids])
    rng = np.random.default_rng(seed)
    picks = rng.integers(0, len(ids), size=(resamples, len(ids)))
    means = diff[picks].mean(axis=1) * 100
    tail = (1 - level) / 2 * 100
    low, high = np.percentile(means, [tail, 100 - tail])
    return PairedDifference(float(diff.mean() * 100), float(low), float(high), len(ids))


def flagged(gap: PairedDifference, threshold: float = GAP_FLAG_POINTS) -> bool:
    """True when the whole interval of public − hidden lies above ``threshold`` points."""
    return gap.low > threshold


def mean_ci(values: Mapping[str, bool | int]) -> tuple[float, list[float]]:
    """(mean × 100, [low, high]) with the board's percentile bootstrap (``scoring.bootstrap_ci``)."""
    from heron_pipeline.scoring import bootstrap_ci

    data = [float(bool(v)) for _k, v in sorted(values.items())]
    low, high = bootstrap_ci(data, resamples=RESAMPLES, seed=SEED, level=LEVEL)
    return round(100 * sum(data) / len(data), 2), [round(100 * low, 2), round(100 * high, 2)]
