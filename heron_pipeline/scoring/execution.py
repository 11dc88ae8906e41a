"""Execution accuracy: the share of questions whose predicted result matches gold.

EX (Spider/BIRD) is the headline metric; multi-state EX (test-suite accuracy,
Zhong et al. 2020) only credits a question when the prediction matches on every
database state, which catches queries that are right by coincidence; pass@k
(Chen et al. 2021) credits a question when any of k samples is correct.
"""

from __future__ import annotations

from typing import Hashable, Mapping, Sequence


def ex(results: Sequence[bool]) -> float:
    """EX in percent: 100 × correct ÷ questions.  An empty list has no EX (ValueError)."""
    if not results:
        raise ValueError("EX of zero questions is undefined")
    return 100.0 * sum(bool(r) for r in results) / len(results)


def multi_state_ex(per_question_per_state: Mapping[Hashable, Sequence[bool]]) -> float:
    """Percent of questions correct on ALL database states.

    A question with no recorded state has no evidence of being right and counts
    as wrong (Python's all([]) would say True).
    """
    if not per_question_per_state:
        raise ValueError("multi-state EX of zero questions is undefined")
    return ex([bool(states) and all(states) for states in per_question_per_state.values()])


def pass_at_k(n: int, c: int, k: int) -> float:
    """Unbiased pass@k from n samples of which c are correct: 1 − C(n−c, k) / C(n, k).

    Computed as 1 − ∏_{i=n−c+1..n} (1 − k/i), which never forms the huge
    binomials; it is exactly 1 when fewer than k samples are wrong.
    """
    if k < 1 or n < 0 or not 0 <= c <= n:
        raise ValueError(f"need k ≥ 1 and 0 ≤ c ≤ n, got n={n}, c={c}, k={k}")
    if n < k:
        raise ValueError(f"pass@{k} needs at least {k} samples, got n={n}")
    if n - c < k:
        return 1.0
    product = 1.0
    for i in range(n - c + 1, n + 1):
        product *= 1.0 - k / i
    return 1.0 - product


def ex_at_k(samples: Mapping[Hashable, Sequence[bool]], k: int) -> float:
    """EX@k in percent: mean pass@k over questions, each from its own sample outcomes."""
    if not samples:
        raise ValueError("EX@k of zero questions is undefined")
    scores = [pass_at_k(len(outcomes), sum(bool(o) for o in outcomes), k) for outcomes in samples.values()]
    return 100.0 * sum(scores) / len(scores)
