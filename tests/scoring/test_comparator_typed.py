"""The comparator's typed fast paths (int64 / date / float / polars str views,
packed-hash pairing, collision settling) must give exactly the verdicts of the
value rules, including on inputs built to fool hashes or numpy conversions."""

from __future__ import annotations

import datetime as dt
import math
import random
from decimal import Decimal

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from heron_pipeline.scoring.comparator import compare
from heron_pipeline.scoring.comparator_typed import guessed_column, python_int_hashes, typed_column

UNORDERED = "SELECT a, b FROM t"
BY_A = "SELECT a, b FROM t ORDER BY a"
P = (1 << 61) - 1  # CPython's numeric hash modulus: hash(x) == hash(x + P)
D = Decimal
NAN = float("nan")
UTC = dt.timezone.utc

CASES = [
    # --- ints: int64 edges, beyond int64, hash-equal but different values ----
    ("-1 vs -2 (equal hashes)", UNORDERED, [(-1,)], [(-2,)], False),
    ("-1,-2 vs -2,-2", UNORDERED, [(-1,), (-2,)], [(-2,), (-2,)], False),
    ("-1,-2 shuffled", UNORDERED, [(-1, "x"), (-2, "y")], [("y", -2), ("x", -1)], True),
    ("x vs x + P", UNORDERED, [(5,)], [(5 + P,)], False),
    ("x, x+P swapped rows", UNORDERED, [(5,), (5 + P,)], [(5 + P,), (5,)], True),
    ("x, x vs x, x+P", UNORDERED, [(5,), (5,)], [(5,), (5 + P,)], False),
    ("x+P pairs under a str column", UNORDERED, [(7, "a"), (7 + P, "b")], [(7, "b"), (7 + P, "a")], False),
    ("int64 min/max", UNORDERED, [(-(2**63), 1), (2**63 - 1, 2)], [(2**63 - 1, 2), (-(2**63), 1)], True),
    ("beyond int64 equal", UNORDERED, [(2**63,), (1,)], [(1,), (2**63,)], True),
    ("beyond int64 differ", UNORDERED, [(2**64,)], [(2**64 + 1,)], False),
    ("beyond int64 vs int64 same hash", UNORDERED, [(2**64 + 7,)], [(2**64 + 7 - P,)], False),
    ("NULL vs 0 in int column", UNORDERED, [(None,), (1,)], [(0,), (1,)], False),
    ("int|NULL shuffled", UNORDERED, [(None, 1), (0, 2), (3, 3)], [(3, 3), (2, 0), (1, None)], True),
    # --- bools hiding in int columns ---------------------------------------
    ("int then True vs ints", UNORDERED, [(1,), (True,)], [(1,), (1,)], False),
    ("int then False vs ints", UNORDERED, [(0,), (False,)], [(0,), (0,)], False),
    ("int then bool shuffled", UNORDERED, [(1,), (True,)], [(True,), (1,)], True),
    ("bool column vs int column", UNORDERED, [(True,), (False,)], [(1,), (0,)], False),
    # --- floats and NaN ------------------------------------------------------
    ("NaN rows shuffled", UNORDERED, [(NAN, "a"), (1.5, "b")], [("b", 1.5), ("a", NAN)], True),
    ("NaN vs NULL", UNORDERED, [(NAN,)], [(None,)], False),
    ("NaN and NULL shuffled", UNORDERED, [(NAN,), (None,), (2.0,)], [(None,), (2.0,), (NAN,)], True),
    ("0.0 vs -0.0", UNORDERED, [(0.0,)], [(-0.0,)], True),
    ("float vs int column", UNORDERED, [(1.0,), (2.0,)], [(2,), (1,)], True),
    ("float vs int column, off", UNORDERED, [(1.0,), (2.5,)], [(2,), (1,)], False),
    # --- strings -------------------------------------------------------------
    ("str with trailing NUL", UNORDERED, [("a\x00",)], [("a",)], False),
    ("str with NUL equal", UNORDERED, [("a\x00", 1), ("b", 2)], [(2, "b"), (1, "a\x00")], True),
    ("str vs NULL", UNORDERED, [("",)], [(None,)], False),
    ("str|NULL shuffled", UNORDERED, [("x", None), (None, "y")], [(None, "y"), ("x", None)], True),
    ("lone surrogate", UNORDERED, [("\ud800", 1)], [(1, "\ud800")], True),
    ("lone surrogates differ", UNORDERED, [("\ud800",)], [("\ud801",)], False),
    ("str then int in one column", UNORDERED, [("1",), (1,)], [(1,), ("1",)], True),
    ("str then int vs strs", UNORDERED, [("1",), (1,)], [("1",), ("1",)], False),
    ("str then Decimal NaN", UNORDERED, [("a",), (D("NaN"),)], [(D("NaN"),), ("a",)], True),
    # --- dates, datetimes ----------------------------------------------------
    ("dates shuffled", UNORDERED, [(dt.date(2024, 1, 2),), (dt.date(2020, 5, 1),)], [(dt.date(2020, 5, 1),), (dt.date(2024, 1, 2),)], True),
    ("date column vs datetime column", UNORDERED, [(dt.date(2024, 1, 2),), (dt.date(2024, 1, 3),)], [(dt.datetime(2024, 1, 2),), (dt.datetime(2024, 1, 3),)], False),
    ("date then datetime in a column", UNORDERED, [(dt.date(2024, 1, 2),), (dt.datetime(2024, 1, 2),)], [(dt.date(2024, 1, 2),), (dt.date(2024, 1, 2),)], False),
    ("date|NULL vs date", UNORDERED, [(dt.date(2024, 1, 2),), (None,)], [(dt.date(2024, 1, 2),), (dt.date(1, 1, 1),)], False),
    (
        "aware vs naive datetime",
        UNORDERED,
        [(dt.datetime(2024, 1, 2, 12, tzinfo=UTC),)],
        [(dt.datetime(2024, 1, 2, 12),)],
        False,
    ),
    # --- a column typed on one side only ------------------------------------
    ("int gold, Decimal pred", UNORDERED, [(1, "a"), (2, "b")], [("b", D("2.00")), ("a", D("1"))], True),
    ("int gold, Decimal pred, off", UNORDERED, [(1,), (2,)], [(D("1.5"),), (D("2"),)], False),
    ("int|NULL gold, Decimal|NULL pred", UNORDERED, [(None,), (3,)], [(D("3.0"),), (None,)], True),
    ("Decimal -1 vs -2", UNORDERED, [(D("-1"),)], [(D("-2"),)], False),
    ("Decimal -1.00 vs int -1", UNORDERED, [(D("-1.00"),), (D("-2"),)], [(-2,), (-1,)], True),
    # --- ordered, typed tie groups -------------------------------------------
    ("ordered: NULL ties NULL", BY_A, [(None, "x"), (None, "y"), (1, "z")], [(None, "y"), (None, "x"), (1, "z")], True),
    ("ordered: NULL group moved", BY_A, [(None, "x"), (1, "z")], [(1, "z"), (None, "x")], False),
    ("ordered: NaN ties NaN", BY_A, [(NAN, "x"), (NAN, "y"), (1.0, "z")], [(NAN, "y"), (NAN, "x"), (1.0, "z")], True),
    ("ordered: str ties", BY_A, [("a", 1), ("a", 2), ("b", 3)], [("a", 2), ("a", 1), ("b", 3)], True),
    ("ordered: str groups swapped", BY_A, [("a", 1), ("b", 3)], [("b", 3), ("a", 1)], False),
    ("ordered: str NULL ties", BY_A, [(None, 1), (None, 2), ("b", 3)], [(None, 2), (None, 1), ("b", 3)], True),
    ("ordered: date ties", BY_A, [(dt.date(2024, 1, 1), 1), (dt.date(2024, 1, 1), 2)], [(dt.date(2024, 1, 1), 2), (dt.date(2024, 1, 1), 1)], True),
]


@pytest.mark.parametrize(("gold_sql", "gold", "pred", "expected"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_typed_cases(gold_sql, gold, pred, expected):
    assert compare(gold_sql, gold, pred) is expected


@pytest.mark.parametrize(("gold_sql", "gold", "pred", "expected"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_typed_cases_symmetric(gold_sql, gold, pred, expected):
    assert compare(gold_sql, pred, gold) is expected


EDGE_INTS = [0, 1, -1, -2, 2, P, -P, P - 1, -(P - 1), P + 1, 2**62, -(2**62), 2**63 - 1, -(2**63), -(2**63) + 1]


def test_python_int_hashes_match_cpython():
    rng = random.Random(3)
    values = EDGE_INTS + [rng.randint(-(2**63), 2**63 - 1) for _ in range(5000)]
    got = python_int_hashes(np.array(values, dtype=np.int64))
    assert got.tolist() == [hash(v) for v in values]


def test_python_int_hashes_below_the_modulus_match_cpython():
    """Every value within +-(P-1): the fast path (x is its own hash, -1 -> -2)."""
    rng = random.Random(4)
    values = [0, 1, -1, -2, 2, P - 1, -(P - 1)] + [rng.randint(-(P - 1), P - 1) for _ in range(5000)]
    got = python_int_hashes(np.array(values, dtype=np.int64))
    assert got.tolist() == [hash(v) for v in values]


# int|NULL columns: a real int64 minimum (the value the earlier one-pass reader used for NULL) must
# not pass for a NULL, and anything that is not an int must still be refused.
INT_NULL_CASES = [
    ([None, 1, 2], [0, 1, 2], [True, False, False]),
    ([1, None, -(2**63)], [1, 0, -(2**63)], [False, True, False]),
    ([-(2**63), None, None, -(2**63)], [-(2**63), 0, 0, -(2**63)], [False, True, True, False]),
    ([None, 0, 1], [0, 0, 1], [True, False, False]),
]


@pytest.mark.parametrize(("column", "values", "nulls"), INT_NULL_CASES)
def test_int_null_columns_read_exactly(column, values, nulls):
    types, typed = guessed_column(column)
    assert types == {int, type(None)} and typed.domain == "int"
    assert typed.values.tolist() == values and typed.nulls.tolist() == nulls


@pytest.mark.parametrize(
    ("column", "domain"),
    [
        ((1, 2, 3), "int"),
        ([1, None, True], None),
        ([1, None, False], None),
        ([1, None, 2.0], None),
        ([1, None, D(2)], None),
        ([1, None, 2**63], None),
        ([1, None, "a"], None),
        ([1, None, [1]], None),
        ((1, None, 3), "int"),
        ((None, 1), "int"),
        (("a", None), None),  # str columns are typed after their type pass
        ((1, True), None),
        ((1, 2**63), None),
        ((1, 2.0), None),
        ((1, D(2)), None),
        (("a", 1), None),
        (("a", b"a"), None),
    ],
)
def test_guessed_columns_only_when_lossless(column, domain):
    guessed = guessed_column(column)
    assert (None if guessed is None else guessed[1].domain) == domain


@pytest.mark.parametrize(
    ("column", "domain"),
    [
        ((dt.date(2024, 1, 1), None), "date"),
        ((dt.date(2024, 1, 1), dt.datetime(2024, 1, 1)), None),
        ((1.5, None, NAN), "float"),
        (("a", None, "b\x00"), "str"),
        (("a", "\ud800"), None),
        ((1.5, 2), None),
        ((True, False), None),
    ],
)
def test_typed_columns_only_when_lossless(column, domain):
    typed = typed_column(column, set(map(type, column)))
    assert (None if typed is None else typed.domain) == domain


def _big_result(n: int, seed: int) -> list[tuple]:
    rng = random.Random(seed)
    return [
        (
            i,
            D(rng.randint(0, 10**5)) / 100,
            f"label-{rng.randint(0, 50)}",
            dt.date(2020, 1, 1) + dt.timedelta(days=rng.randint(0, 30)),
            None if rng.random() < 0.3 else rng.randint(0, 5),
            rng.choice([0.5, NAN, None, -2.25]),
        )
        for i in range(n)
    ]


def _shuffle(rows: list[tuple], seed: int) -> list[tuple]:
    rng = random.Random(seed)
    perm = list(range(len(rows[0])))
    rng.shuffle(perm)
    out = [tuple(r[j] for j in perm) for r in rows]
    rng.shuffle(out)
    return out


def test_large_shuffled_result_matches():
    gold = _big_result(5000, 1)
    assert compare(UNORDERED, gold, _shuffle(gold, 2)) is True


@pytest.mark.parametrize(
    "change",
    [
        lambda r: (r[0] + P,) + r[1:],  # same Python hash
        lambda r: r[:1] + (r[1] + D("0.01"),) + r[2:],
        lambda r: r[:2] + (r[2] + "\x00",) + r[3:],
        lambda r: r[:3] + (dt.datetime.combine(r[3], dt.time()),) + r[4:],
        lambda r: r[:4] + ((0 if r[4] is None else None),) + r[5:],
        lambda r: r[:5] + ((1.0 if r[5] is None or r[5] != r[5] else None),),
    ],
    ids=["int+P", "decimal", "str NUL", "date->datetime", "NULL<->0", "float"],
)
def test_large_result_with_one_changed_cell_is_rejected(change):
    gold = _big_result(3000, 4)
    pred = list(gold)
    pred[1234] = change(pred[1234])
    assert compare(UNORDERED, gold, _shuffle(pred, 5)) is False


def test_large_hash_colliding_rows_are_settled_exactly():
    """Every row's int hashes equal another row's (x vs x + P): pairing by hash is
    ambiguous, only counting the real values can decide."""
    values = list(range(2000))
    gold = [(v,) for v in values] + [(v + P,) for v in values]
    pred = list(reversed(gold))
    assert compare(UNORDERED, gold, pred) is True
    lopsided = [(v,) for v in values] * 2
    assert compare(UNORDERED, gold, lopsided) is False


def test_large_ordered_ties():
    gold = sorted(_big_result(4000, 6), key=lambda r: r[3])
    groups: dict = {}
    for row in gold:
        groups.setdefault(row[3], []).append(row)
    pred = [row for day in sorted(groups) for row in reversed(groups[day])]
    sql = "SELECT a, b, c, d, e, f FROM t ORDER BY d"
    assert compare(sql, gold, pred) is True
    moved = list(pred)
    first_day = sorted(groups)[0]
    moved.append(moved.pop(0))  # a first-day row moved to the last day
    assert len(groups[first_day]) > 1 and compare(sql, gold, moved) is False


typed_cells = st.one_of(
    st.none(),
    st.sampled_from([-2, -1, 0, 1, 5, 5 + P, 2**63 - 1, -(2**63), 2**63, 2**64 + 5]),
    st.sampled_from([0.5, -0.0, 0.0, NAN, math.inf]),
    st.sampled_from(["a", "a\x00", "", "A"]),
    st.sampled_from([dt.date(2024, 1, 1), dt.datetime(2024, 1, 1)]),
    st.booleans(),
)


@st.composite
def homogeneous_results(draw):
    """Rows whose columns mostly hold one kind of value, so typed views kick in."""
    width = draw(st.integers(1, 3))
    kinds = [draw(st.sampled_from(["int", "float", "str", "date", "mixed"])) for _ in range(width)]
    pools = {
        "int": st.one_of(st.none(), st.sampled_from([-2, -1, 0, 1, 5, 5 + P, 2**63 - 1, -(2**63)])),
        "float": st.one_of(st.none(), st.sampled_from([0.5, -0.0, NAN, math.inf])),
        "str": st.one_of(st.none(), st.sampled_from(["a", "a\x00", "", "A"])),
        "date": st.one_of(st.none(), st.sampled_from([dt.date(2024, 1, 1), dt.date(2024, 1, 2)])),
        "mixed": typed_cells,
    }
    return draw(st.lists(st.tuples(*[pools[k] for k in kinds]), min_size=1, max_size=10))


def _reference_equal(gold, pred) -> bool:
    """Multiset equality under the identity column mapping, by brute force on the value rules."""
    from heron_pipeline.scoring.comparator import values_equal

    remaining = list(pred)
    for row in gold:
        for k, cand in enumerate(remaining):
            if all(values_equal(a, b) for a, b in zip(row, cand)):
                del remaining[k]
                break
        else:
            return False
    return not remaining


@given(data=st.data(), rows=homogeneous_results())
@settings(max_examples=300, deadline=None)
def test_typed_paths_agree_with_brute_force(data, rows):
    """Against a row-shuffled copy with one cell replaced by another candidate value."""
    i = data.draw(st.integers(0, len(rows) - 1))
    j = data.draw(st.integers(0, len(rows[0]) - 1))
    changed = list(rows)
    changed[i] = tuple(data.draw(typed_cells) if k == j else v for k, v in enumerate(rows[i]))
    pred = data.draw(st.permutations(changed))
    if len(rows[0]) == 1:
        # one column: no permutation question, the brute force is the full truth
        assert compare(UNORDERED, rows, pred) is _reference_equal(rows, pred)
    elif _reference_equal(rows, pred):
        assert compare(UNORDERED, rows, pred) is True


def test_pairing_survives_hash_prefix_ties():
    """Packed sorting compares only hash prefixes; rows whose full hashes differ
    but share a prefix must still be paired by their full hashes."""
    from heron_pipeline.scoring.comparator import _partner_by_hash

    a, b = np.uint64(0xABCDEF0123456782), np.uint64(0xABCDEF0123456783)  # differ in the index bit only
    gold = np.array([a, b], dtype=np.uint64)
    assert _partner_by_hash(gold, np.array([b, a], dtype=np.uint64), positional=False).tolist() == [1, 0]
    assert _partner_by_hash(gold, np.array([a, a], dtype=np.uint64), positional=False) is None
