"""Partial-credit scores for results that are not exactly right.

`soft_f1` is BIRD mini-dev's Soft-F1 (`calculate_f1_score` in
`evaluation/evaluation_f1.py`, commit 4d970a9), computed the way that code
computes it - including where its behaviour differs from the README's prose -
so that a heron Soft-F1 means what a BIRD Soft-F1 means:

* duplicate rows are dropped (first occurrence kept, order kept);
* the i-th gold row is paired with the i-th predicted row: the score depends on
  the row order it is given, so the harness puts both results in a canonical
  order first (`row_order.canonical_rows`);
* within a pair a value counts as matched when it occurs *anywhere* in the other
  row (Python `in`, so a repeated value counts each time), and every share -
  matched, prediction-only and gold-only - is divided by the **gold** row's
  width;
* values compare with Python `==` (True == 1 == 1.0 == Decimal(1), but
  Decimal("0.1") != 0.1, and NaN equals nothing).

`row_multiset_f1` is heron's own, order-free alternative: precision and recall
over whole rows as multisets, with the comparator's value rules (tolerance,
booleans apart from numbers).
"""

from __future__ import annotations

import datetime as _dt
import uuid
from decimal import Decimal
from typing import Sequence

from .comparator import count_matching_rows


class _Tag:
    """A unique marker heading the hashable form of a list or dict; equal only to itself."""

    __slots__ = ("name",)

    def __init__(self, name: str) -> None:
        self.name = name

    def __repr__(self) -> str:  # pragma: no cover - debugging aid
        return f"<{self.name}>"


_LIST = _Tag("list")
_DICT = _Tag("dict")
_UNHASHABLE = _Tag("unhashable")

# Hashable as they come, and their == is the value equality BIRD's code uses.
_AS_IS = frozenset({type(None), bool, int, str, bytes, _dt.date, _dt.datetime, _dt.time, _dt.timedelta, uuid.UUID})


def hashable_value(value: object) -> object:
    """`value` in a hashable form whose `==` is Python's `==` on the original.

    Lists (SQL arrays, JSON arrays) become tagged tuples and dicts (JSON
    objects) tagged tuples of key-sorted items, recursively, so `[1, 2] ==
    [1.0, 2]` still holds and key order still does not matter.  Every NaN
    becomes a fresh NaN object: Python's `in` tests identity before `==`, so a
    NaN shared between two results would otherwise match by accident of how
    they were decoded, where `==` says it never matches.
    """
    t = type(value)
    if t in _AS_IS:
        return value
    if t is float:
        return float("nan") if value != value else value
    if t is Decimal:
        return Decimal("NaN") if value.is_nan() else value
    if t is list or t is tuple:
        items = tuple(map(hashable_value, value))
        return (_LIST, items) if t is list else items
    if t is dict:
        items = sorted(value.items(), key=lambda kv: (type(kv[0]).__name__, str(kv[0])))
        return (_DICT, tuple((hashable_value(k), hashable_value(v)) for k, v in items))
    if t is bytearray or t is memoryview:
        return bytes(value)
    try:
        hash(value)
    except TypeError:
        return (_UNHASHABLE, t.__name__, repr(value))
    return value


def hashable_row(row: Sequence) -> tuple:
    """A row as a tuple of `hashable_value`s (BIRD's code puts rows in a set and a dict)."""
    return tuple(map(hashable_value, row))


def _distinct(rows: Sequence[Sequence]) -> list[tuple]:
    return list(dict.fromkeys(map(hashable_row, rows)))


def soft_f1(gold_rows: Sequence[tuple], pred_rows: Sequence[tuple] | None) -> float:
    """BIRD mini-dev Soft-F1 in [0, 1] of `pred_rows` against `gold_rows`, in the order given.

    Equals `calculate_f1_score(pred_rows, gold_rows)` of BIRD mini-dev (see the
    module docstring), with two additions for inputs that code cannot take: a
    failed prediction (`pred_rows is None`) scores 0, and a zero-width gold
    row paired with a prediction row scores 0 (BIRD's code divides by zero
    there, and its runner scores the exception 0).
    """
    if pred_rows is None:
        return 0.0
    if not gold_rows and not pred_rows:
        return 1.0
    gold, pred = _distinct(gold_rows), _distinct(pred_rows)
    # Summed in BIRD's order (paired rows, then unpaired gold, then unpaired
    # predicted rows), one term at a time, so the floats come out bit-equal.
    tp = fp = fn = 0.0
    for gold_row, pred_row in zip(gold, pred):
        width = len(gold_row)
        if width == 0:
            return 0.0
        matched = sum(1 for v in pred_row if v in gold_row)
        gold_only = sum(1 for v in gold_row if v not in pred_row)
        tp += matched / width
        fp += (len(pred_row) - matched) / width
        fn += gold_only / width
    for _ in range(len(gold) - len(pred)):
        fn += 1
    for _ in range(len(pred) - len(gold)):
        fp += 1
    precision = tp / (tp + fp) if tp + fp > 0 else 0.0
    recall = tp / (tp + fn) if tp + fn > 0 else 0.0
    return 2 * precision * recall / (precision + recall) if precision + recall > 0 else 0.0


def _f1(precision: float, recall: float) -> float:
    return 0.0 if precision + recall == 0 else 2 * precision * recall / (precision + recall)


def row_multiset_f1(gold_rows: Sequence[tuple], pred_rows: Sequence[tuple] | None) -> float:
    """F1 of row precision (matched ÷ predicted rows) and recall (matched ÷ gold rows).

    Rows are multisets and columns are compared positionally; "matched" is the
    largest one-to-one pairing under the comparator's value equality.
    """
    if pred_rows is None:
        return 0.0
    if not gold_rows and not pred_rows:
        return 1.0
    if not gold_rows or not pred_rows:
        return 0.0
    matched = count_matching_rows(gold_rows, pred_rows)
    return _f1(matched / len(pred_rows), matched / len(gold_rows))
