"""The Grade ranks answers, not silence (issue 33): a hand-checked table, and its properties.

Grade = Σ wᵢ·dᵢ / Σ wᵢ over the exposed dimensions, d_EX = EX and every other dᵢ = EX · sᵢ / 100
with sᵢ ∈ [0, 100] measured against fixed reference points (R_tokens = 2,000 tokens/question,
R_seconds = 2 s); tokens or latency the tool only claims are not exposed.
"""

from __future__ import annotations

import copy

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from heron_pipeline.metrics import field_figures
from heron_pipeline.scoring.grade import (
    CLAIMED,
    MEASURED,
    REFERENCE_LATENCY_S,
    REFERENCE_TOKENS_PER_QUESTION,
    ToolDims,
    dimension_rates,
    dimension_scores,
    grade,
    telemetry,
)

W_EX, W_EFF, W_REL, W_TOK, W_LAT = 0.45, 0.20, 0.10, 0.15, 0.10

# (dims, expected Grade) — each line checkable by hand
CASES = [
    (ToolDims(ex=100), 100.0),  # EX only: its weight is the whole denominator
    (ToolDims(ex=60, errors=0, n=100), 60.0),  # a rate of 100 earns exactly EX
    # the do-nothing tool: EX 3, no errors, a tiny measured token count and latency → ≤ 3
    (ToolDims(ex=3, errors=0, n=100, tokens_per_question=1, mean_latency_s=0.01), 3.0),
    # EX 80, VES 90 over states whose EX@1 averages 90 (every right answer as fast as gold: 100),
    # 2 errors in 100 (98), 4,000 tokens/q (2,000/4,000 = 50), 4 s (2/4 = 50):
    # 80 × (.45 + .20 + .10·.98 + .15·.5 + .10·.5) / 1.0 = 80 × .873
    (ToolDims(ex=80, ves=90, ex_timed=90, errors=2, n=100, tokens_per_question=4000, mean_latency_s=4.0), 69.84),
    # the same with claimed tokens: the token weight drops out — 80 × .798 / .85
    (ToolDims(ex=80, ves=90, ex_timed=90, errors=2, n=100, tokens_per_question=4000, mean_latency_s=4.0,
              tokens_measured=False), 80 * 0.798 / 0.85),
    # and claimed latency too: 80 × .748 / .75
    (ToolDims(ex=80, ves=90, ex_timed=90, errors=2, n=100, tokens_per_question=4000, mean_latency_s=4.0,
              tokens_measured=False, latency_measured=False), 80 * 0.748 / 0.75),
    # VES 30 over states with EX@1 60: a right answer earns half of gold's speed → rate 50: 50 × .55 / .65
    (ToolDims(ex=50, ves=30, ex_timed=60), 50 * 0.55 / 0.65),
    # VES above EX (faster than gold) caps at rate 100, never above EX: 50
    (ToolDims(ex=50, ves=120, ex_timed=50), 50.0),
    # no timed EX given: VES is read against EX itself — 40 / 80 → rate 50: 80 × .55 / .65
    (ToolDims(ex=80, ves=40), 80 * 0.55 / 0.65),
    # DIN-SQL's 16,343 tokens/q on the product spec's board: rate 100 · 2000/16343
    (ToolDims(ex=52, tokens_per_question=16343), 52 * (W_EX + W_TOK * 2000 / 16343) / (W_EX + W_TOK)),
    # nothing right earns nothing, however fast, lean and error-free
    (ToolDims(ex=0, ves=0, ex_timed=0, errors=0, n=100, tokens_per_question=1, mean_latency_s=0.001), 0.0),
    # the EX-60 row (VES not timed; 0 errors; measured tokens at the reference, 1 s): 60
    (ToolDims(ex=60, errors=0, n=100, tokens_per_question=2000, mean_latency_s=1.0), 60.0),
    # zero tokens / latency: not exposed (reference tools), weight dropped
    (ToolDims(ex=40, tokens_per_question=0, mean_latency_s=0.0), 40.0),
    # all failed but a few right: reliability 10 earned on EX 10 → 1: (.45·10 + .10·1) / .55
    (ToolDims(ex=10, errors=90, n=100), (W_EX * 10 + W_REL * 1) / 0.55),
]


@pytest.mark.parametrize(("dims", "expected"), CASES)
def test_grade_table(dims: ToolDims, expected: float) -> None:
    assert grade(dims) == pytest.approx(expected)


def test_reference_points_are_fixed_and_stated() -> None:
    assert (REFERENCE_TOKENS_PER_QUESTION, REFERENCE_LATENCY_S) == (2000.0, 2.0)
    rates = dimension_rates(ToolDims(ex=70, tokens_per_question=15314, mean_latency_s=0.5))
    assert rates == pytest.approx({"tokens": 100 * 2000 / 15314, "latency": 100.0})


def test_every_non_ex_dimension_is_earned_by_ex() -> None:
    scores = dimension_scores(ToolDims(ex=30, ves=60, ex_timed=60, errors=0, n=10, tokens_per_question=1000,
                                       mean_latency_s=1.0))
    assert scores == pytest.approx({"ex": 30, "efficiency": 30, "reliability": 30, "tokens": 30, "latency": 30})


def test_grade_needs_ex() -> None:
    with pytest.raises(ValueError):
        grade(ToolDims(errors=0, n=10))
    with pytest.raises(ValueError):
        telemetry(tokens="reported")


# --- properties -----------------------------------------------------------------------------------

percent = st.floats(min_value=0, max_value=100, allow_nan=False)
maybe_positive = st.one_of(st.none(), st.just(0.0), st.floats(min_value=1e-12, max_value=1e7, allow_nan=False))


@st.composite
def dims(draw) -> ToolDims:
    n = draw(st.integers(min_value=1, max_value=500))
    return ToolDims(ex=draw(percent), ves=draw(st.one_of(st.none(), st.floats(0, 400, allow_nan=False))),
                    ex_timed=draw(st.one_of(st.none(), percent)),
                    errors=draw(st.one_of(st.none(), st.integers(0, n))), n=n,
                    tokens_per_question=draw(maybe_positive), mean_latency_s=draw(maybe_positive),
                    tokens_measured=draw(st.booleans()), latency_measured=draw(st.booleans()))


@settings(max_examples=400, deadline=None)
@given(dims())
def test_grade_never_exceeds_ex(d: ToolDims) -> None:
    g = grade(d)
    assert 0.0 <= g <= d.ex


@settings(max_examples=200, deadline=None)
@given(percent, st.integers(1, 500), st.floats(1e-12, 1.0), st.floats(1e-12, 1e-3),
       st.one_of(st.none(), st.floats(0, 400, allow_nan=False)))
def test_a_do_nothing_row_grades_at_most_its_ex(e: float, n: int, tokens: float, latency: float,
                                                 ves: float | None) -> None:
    """EX e, no errors, tiny tokens and latency (measured or not): never above e."""
    for measured in (True, False):
        d = ToolDims(ex=e, ves=ves, errors=0, n=n, tokens_per_question=tokens, mean_latency_s=latency,
                     tokens_measured=measured, latency_measured=measured)
        assert grade(d) <= e


def _row(tool: str, ex: float, *, errors: int = 0, n: int = 100, ves: float | None = None,
         tokens: float = 0.0, latency: float | None = None, tokens_by: str = MEASURED,
         latency_by: str = MEASURED, states: int = 3) -> dict:
    """A standings row as ``harness.aggregate`` makes it, with the figures the Grade reads."""
    return {"tool": tool, "questions": n, "multi_state_ex1": ex, "ex1_per_state": {str(s): ex for s in range(states)},
            "ves": ves, "errors": errors, "tokens_per_question": tokens, "mean_latency_s": latency,
            "conditions": {"states": states, "telemetry": telemetry(tokens_by, latency_by)}}


@st.composite
def rows(draw, name: str) -> dict:
    n = draw(st.integers(1, 200))
    return _row(name, draw(percent), errors=draw(st.integers(0, n)), n=n,
                ves=draw(st.one_of(st.none(), st.floats(0, 300, allow_nan=False))),
                tokens=draw(st.one_of(st.just(0.0), st.floats(1e-3, 1e6))),
                latency=draw(st.one_of(st.none(), st.floats(1e-9, 1e3))),
                tokens_by=draw(st.sampled_from([MEASURED, CLAIMED])),
                latency_by=draw(st.sampled_from([MEASURED, CLAIMED])))


def _graded(board: list[dict]) -> dict[str, float]:
    board = copy.deepcopy(board)
    field_figures(board)
    return {r["tool"]: r["grade"] for r in board}


@settings(max_examples=200, deadline=None)
@given(rows("me"), st.lists(st.integers(0, 10 ** 6), max_size=6).flatmap(
    lambda names: st.tuples(*(rows(f"other{i}") for i in range(len(names))))))
def test_a_rows_grade_is_invariant_to_other_rows(me: dict, others: tuple) -> None:
    alone = _graded([me])["me"]
    assert _graded([me, *others])["me"] == alone
    assert _graded([*reversed(others), me])["me"] == alone


def test_claimed_telemetry_changes_no_grade() -> None:
    """The issue's row: a cli reply or a submission claiming 0.01 tokens/q and 1e-9 s latency."""
    honest = _row("ex60", 60.0, errors=0, tokens=15000.0, latency=3.0)
    faker = _row("faker", 3.0, errors=0, tokens=0.01, latency=1e-9, tokens_by=CLAIMED, latency_by=CLAIMED)
    silent = _row("faker", 3.0, errors=0)
    alone = _graded([honest])["ex60"]
    with_faker = _graded([honest, faker])
    assert with_faker["ex60"] == alone  # before: 70.6 → 45.6 when such a row joined
    assert with_faker["faker"] == _graded([silent])["faker"] == pytest.approx(3.0)
    # a cli tool's claimed tokens beside heron's own clock: only the latency counts
    cli = _row("cli", 60.0, tokens=0.01, latency=4.0, tokens_by=CLAIMED)
    assert _graded([cli])["cli"] == pytest.approx(_graded([_row("cli", 60.0, latency=4.0)])["cli"])
    assert _graded([cli])["cli"] == pytest.approx(60 * (W_EX + W_REL + W_LAT * 0.5) / (W_EX + W_REL + W_LAT))


def test_a_row_without_telemetry_condition_counts_as_measured() -> None:
    """Heron's own adapters (LLM client, reference tools) record no ``telemetry``: measured."""
    row = _row("llm", 50.0, tokens=4000.0, latency=1.0)
    del row["conditions"]["telemetry"]
    assert _graded([row])["llm"] == pytest.approx(50 * (W_EX + W_REL + W_TOK * 0.5 + W_LAT) / (
        W_EX + W_REL + W_TOK + W_LAT))
