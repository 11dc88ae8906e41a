"""Hand-computed tables for the execution, efficiency, retrieval, grade and confidence metrics."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from heron_pipeline.scoring import (
    TimedResult,
    ToolDims,
    best_of,
    bootstrap_ci,
    breakdown,
    ex,
    ex_at_k,
    grade,
    multi_state_ex,
    pass_at_k,
    r_ves,
    r_ves_reward,
    set_recall_at_k,
    ves,
    ves_reward,
)

# --- EX ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("results", "expected"),
    [([True, False, True, True], 75.0), ([False], 0.0), ([True] * 3, 100.0)],
)
def test_ex(results, expected):
    assert ex(results) == pytest.approx(expected)


def test_ex_of_nothing_is_undefined():
    with pytest.raises(ValueError):
        ex([])


def test_multi_state_ex_needs_every_state():
    # q1 all right, q2 one state wrong, q3 no states (counts wrong), q4 single state right → 2/4
    per_state = {"q1": [True, True], "q2": [True, False], "q3": [], "q4": [True]}
    assert multi_state_ex(per_state) == pytest.approx(50.0)


# --- pass@k -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("n", "c", "k", "expected"),
    [
        (5, 2, 1, 0.4),  # 1 − (3/4)(4/5)
        (5, 2, 2, 0.7),  # 1 − (2/4)(3/5) = 1 − C(3,2)/C(5,2) = 1 − 3/10
        (4, 1, 2, 0.5),  # 1 − C(3,2)/C(4,2) = 1 − 3/6
        (5, 4, 2, 1.0),  # only one wrong sample < k
        (3, 0, 1, 0.0),
        (10, 10, 5, 1.0),
        (1, 1, 1, 1.0),
        (100, 1, 1, 0.01),
    ],
)
def test_pass_at_k(n, c, k, expected):
    assert pass_at_k(n, c, k) == pytest.approx(expected)


@pytest.mark.parametrize(("n", "c", "k"), [(2, 1, 3), (5, 6, 1), (5, 1, 0)])
def test_pass_at_k_rejects_impossible_inputs(n, c, k):
    with pytest.raises(ValueError):
        pass_at_k(n, c, k)


@given(n=st.integers(1, 60), data=st.data())
def test_pass_at_k_matches_the_binomial_form(n, data):
    c = data.draw(st.integers(0, n))
    k = data.draw(st.integers(1, n))
    exact = 1.0 if n - c < k else 1 - math.comb(n - c, k) / math.comb(n, k)
    assert pass_at_k(n, c, k) == pytest.approx(exact, abs=1e-12)


def test_ex_at_k_averages_pass_at_k():
    samples = {"q1": [True, False, False, False, False], "q2": [True, True, False, False, False]}
    # pass@1: 0.2 and 0.4 → 30 %
    assert ex_at_k(samples, 1) == pytest.approx(30.0)


# --- VES / R-VES ------------------------------------------------------------------


def test_ves_table():
    results = [TimedResult(True, 4.0, 1.0), TimedResult(True, 1.0, 4.0), TimedResult(False, 1.0, 1.0)]
    # rewards 2, 0.5, 0 → mean 2.5/3
    assert [ves_reward(r) for r in results] == [2.0, 0.5, 0.0]
    assert ves(results) == pytest.approx(250 / 3)


@pytest.mark.parametrize(
    ("gold_time", "pred_time", "correct", "reward"),
    [
        (2.0, 1.0, True, 1.25),  # r = 2
        (4.0, 1.0, True, 1.25),
        (1.999, 1.0, True, 1.0),
        (1.0, 1.0, True, 1.0),  # r = 1
        (0.999, 1.0, True, 0.75),
        (0.5, 1.0, True, 0.75),  # r = 0.5
        (0.4999, 1.0, True, 0.5),
        (0.25, 1.0, True, 0.5),  # r = 0.25
        (0.2499, 1.0, True, 0.25),
        (0.01, 1.0, True, 0.25),
        (10.0, 1.0, False, 0.0),
    ],
)
def test_r_ves_buckets(gold_time, pred_time, correct, reward):
    assert r_ves_reward(TimedResult(correct, gold_time, pred_time)) == reward


def test_r_ves_is_mean_of_square_roots():
    results = [TimedResult(True, 2.0, 1.0), TimedResult(False, 1.0, 1.0)]
    assert r_ves(results) == pytest.approx(100 * math.sqrt(1.25) / 2)


def test_best_of_is_the_fastest_run():
    assert best_of([0.3, 0.2, 0.25, 0.21, 0.4]) == 0.2
    with pytest.raises(ValueError):
        best_of([])


def test_ves_rejects_non_positive_times():
    with pytest.raises(ValueError):
        ves([TimedResult(True, 1.0, 0.0)])


# --- retrieval -------------------------------------------------------------------

RETRIEVED = ["public.Orders", "public.users", "public.items", "public.orders"]
GOLD_TABLES = {"public.orders", "PUBLIC.items"}


@pytest.mark.parametrize(("k", "expected"), [(1, 0.5), (2, 0.5), (3, 1.0), (None, 1.0), (10, 1.0)])
def test_set_recall_at_k(k, expected):
    assert set_recall_at_k(RETRIEVED, GOLD_TABLES, k) == expected


@pytest.mark.parametrize(("retrieved", "gold", "k"), [(["a"], set(), None), (["a"], {"a"}, 0)])
def test_set_recall_rejects_undefined_inputs(retrieved, gold, k):
    with pytest.raises(ValueError):
        set_recall_at_k(retrieved, gold, k)


# --- grade ------------------------------------------------------------------------

A = ToolDims(ex=80, ves=120, errors=2, n=100, tokens_per_question=1000, mean_latency_s=2.0)
B = ToolDims(ex=60, ves=50, errors=0, n=100, tokens_per_question=500, mean_latency_s=4.0)
C = ToolDims(ex=50)
Z = ToolDims(ex=40, tokens_per_question=0, mean_latency_s=None)  # exposes no tokens
FIELD = [A, B, C, Z]


@pytest.mark.parametrize(
    ("tool", "expected"),
    [
        # rates: efficiency min(100, 100·120/80) = 100, reliability 98, tokens min(100, 100·2000/1000) = 100,
        # latency min(100, 100·2/2) = 100 → Grade = 80 · (.45 + .20 + .098 + .15 + .10) = 80 · .998
        (A, 79.84),
        # rates: efficiency 100·50/60, reliability 100, tokens 100, latency 100·2/4 = 50
        # → 60 · (.45 + .20·(5/6) + .10 + .15 + .10·.5) = 60 · .91667
        (B, 55.0),
        (C, 50.0),  # only EX exposed: its weight is the whole denominator
        (Z, 40.0),  # zero tokens: dimension dropped
    ],
)
def test_grade(tool, expected):
    assert grade(tool) == pytest.approx(expected)


def test_grade_does_not_depend_on_the_field():
    """The field-relative rule (before 2026-12-05) gave A 83.3 and B 67.0 on this field; now each row is
    judged against fixed reference points, so the other rows are not even an argument."""
    assert [round(grade(t), 2) for t in FIELD] == [79.84, 55.0, 50.0, 40.0]


def test_grade_partial_dimensions_renormalise():
    # EX 90 and reliability 50 only: 90 · (.45 + .10·.5) / .55
    tool = ToolDims(ex=90, errors=5, n=10)
    assert grade(tool) == pytest.approx(90 * (0.45 + 0.10 * 0.5) / 0.55)


# --- bootstrap / breakdown -----------------------------------------------------------


def test_bootstrap_of_constant_is_a_point():
    assert bootstrap_ci([1.0, 1.0, 1.0]) == (1.0, 1.0)


def test_bootstrap_is_deterministic_and_brackets_the_mean():
    values = [True] * 50 + [False] * 50
    low, high = bootstrap_ci(values, resamples=2000, seed=3)
    assert (low, high) == bootstrap_ci(values, resamples=2000, seed=3)
    # standard error of a proportion 0.5 with n=100 is 0.05 → about ±0.098
    assert 0.38 < low < 0.45 and 0.55 < high < 0.62


def test_bootstrap_rejects_empty():
    with pytest.raises(ValueError):
        bootstrap_ci([])


def test_breakdown_by_bucket():
    values = {"q1": 1.0, "q2": 0.0, "q3": True}
    tags = {"q1": ["join", "trap"], "q2": ["join"], "q3": ["trap", "trap"], "q4": ["join"]}
    assert breakdown(values, tags) == {"join": (2, 0.5), "trap": (2, 1.0)}
