"""Spec of the result comparator: strict on data, lenient on shape."""

from __future__ import annotations

import datetime as dt
import math
import uuid
from decimal import Decimal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from heron_pipeline.scoring.comparator import compare, count_matching_rows, values_equal

UNORDERED = "SELECT a, b FROM t"
BY_A = "SELECT a, b FROM t ORDER BY a"
BY_HIDDEN = "SELECT a, b FROM t ORDER BY c"

U1 = uuid.UUID("12345678-1234-5678-1234-567812345678")
U2 = uuid.UUID("87654321-4321-8765-4321-876543218765")
UTC = dt.timezone.utc
D = Decimal

# (id, gold_sql, gold_rows, pred_rows, expected)
CASES = [
    # --- failure, emptiness, shape ---------------------------------------
    ("empty vs empty", UNORDERED, [], [], True),
    ("empty gold vs rows", UNORDERED, [], [(1, 2)], False),
    ("rows vs empty pred", UNORDERED, [(1, 2)], [], False),
    ("failed pred vs empty gold", UNORDERED, [], None, False),
    ("failed pred vs rows", UNORDERED, [(1, 2)], None, False),
    ("extra column", UNORDERED, [(1, 2)], [(1, 2, 3)], False),
    ("missing column", UNORDERED, [(1, 2)], [(1,)], False),
    # --- multiset semantics ----------------------------------------------
    ("same rows, other order", UNORDERED, [(1, "x"), (2, "y")], [(2, "y"), (1, "x")], True),
    ("duplicate kept", UNORDERED, [(1, "x"), (1, "x")], [(1, "x"), (1, "x")], True),
    ("duplicate missing", UNORDERED, [(1, "x"), (1, "x"), (2, "y")], [(1, "x"), (2, "y"), (2, "y")], False),
    ("extra duplicate", UNORDERED, [(1, "x")], [(1, "x"), (1, "x")], False),
    # --- column permutation ----------------------------------------------
    ("columns swapped", UNORDERED, [(1, "x"), (2, "y")], [("x", 1), ("y", 2)], True),
    ("columns swapped, rows shuffled", UNORDERED, [(1, "x"), (2, "y")], [("y", 2), ("x", 1)], True),
    # equal column multisets {1,2} and {1,2}: only the mapping that keeps rows aligned works
    ("same-signature columns, aligned", UNORDERED, [(1, 2), (2, 1), (3, 3)], [(2, 1), (1, 2), (3, 3)], True),
    # swapping the two int columns of (1,2,a),(2,1,b) gives (2,1,a),(1,2,b): a valid mapping
    ("same-signature columns, swap needed", UNORDERED, [(1, 2, "a"), (2, 1, "b")], [(1, 2, "b"), (2, 1, "a")], True),
    # neither identity nor swap of the int columns reproduces the gold rows
    (
        "same-signature columns, misaligned",
        UNORDERED,
        [(1, 2, "a"), (2, 3, "b"), (3, 1, "c")],
        [(1, 2, "b"), (2, 3, "a"), (3, 1, "c")],
        False,
    ),
    ("never sort columns independently", UNORDERED, [(1, "b"), (2, "a")], [(1, "a"), (2, "b")], False),
    ("identical duplicate columns", UNORDERED, [(1, 1, "x"), (2, 2, "y")], [("y", 2, 2), ("x", 1, 1)], True),
    # --- numbers ----------------------------------------------------------
    ("1 vs 1.0", UNORDERED, [(1,)], [(1.0,)], True),
    ("1 vs Decimal 1.00", UNORDERED, [(1,)], [(D("1.00"),)], True),
    ("1.0 vs Decimal 1.00", UNORDERED, [(1.0,)], [(D("1.00"),)], True),
    ("0.1+0.2 vs 0.3", UNORDERED, [(0.1 + 0.2,)], [(0.3,)], True),
    ("0.1+0.2 vs Decimal 0.3", UNORDERED, [(0.1 + 0.2,)], [(D("0.3"),)], True),
    ("1e-7 apart", UNORDERED, [(0.5,)], [(0.5 + 1e-7,)], True),
    ("1e-5 apart", UNORDERED, [(0.5,)], [(0.5 + 1e-5,)], False),
    ("int vs nearly-int float", UNORDERED, [(3,)], [(3.0000001,)], True),
    ("integers compare exactly", UNORDERED, [(10**15,)], [(10**15 + 1,)], False),
    ("integral float vs int, exact", UNORDERED, [(1e16,)], [(10**16 + 2,)], False),
    ("large relative tolerance", UNORDERED, [(123456789.123,)], [(123456789.1231,)], True),
    ("NaN equals NaN", UNORDERED, [(float("nan"),)], [(float("nan"),)], True),
    ("NaN vs Decimal NaN", UNORDERED, [(float("nan"),)], [(D("NaN"),)], True),
    ("NaN vs number", UNORDERED, [(float("nan"),)], [(0.0,)], False),
    ("inf vs inf", UNORDERED, [(math.inf,)], [(math.inf,)], True),
    ("inf vs -inf", UNORDERED, [(math.inf,)], [(-math.inf,)], False),
    # --- NULL and booleans ------------------------------------------------
    ("NULL equals NULL", UNORDERED, [(None, 1)], [(None, 1)], True),
    ("NULL vs 0", UNORDERED, [(None,)], [(0,)], False),
    ("NULL vs empty string", UNORDERED, [(None,)], [("",)], False),
    ("True vs 1", UNORDERED, [(True,)], [(1,)], False),
    ("False vs 0", UNORDERED, [(False,)], [(0,)], False),
    ("False vs 0.0", UNORDERED, [(False,)], [(0.0,)], False),
    ("True vs True", UNORDERED, [(True,)], [(True,)], True),
    # --- strings, bytes ---------------------------------------------------
    ("'a' vs 'a '", UNORDERED, [("a",)], [("a ",)], False),
    ("'a' vs 'A'", UNORDERED, [("a",)], [("A",)], False),
    ("'1' vs 1", UNORDERED, [("1",)], [(1,)], False),
    ("bytes by value", UNORDERED, [(b"\x00\x01",)], [(bytes([0, 1]),)], True),
    ("bytes vs memoryview", UNORDERED, [(b"ab",)], [(memoryview(b"ab"),)], True),
    ("bytes differ", UNORDERED, [(b"ab",)], [(b"ac",)], False),
    # --- temporal, UUID ---------------------------------------------------
    ("date vs same date", UNORDERED, [(dt.date(2024, 1, 2),)], [(dt.date(2024, 1, 2),)], True),
    ("date vs datetime", UNORDERED, [(dt.date(2024, 1, 2),)], [(dt.datetime(2024, 1, 2),)], False),
    (
        "aware datetimes, same instant",
        UNORDERED,
        [(dt.datetime(2024, 1, 2, 12, tzinfo=UTC),)],
        [(dt.datetime(2024, 1, 2, 14, tzinfo=dt.timezone(dt.timedelta(hours=2))),)],
        True,
    ),
    ("time by value", UNORDERED, [(dt.time(8, 30),)], [(dt.time(8, 30),)], True),
    ("UUID equals UUID", UNORDERED, [(U1,)], [(uuid.UUID(str(U1)),)], True),
    ("UUID vs other UUID", UNORDERED, [(U1,)], [(U2,)], False),
    ("UUID vs its string", UNORDERED, [(U1,)], [(str(U1),)], False),
    # --- JSON and arrays --------------------------------------------------
    ("jsonb key order irrelevant", UNORDERED, [({"a": 1, "b": 2},)], [({"b": 2, "a": 1},)], True),
    ("jsonb list order matters", UNORDERED, [({"a": [1, 2]},)], [({"a": [2, 1]},)], False),
    ("jsonb nested numbers by value", UNORDERED, [({"a": [1, 0.3]},)], [({"a": [1.0, 0.1 + 0.2]},)], True),
    ("jsonb true vs 1", UNORDERED, [({"a": True},)], [({"a": 1},)], False),
    ("jsonb extra key", UNORDERED, [({"a": 1},)], [({"a": 1, "b": None},)], False),
    ("array equal", UNORDERED, [([1, 2, 3],)], [([1, 2, 3],)], True),
    ("array element order matters", UNORDERED, [([1, 2, 3],)], [([3, 2, 1],)], False),
    ("array of Decimal vs int", UNORDERED, [([D("1.0"), 2],)], [([1, 2],)], True),
    ("array vs json object", UNORDERED, [([["a", 1]],)], [({"a": 1},)], False),
    # --- ordering -----------------------------------------------------------
    ("ordered, same order", BY_A, [(1, "x"), (2, "y")], [(1, "x"), (2, "y")], True),
    ("ordered, groups swapped", BY_A, [(1, "x"), (2, "y")], [(2, "y"), (1, "x")], False),
    ("ordered, tie group shuffled", BY_A, [(1, "x"), (1, "y"), (2, "z")], [(1, "y"), (1, "x"), (2, "z")], True),
    ("ordered, row moved across groups", BY_A, [(1, "x"), (1, "y"), (2, "z")], [(1, "x"), (2, "z"), (1, "y")], False),
    ("ordered, columns permuted", BY_A, [(1, "x"), (2, "y")], [("x", 1), ("y", 2)], True),
    ("ordered by hidden key: row by row", BY_HIDDEN, [(1, "x"), (1, "x"), (2, "y")], [(1, "x"), (1, "x"), (2, "y")], True),
    ("ordered by hidden key: no tie groups", BY_HIDDEN, [(1, "x"), (1, "y")], [(1, "y"), (1, "x")], False),
    ("ORDER BY in subquery ignored", "SELECT a, b FROM (SELECT a, b FROM t ORDER BY a) s", [(1, "x"), (2, "y")], [(2, "y"), (1, "x")], True),
    ("ORDER BY in CTE ignored", "WITH s AS (SELECT a, b FROM t ORDER BY a) SELECT a, b FROM s", [(1, "x"), (2, "y")], [(2, "y"), (1, "x")], True),
    ("ORDER BY in window ignored", "SELECT a, row_number() OVER (ORDER BY a) FROM t", [(1, 1), (2, 2)], [(2, 2), (1, 1)], True),
    ("UNION ... ORDER BY enforced", "SELECT a FROM t UNION SELECT a FROM u ORDER BY 1", [(1,), (2,)], [(2,), (1,)], False),
    ("ordered with tolerance", BY_A, [(0.1 + 0.2, "x"), (1.0, "y")], [(0.3, "x"), (1, "y")], True),
    ("ordered DESC by alias, ties", "SELECT a, count(*) AS n FROM t GROUP BY a ORDER BY n DESC", [("p", 3), ("q", 1), ("r", 1)], [("p", 3), ("r", 1), ("q", 1)], True),
]


@pytest.mark.parametrize(("gold_sql", "gold", "pred", "expected"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_compare_table(gold_sql, gold, pred, expected):
    assert compare(gold_sql, gold, pred) is expected


@pytest.mark.parametrize(("gold_sql", "gold", "pred", "expected"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_compare_is_symmetric_on_the_table(gold_sql, gold, pred, expected):
    """Swapping the roles never changes the verdict when both sides ran."""
    if pred is not None:
        assert compare(gold_sql, pred, gold) is expected


VALUE_CASES = [
    (1, 1.0, True),
    (True, 1, False),
    (None, None, True),
    (float("nan"), float("nan"), True),
    (D("2.50"), 2.5, True),
    (2.5, 2.5 + 2e-6, False),
    ("x", "x", True),
    ({"k": [1, {"z": 0.1}]}, {"k": [1, {"z": 0.1 + 1e-12}]}, True),
]


@pytest.mark.parametrize(("a", "b", "expected"), VALUE_CASES)
def test_values_equal(a, b, expected):
    assert values_equal(a, b) is expected


def test_tolerance_chain_needs_a_matching_not_greedy_pairing():
    """0 ~ -0.9e-6 and 0 ~ 0.9e-6, but -0.9e-6 !~ 0.9e-6: only one pairing works."""
    gold = [(0, "k"), (-0.9e-6, "k")]
    pred = [(0, "k"), (0.9e-6, "k")]
    # pairs: gold 0 ↔ pred 0.9e-6 and gold -0.9e-6 ↔ pred 0
    assert compare(UNORDERED, gold, pred) is True


def test_count_matching_rows_is_a_maximum_pairing():
    assert count_matching_rows([(1,), (1,), (2,)], [(1.0,), (3,), (2,)]) == 2


# --------------------------------------------------------------------------- #
# Properties
# --------------------------------------------------------------------------- #

cells = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-5, 5),
    st.sampled_from([0.5, 0.25, 1.5, -2.75]),
    st.sampled_from([D("0.10"), D("3.5"), D("-1.25")]),
    st.sampled_from(["a", "b", "A", "a "]),
    st.sampled_from([dt.date(2024, 1, 1), dt.date(2024, 1, 2), U1]),
)


@st.composite
def results(draw, min_rows=1):
    width = draw(st.integers(1, 4))
    rows = draw(st.lists(st.tuples(*[cells] * width), min_size=min_rows, max_size=12))
    return rows


@st.composite
def shuffled(draw, rows):
    perm_rows = draw(st.permutations(range(len(rows))))
    perm_cols = draw(st.permutations(range(len(rows[0]))))
    return [tuple(rows[i][j] for j in perm_cols) for i in perm_rows]


@given(data=st.data(), rows=results())
@settings(max_examples=200, deadline=None)
def test_unordered_invariant_under_row_and_column_shuffles(data, rows):
    assert compare(UNORDERED, rows, data.draw(shuffled(rows))) is True


def _different(value):
    """A value not equal to `value` under the rules (a fresh string never equals anything here)."""
    return "<changed>"


@given(data=st.data(), rows=results())
@settings(max_examples=200, deadline=None)
def test_changed_cell_is_wrong(data, rows):
    i = data.draw(st.integers(0, len(rows) - 1))
    j = data.draw(st.integers(0, len(rows[0]) - 1))
    changed = list(rows)
    changed[i] = tuple(_different(v) if k == j else v for k, v in enumerate(rows[i]))
    assert compare(UNORDERED, rows, data.draw(shuffled(changed))) is False


@given(data=st.data(), rows=results())
@settings(max_examples=200, deadline=None)
def test_changed_number_beyond_tolerance_is_wrong(data, rows):
    numbers = [(i, j) for i, r in enumerate(rows) for j, v in enumerate(r) if type(v) in (int, float, Decimal)]
    if not numbers:
        return
    i, j = data.draw(st.sampled_from(numbers))
    changed = list(rows)
    changed[i] = tuple(v + 1000 if k == j else v for k, v in enumerate(rows[i]))
    assert compare(UNORDERED, rows, data.draw(shuffled(changed))) is False


@given(data=st.data(), rows=results())
@settings(max_examples=200, deadline=None)
def test_duplicated_or_dropped_row_is_wrong(data, rows):
    i = data.draw(st.integers(0, len(rows) - 1))
    duplicated = rows + [rows[i]]
    dropped = rows[:i] + rows[i + 1 :]
    assert compare(UNORDERED, rows, data.draw(shuffled(duplicated))) is False
    if dropped:
        assert compare(UNORDERED, rows, data.draw(shuffled(dropped))) is False


@st.composite
def ordered_results(draw):
    """Rows sorted by an int key in column 0 with ties, plus a payload column."""
    keys = sorted(draw(st.lists(st.integers(0, 4), min_size=2, max_size=12)))
    payload = draw(st.lists(st.sampled_from(["a", "b", "c", None]), min_size=len(keys), max_size=len(keys)))
    return list(zip(keys, payload))


@given(data=st.data(), rows=ordered_results())
@settings(max_examples=200, deadline=None)
def test_ordered_shuffle_within_tie_groups_keeps_match(data, rows):
    groups: dict[int, list] = {}
    for row in rows:
        groups.setdefault(row[0], []).append(row)
    pred = [r for k in sorted(groups) for r in data.draw(st.permutations(groups[k]))]
    assert compare(BY_A, rows, pred) is True


@given(data=st.data(), rows=ordered_results())
@settings(max_examples=200, deadline=None)
def test_ordered_swap_across_groups_breaks_match(data, rows):
    pairs = [(i, j) for i in range(len(rows)) for j in range(i + 1, len(rows)) if rows[i][0] != rows[j][0]]
    if not pairs:
        return
    i, j = data.draw(st.sampled_from(pairs))
    pred = list(rows)
    pred[i], pred[j] = pred[j], pred[i]
    assert compare(BY_A, rows, pred) is False


@given(rows=results(min_rows=2), data=st.data())
@settings(max_examples=100, deadline=None)
def test_float_noise_within_tolerance_is_accepted(rows, data):
    noisy = [tuple(v * (1 + 1e-12) if type(v) is float else v for v in r) for r in rows]
    assert compare(UNORDERED, rows, data.draw(shuffled(noisy))) is True
