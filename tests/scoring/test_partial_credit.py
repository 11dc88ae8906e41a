"""Soft-F1 (BIRD mini-dev's calculate_f1_score) and row-multiset F1: hand-checked tables and a
property test against a re-statement of BIRD's algorithm in exact fractions."""

from __future__ import annotations

import math
from decimal import Decimal
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from heron_pipeline.scoring import row_multiset_f1, soft_f1

NAN = math.nan  # one shared object on both sides: Python's `in` would match it by identity

# Every per-row share is divided by the GOLD row's width w; a predicted value counts as matched
# each time it occurs in the gold row (and a gold value is gold-only when absent from the prediction).
SOFT_F1_CASES = [
    # BIRD's README example.  The code (which heron follows) divides by the width and counts a NULL
    # like any value: row 1 tp 2/2; rows 2 and 3 tp 1/2, fp 1/2, fn 1/2 → tp 2, fp 1, fn 1 → 2/3.
    # (The README's own table leaves the NULLs out and arrives at 0.8.)
    ("README example", [("Apple", 325), ("Orange", None), ("Banana", 119)],
     [(325, "Apple"), (191, "Orange"), (None, "Banana")], 2 / 3),
    # pair 1: tp .5, fp .5, fn .5; pair 2: tp 1; unpaired predicted row → fp 1
    # tp 1.5, fp 1.5, fn .5 → P .5, R .75 → F1 .6
    ("two-row example", [(1, "a"), (2, "b")], [(1, "x"), (2, "b"), (3, "c")], 0.6),
    # repeats in the prediction count each time: matched 2 → tp 1, fn 1/2 (2 missing) → P 1, R 2/3 → .8
    ("repeat in prediction", [(1, 2)], [(1, 1)], 0.8),
    # repeat in gold: pred 1 matched, 2 pred-only → tp .5, fp .5; both gold 1s occur → fn 0 → P .5, R 1 → 2/3
    ("repeat in gold", [(1, 1)], [(1, 2)], 2 / 3),
    # (1,1,2) vs (1,2,2): every predicted value occurs in gold, every gold value in the prediction → 1
    ("repeats on both sides", [(1, 1, 2)], [(1, 2, 2)], 1.0),
    # a value repeated beyond the gold width still counts: tp 3/1, fp 0, fn 0 → 1
    ("repeats beyond the gold width", [(1,)], [(1, 1, 1)], 1.0),
    # wider prediction: tp 2/2, fp 1/2 (gold width!), fn 0 → P 2/3, R 1 → .8
    ("wider prediction", [(1, 2)], [(1, 2, 3)], 0.8),
    # narrower prediction: tp 1/3, fp 0, fn 2/3 → P 1, R 1/3 → .5
    ("narrower prediction", [(1, 2, 3)], [(1,)], 0.5),
    # tp .5, fp .5 + 2 unpaired, fn .5 → P 1/6, R 1/2 → .25
    ("unpaired predicted rows", [(1, "a")], [(1, "x"), (2, "b"), (3, "c")], 0.25),
    # tp 1, fn 1 → P 1, R .5 → 2/3
    ("unpaired gold row", [(1, "a"), (2, "b")], [(1, "a")], 2 / 3),
    ("duplicates removed first", [(1, "a"), (1, "a"), (2, "b")], [(1, "a"), (2, "b")], 1.0),
    ("duplicate prediction removed", [(1,), (2,)], [(1,), (1,), (2,)], 1.0),
    # (True,) == (1,): a duplicate, dropped, so (2,) pairs with (2,)
    ("duplicates under Python ==", [(1,), (2,)], [(1,), (True,), (2,)], 1.0),
    ("positional pairing is order sensitive", [(1, "a"), (2, "b")], [(2, "b"), (1, "a")], 0.0),
    ("columns permuted within a row", [(1, "a")], [("a", 1)], 1.0),
    ("Python ==: 1 vs Decimal 1.0", [(1, "a")], [(Decimal("1.0"), "a")], 1.0),
    ("Python ==: True vs 1", [(True,)], [(1,)], 1.0),
    ("Python ==: 1.0 vs 1", [(1.0,)], [(1,)], 1.0),
    ("Python ==: 0.1 vs Decimal 0.1", [(0.1,)], [(Decimal("0.1"),)], 0.0),
    ("Python ==: 1 vs '1'", [(1,)], [("1",)], 0.0),
    ("NULL equals NULL", [(None, 1)], [(None, 1)], 1.0),
    ("NaN equals nothing, even a shared NaN object", [(NAN, 1)], [(NAN, 1)], 0.5),
    ("JSON objects: key order ignored, 1 == 1.0", [({"a": 1, "b": [1, 2]},)], [({"b": [1, 2], "a": 1.0},)], 1.0),
    ("arrays: element order matters", [([1, 2],)], [([2, 1],)], 0.0),
    ("an array is not a scalar", [([1],)], [(1,)], 0.0),
    ("both empty", [], [], 1.0),
    ("empty gold", [], [(1,)], 0.0),
    ("empty prediction", [(1,)], [], 0.0),
    ("failed prediction", [(1,)], None, 0.0),
    ("failed prediction, empty gold", [], None, 0.0),
    # BIRD's code divides by the gold width and fails; its runner scores the failure 0
    ("zero-width rows", [()], [()], 0.0),
    ("zero-width gold row, unpaired", [(), (1,)], [], 0.0),
]


@pytest.mark.parametrize(("gold", "pred", "expected"), [c[1:] for c in SOFT_F1_CASES], ids=[c[0] for c in SOFT_F1_CASES])
def test_soft_f1(gold, pred, expected):
    assert soft_f1(gold, pred) == pytest.approx(expected)


def test_soft_f1_takes_rows_in_the_order_given() -> None:
    # the same rows in another order pair differently: ordering is the harness's job
    gold = [(1, "a"), (2, "b"), (3, "c")]
    assert soft_f1(gold, gold) == 1.0
    assert soft_f1(gold, gold[::-1]) < 1.0


# --- a re-statement of BIRD's documented algorithm, in exact fractions ----------------------------
#
# Not a transcription of BIRD's code: written from the algorithm as stated in heron's METHODOLOGY
# (§5), with exact arithmetic, so that a slip in the float bookkeeping shows.


def _first_occurrences(rows):
    kept = []
    for row in rows:
        if all(row != seen for seen in kept):
            kept.append(row)
    return kept


def reference_soft_f1(gold_rows, pred_rows) -> Fraction:
    if not gold_rows and not pred_rows:
        return Fraction(1)
    gold, pred = _first_occurrences(gold_rows), _first_occurrences(pred_rows)
    tp = fp = fn = Fraction(0)
    for g, p in zip(gold, pred):
        w = len(g)
        matched = len([v for v in p if any(v == x for x in g)])
        tp += Fraction(matched, w)
        fp += Fraction(len(p) - matched, w)
        fn += Fraction(len([x for x in g if all(x != v for v in p)]), w)
    fn += max(0, len(gold) - len(pred))
    fp += max(0, len(pred) - len(gold))
    precision = tp / (tp + fp) if tp + fp else Fraction(0)
    recall = tp / (tp + fn) if tp + fn else Fraction(0)
    return 2 * precision * recall / (precision + recall) if precision + recall else Fraction(0)


VALUES = st.sampled_from([0, 1, 2, 3, 1.0, 2.5, True, False, Decimal("1"), Decimal("2.5"), "a", "b", "1", None])


@st.composite
def results(draw, width):
    rows = draw(st.lists(st.tuples(*[VALUES] * width), max_size=6))
    if rows and draw(st.booleans()):
        rows.insert(draw(st.integers(0, len(rows))), draw(st.sampled_from(rows)))
    return rows


@settings(max_examples=400, deadline=None)
@given(data=st.data(), gold_width=st.integers(1, 4), pred_width=st.integers(1, 4))
def test_soft_f1_equals_the_restated_algorithm(data, gold_width, pred_width) -> None:
    gold, pred = data.draw(results(gold_width)), data.draw(results(pred_width))
    assert soft_f1(gold, pred) == pytest.approx(float(reference_soft_f1(gold, pred)), rel=1e-12, abs=1e-15)


# --- row-multiset F1 (heron) ---------------------------------------------------------------------

ROW_F1_CASES = [
    # matched 1 ((1,a)↔(1.0,a)); P = 1/2, R = 1/3 → F1 = 2·(1/6)/(5/6) = .4
    ("multiset rows", [(1, "a"), (1, "a"), (2, "b")], [(1.0, "a"), (3, "c")], 0.4),
    ("order free", [(1, "a"), (2, "b")], [(2, "b"), (1, "a")], 1.0),
    ("tolerance applies", [(0.1 + 0.2,)], [(0.3,)], 1.0),
    ("no overlap", [(1,)], [(2,)], 0.0),
    ("both empty", [], [], 1.0),
    ("failed prediction", [(1,)], None, 0.0),
]


@pytest.mark.parametrize(("gold", "pred", "expected"), [c[1:] for c in ROW_F1_CASES], ids=[c[0] for c in ROW_F1_CASES])
def test_row_multiset_f1(gold, pred, expected):
    assert row_multiset_f1(gold, pred) == pytest.approx(expected)
