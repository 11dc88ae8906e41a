"""The canonical row order that makes Soft-F1 independent of the query plan (issue 11, item 5)."""

from __future__ import annotations

import datetime as dt
import math
import random
from decimal import Decimal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from heron_pipeline.scoring import canonical_pair, canonical_rows, soft_f1
from heron_pipeline.scoring.order_spec import OrderSpec
from heron_pipeline.scoring.row_order import tie_groups, value_order_key

UNORDERED = OrderSpec(ordered=False)


@pytest.mark.parametrize(
    ("rows", "spec", "expected"),
    [
        # numbers before strings, then by value; a row's key ignores its column order
        ([("b", 2), ("a", 1)], UNORDERED, [("a", 1), ("b", 2)]),
        ([(2, "b"), (1, "a")], UNORDERED, [(1, "a"), (2, "b")]),
        # NULL first, numbers by value across types, NaN after the numbers
        ([(math.inf,), (None,), (Decimal("0.5"),), (True,), (-3,)], UNORDERED,
         [(None,), (-3,), (Decimal("0.5"),), (True,), (math.inf,)]),
        # tie groups of ORDER BY column 0 are sorted inside, the groups keep their order
        ([(2, "z"), (2, "a"), (1, "q"), (1, "b")], OrderSpec(True, (0,)), [(2, "a"), (2, "z"), (1, "b"), (1, "q")]),
        # a sort key that is not an output column: ties cannot be seen, rows stay as they are
        ([(2, "z"), (2, "a")], OrderSpec(True, positional=True), [(2, "z"), (2, "a")]),
        ([], UNORDERED, []),
    ],
    ids=["strings", "columns permuted", "numbers", "tie groups", "positional", "empty"],
)
def test_canonical_rows(rows, spec, expected):
    assert canonical_rows(rows, spec) == expected


def test_values_python_cannot_order_against_each_other_get_ranks() -> None:
    mixed = [(dt.datetime(2025, 1, 1, tzinfo=dt.timezone.utc),), (dt.date(2025, 1, 1),), (dt.datetime(2025, 1, 1),),
             ("x",), ({"a": [1]},), ([1, 2],), (float("nan"),), (b"\x00",), (dt.time(1),), (None,)]
    out = canonical_rows(mixed, UNORDERED)
    assert sorted(map(repr, out)) == sorted(map(repr, mixed))
    assert out[0] == (None,)
    assert value_order_key(float("nan")) == value_order_key(Decimal("NaN"))  # all NaNs alike


def test_tie_groups_are_runs_of_equal_keys() -> None:
    rows = [(1, "a"), (1, "b"), (2, "c"), (1, "d"), (float("nan"), "e"), (float("nan"), "f")]
    assert tie_groups(rows, (0,)) == [range(0, 2), range(2, 3), range(3, 4), range(4, 6)]


VALUES = st.one_of(st.integers(0, 4), st.sampled_from(["a", "b", "c", None, 1.5, Decimal("2.5")]))


@st.composite
def result_pair(draw):
    width = draw(st.integers(1, 4))
    gold = draw(st.lists(st.tuples(*[VALUES] * width), max_size=8))
    pred = draw(st.lists(st.tuples(*[VALUES] * width), max_size=8))
    if gold and draw(st.booleans()):
        pred = pred + gold[: draw(st.integers(0, len(gold)))]
    return gold, pred


@settings(max_examples=300, deadline=None)
@given(pair=result_pair(), seed=st.integers(0, 2**32))
def test_unordered_gold_scores_the_same_whatever_the_plan(pair, seed) -> None:
    """Rows of both results in any order, the prediction's columns in any order: one score."""
    gold, pred = pair
    rng = random.Random(seed)
    permutation = list(range(len(pred[0]) if pred else 0))
    rng.shuffle(permutation)
    other_gold = rng.sample(gold, len(gold))
    other_pred = [tuple(row[k] for k in permutation) for row in rng.sample(pred, len(pred))]
    sql = "SELECT a, b FROM t"
    assert soft_f1(*canonical_pair(sql, other_gold, "SELECT 1", other_pred)) == soft_f1(
        *canonical_pair(sql, gold, "SELECT 1", pred))


def _shuffle_within_ties(rows, column, rng):
    out = []
    for group in tie_groups(rows, (column,)):
        chunk = rows[group.start:group.stop]
        out.extend(rng.sample(chunk, len(chunk)))
    return out


@settings(max_examples=300, deadline=None)
@given(pair=result_pair(), seed=st.integers(0, 2**32))
def test_ordered_gold_scores_the_same_whatever_order_its_ties_come_in(pair, seed) -> None:
    """Gold ORDER BY its first column, the prediction ORDER BY its own first column: rows that tie
    on those keys may come in any order (the plan's choice) and the score does not move."""
    gold, pred = pair
    key = lambda r: value_order_key(r[0])  # noqa: E731
    gold, pred = sorted(gold, key=key), sorted(pred, key=key)
    rng = random.Random(seed)
    gold_sql, pred_sql = "SELECT a, b FROM t ORDER BY 1", "SELECT a, b FROM t ORDER BY a"
    expected = soft_f1(*canonical_pair(gold_sql, gold, pred_sql, pred))
    shuffled = canonical_pair(gold_sql, _shuffle_within_ties(gold, 0, rng), pred_sql, _shuffle_within_ties(pred, 0, rng))
    assert soft_f1(*shuffled) == expected


def test_ordered_gold_keeps_the_order_between_groups() -> None:
    gold = [(1, "x"), (2, "y")]
    reverse = [(2, "y"), (1, "x")]
    sql = "SELECT n, s FROM t ORDER BY n"
    assert soft_f1(*canonical_pair(sql, gold, sql, gold)) == 1.0
    assert soft_f1(*canonical_pair(sql, gold, sql + " DESC", reverse)) == 0.0  # wrong order stays wrong
    # a prediction without ORDER BY has no order of its own: it is put in the canonical one
    assert soft_f1(*canonical_pair(sql, gold, "SELECT n, s FROM t", reverse)) == 1.0


def test_failed_prediction_passes_through() -> None:
    assert canonical_pair("SELECT 1", [(1,)], None, None) == ([(1,)], None)


def test_prediction_too_deep_for_the_parser_does_not_stop_scoring() -> None:
    deep = "SELECT " + "(" * 3000 + "1" + ")" * 3000 + " AS n, 'x' AS s"
    gold_sql = "SELECT n, s FROM t ORDER BY n"
    rows = [(1, "x"), (1, "y")]
    assert canonical_pair(gold_sql, rows, deep, rows[::-1]) == (rows, rows)  # no ORDER BY: sorted
    assert canonical_pair(gold_sql, rows, deep + " ORDER BY 1", rows[::-1]) == (rows, rows[::-1])  # kept
