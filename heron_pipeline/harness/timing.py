"""VES timing as BIRD defines it: warm each query once, then the minimum of five timed runs.

Gold and prediction are timed in the same run, interleaved (gold, prediction, gold, …), so a burst
of load on the shared machine hits both alike; the fetch is inside the timed region because a query
that returns a million rows is not fast just because its plan is. Timing never decides correctness:
it runs only for predictions already judged correct — but a timed run must give the answer the
scored run gave (issue 33, ``harness.state_run``): each run here may check its own rows.
"""

from __future__ import annotations

import time
from typing import Any, Callable

from heron_pipeline.scoring import best_of

WARMUPS = 1
TIMED_RUNS = 5


def _timed(run: Callable[[], Any]) -> float:
    started = time.perf_counter()
    run()
    return time.perf_counter() - started


def time_runs(run_gold: Callable[[], float], run_pred: Callable[[], float],
              runs: int = TIMED_RUNS) -> tuple[float, float]:
    """(gold seconds, prediction seconds) from callables that measure themselves (each returns the
    seconds of its own execution, e.g. the sandbox's stopwatch, which leaves the connection out):
    each warmed once, then the best of ``runs`` interleaved runs."""
    for _ in range(WARMUPS):
        run_gold()
        run_pred()
    gold_times, pred_times = [], []
    for _ in range(runs):
        gold_times.append(run_gold())
        pred_times.append(run_pred())
    return best_of(gold_times), best_of(pred_times)


def time_pair(run_gold: Callable[[], Any], run_pred: Callable[[], Any], runs: int = TIMED_RUNS) -> tuple[float, float]:
    """(gold seconds, prediction seconds): each warmed once, then the best of ``runs`` interleaved
    runs, each timed around the whole call."""
    return time_runs(lambda: _timed(run_gold), lambda: _timed(run_pred), runs)
