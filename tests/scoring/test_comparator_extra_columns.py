"""The comparator's extra-column rule (natural question mode, issue 12): a prediction may return more
columns than gold, and is correct when each gold column matches a distinct predicted column with
the rows kept aligned — every other comparator rule unchanged. Checked on hand cases and, with
Hypothesis, against a brute-force reference over every column injection and row pairing."""

from __future__ import annotations

import itertools
import math
import random
from decimal import Decimal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from heron_pipeline.scoring import compare, order_spec, values_equal

UNORDERED = "SELECT a, b FROM t"
BY_A = "SELECT a, b FROM t ORDER BY a"
BY_HIDDEN = "SELECT a, b FROM t ORDER BY c"

# (id, gold_sql, gold_rows, pred_rows, correct with extra_columns=True)
CASES = [
    ("an extra column is ignored", UNORDERED, [(1, "x"), (2, "y")], [(1, "x", True), (2, "y", False)], True),
    ("extra column first, columns permuted, rows shuffled", UNORDERED,
     [(1, "x"), (2, "y")], [("q", "y", 2), ("r", "x", 1)], True),
    ("same width behaves as strict", UNORDERED, [(1, "x")], [("x", 1)], True),
    ("fewer columns never match", UNORDERED, [(1, "x")], [(1,)], False),
    ("two gold columns need two distinct predicted columns", UNORDERED, [(1, 1), (2, 2)], [(1, "a"), (2, "b")], False),
    ("… and a copy satisfies them", UNORDERED, [(1, 1), (2, 2)], [(1, "a", 1), (2, "b", 2)], True),
    ("rows stay aligned: columns are not matched one by one", UNORDERED,
     [(1, "x"), (2, "y")], [(1, "y", 0), (2, "x", 0)], False),
    ("multiset: a duplicate row still counts", UNORDERED, [(1, "x"), (1, "x")], [(1, "x", 1), (1, "x", 2)], True),
    ("multiset: a missing duplicate fails", UNORDERED, [(1, "x"), (1, "x")], [(1, "x", 1), (2, "x", 2)], False),
    ("an extra row fails", UNORDERED, [(1, "x")], [(1, "x", 0), (1, "x", 1)], False),
    ("empty only matches empty", UNORDERED, [], [], True),
    ("empty gold, rows predicted", UNORDERED, [], [(1, "x", 0)], False),
    ("failed prediction", UNORDERED, [(1, "x")], None, False),
    ("float tolerance kept", UNORDERED, [(0.1 + 0.2, "x")], [("x", 0, 0.3)], True),
    ("beyond the tolerance", UNORDERED, [(0.3, "x")], [("x", 0, 0.3001)], False),
    ("strict values: True is not 1", UNORDERED, [(1, "x")], [("x", True, 0)], False),
    ("NULL equals NULL", UNORDERED, [(None, "x")], [("x", None, 5)], True),
    ("ordered gold: order kept", BY_A, [(1, "x"), (2, "y")], [(0, 1, "x"), (0, 2, "y")], True),
    ("ordered gold: wrong order", BY_A, [(1, "x"), (2, "y")], [(0, 2, "y"), (0, 1, "x")], False),
    ("ordered gold: ties are a multiset", BY_A, [(1, "x"), (1, "y"), (2, "z")], [("y", 1, 0), ("x", 1, 0), ("z", 2, 0)], True),
    ("hidden sort key: row by row", BY_HIDDEN, [(1, "x"), (1, "y")], [("y", 1, 0), ("x", 1, 0)], False),
]


@pytest.mark.parametrize(("gold_sql", "gold", "pred", "expected"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_extra_columns_table(gold_sql, gold, pred, expected):
    assert compare(gold_sql, gold, pred, extra_columns=True) is expected


def test_default_stays_strict():
    assert compare(UNORDERED, [(1, "x")], [(1, "x", 0)]) is False
    assert compare(UNORDERED, [(1, "x")], [(1, "x", 0)], extra_columns=True) is True


# --- brute-force reference ------------------------------------------------------------------------


def _identical(a, b) -> bool:
    if isinstance(a, bool) or isinstance(b, bool):
        return type(a) is type(b) and a == b
    if isinstance(a, float) and isinstance(b, float) and a != a and b != b:
        return True
    return a == b


def reference(gold_sql, gold, pred) -> bool:
    """Every injection of gold columns into predicted columns × every row pairing allowed by the
    order: correct when one of them pairs every gold row with an equal predicted row."""
    if pred is None or len(gold) != len(pred):
        return False
    if not gold:
        return True
    width, pred_width = len(gold[0]), len(pred[0])
    if pred_width < width:
        return False
    spec = order_spec(gold_sql)
    n = len(gold)
    if not spec.ordered:
        group = [0] * n
    elif spec.positional:
        group = list(range(n))
    else:  # consecutive gold rows tie when their sort keys are identical (exact; NaN ties NaN)
        group = [0] * n
        for i in range(1, n):
            same = all(_identical(gold[i][j], gold[i - 1][j]) for j in spec.key_columns)
            group[i] = group[i - 1] if same else group[i - 1] + 1
    for columns in itertools.permutations(range(pred_width), width):
        projected = [tuple(row[k] for k in columns) for row in pred]
        for pairing in itertools.permutations(range(n)):
            if all(group[i] == group[pairing[i]] and all(map(values_equal, gold[i], projected[pairing[i]]))
                   for i in range(n)):
                return True
    return False


VALUES = st.sampled_from([0, 1, 2, 1.0, 0.5, 0.5 + 1e-12, 0.5 + 1e-3, Decimal("0.5"), Decimal("1"), True, False,
                          None, "a", "b", math.nan])


@st.composite
def cases(draw):
    width = draw(st.integers(1, 3))
    extra = draw(st.integers(0, 2))
    gold = draw(st.lists(st.tuples(*[VALUES] * width), min_size=1, max_size=4))  # empty: in the table
    select = "SELECT " + ", ".join(f"c{j}" for j in range(width)) + " FROM t"
    gold_sql = draw(st.sampled_from([select, select + " ORDER BY c0", select + " ORDER BY z"]))
    if "ORDER BY c0" in gold_sql:
        gold.sort(key=lambda r: (r[0] is None, str(type(r[0])), str(r[0])))
    rng = random.Random(draw(st.integers(0, 2**32)))
    # the prediction: gold's rows (maybe one changed, maybe shuffled), its columns placed among extra ones
    rows = [list(r) for r in gold]
    if rows and draw(st.booleans()):
        rows[rng.randrange(len(rows))][rng.randrange(width)] = draw(VALUES)
    if draw(st.booleans()):
        rng.shuffle(rows)
    pred_width = width + extra
    positions = rng.sample(range(pred_width), width)
    pred = []
    for r in rows:
        out = [draw(VALUES) if draw(st.booleans()) else r[rng.randrange(width)] for _ in range(pred_width)]
        for j, k in enumerate(positions):
            out[k] = r[j]
        pred.append(tuple(out))
    if draw(st.integers(0, 9)) == 0:
        pred = pred[:-1]
    return gold_sql, gold, pred


@settings(max_examples=1500, deadline=None)
@given(case=cases())
def test_extra_columns_equal_the_brute_force_reference(case):
    gold_sql, gold, pred = case
    assert compare(gold_sql, gold, pred, extra_columns=True) is reference(gold_sql, gold, pred)


@settings(max_examples=300, deadline=None)
@given(case=cases())
def test_same_width_extra_columns_is_the_strict_rule(case):
    gold_sql, gold, pred = case
    if gold and pred and len(pred[0]) == len(gold[0]):
        assert compare(gold_sql, gold, pred, extra_columns=True) is compare(gold_sql, gold, pred)
