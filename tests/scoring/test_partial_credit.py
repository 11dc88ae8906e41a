"""Hand-computed Soft-F1 (BIRD mini-dev) and row-multiset F1 cases."""

from __future__ import annotations

from decimal import Decimal

import pytest

from heron_pipeline.scoring import row_multiset_f1, soft_f1

SOFT_F1_CASES = [
    # gold (1,a),(2,b); pred (1,x),(2,b),(3,c)
    # pair 1: matched 1 of 2 → tp .5, fp .5, fn .5; pair 2: tp 1; pred row 3 unpaired → fp 1
    # tp 1.5, fp 1.5, fn .5 → P = .5, R = .75 → F1 = 2·.5·.75 / 1.25 = .6
    ("two-row example", [(1, "a"), (2, "b")], [(1, "x"), (2, "b"), (3, "c")], 0.6),
    # missing gold row adds 1 to fn: tp 1, fn 1 → P 1, R .5 → 2/3
    ("unpaired gold row", [(1, "a"), (2, "b")], [(1, "a")], 2 / 3),
    ("duplicates removed first", [(1, "a"), (1, "a"), (2, "b")], [(1, "a"), (2, "b")], 1.0),
    # values as multisets: (1,1,2) ∩ (1,2,2) = {1,2} → tp 2/3, fp 1/3, fn 1/3 → 2/3
    ("per-value multiset", [(1, 1, 2)], [(1, 2, 2)], 2 / 3),
    # widths differ: matched 2 → tp 2/2, fn 0, fp 1/3 → P .75, R 1 → 6/7
    ("wider prediction", [(1, 2)], [(1, 2, 3)], 6 / 7),
    ("positional pairing is order sensitive", [(1, "a"), (2, "b")], [(2, "b"), (1, "a")], 0.0),
    ("value rules: 1 vs Decimal 1.0", [(1, "a")], [(Decimal("1.0"), "a")], 1.0),
    ("value rules: True vs 1", [(True,)], [(1,)], 0.0),
    ("both empty", [], [], 1.0),
    ("empty gold", [], [(1,)], 0.0),
    ("empty prediction", [(1,)], [], 0.0),
    ("failed prediction", [(1,)], None, 0.0),
]


@pytest.mark.parametrize(("gold", "pred", "expected"), [c[1:] for c in SOFT_F1_CASES], ids=[c[0] for c in SOFT_F1_CASES])
def test_soft_f1(gold, pred, expected):
    assert soft_f1(gold, pred) == pytest.approx(expected)


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
