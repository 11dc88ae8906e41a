"""Efficiency metrics from BIRD: reward correct predictions that run fast.

VES (Li et al. 2023, BIRD): reward = sqrt(gold_time / pred_time) when correct,
else 0; VES = 100 × mean reward.  R-VES (BIRD mini-dev) replaces the raw ratio
with a bounded bucketed reward so one lucky 100× speed-up cannot dominate.
Timing itself (warm once, time five runs) belongs to the harness; `best_of`
is the reduction it applies to the timed runs.
"""

from __future__ import annotations

import math
from typing import NamedTuple, Sequence


class TimedResult(NamedTuple):
    """One question's outcome: correctness and best wall times in seconds."""

    correct: bool
    gold_time: float
    pred_time: float


def best_of(times: Sequence[float]) -> float:
    """Fastest of the timed runs: the least noisy estimate of a query's own cost."""
    if not times:
        raise ValueError("no timed runs")
    return min(times)


def _time_ratio(result: TimedResult) -> float:
    if result.gold_time <= 0 or result.pred_time <= 0:
        raise ValueError(f"times must be positive, got {result.gold_time} and {result.pred_time}")
    return result.gold_time / result.pred_time


def ves_reward(result: TimedResult) -> float:
    """sqrt(gold_time / pred_time) for a correct prediction, 0 otherwise."""
    return math.sqrt(_time_ratio(result)) if result.correct else 0.0


def ves(results: Sequence[TimedResult]) -> float:
    """VES in percent: 100 × mean VES reward.  Can exceed 100 when predictions beat gold."""
    if not results:
        raise ValueError("VES of zero questions is undefined")
    return 100.0 * sum(ves_reward(r) for r in results) / len(results)


def r_ves_reward(result: TimedResult) -> float:
    """BIRD mini-dev bucketed reward for r = gold_time / pred_time (0 if wrong)."""
    if not result.correct:
        return 0.0
    r = _time_ratio(result)
    if r >= 2:
        return 1.25
    if r >= 1:
        return 1.0
    if r >= 0.5:
        return 0.75
    if r >= 0.25:
        return 0.5
    return 0.25


def r_ves(results: Sequence[TimedResult]) -> float:
    """R-VES in percent: 100 × mean of sqrt(bucketed reward)."""
    if not results:
        raise ValueError("R-VES of zero questions is undefined")
    return 100.0 * sum(math.sqrt(r_ves_reward(r)) for r in results) / len(results)
