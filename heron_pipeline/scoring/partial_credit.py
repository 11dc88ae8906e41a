"""Partial-credit scores for results that are not exactly right.

Soft-F1 follows BIRD mini-dev: it pairs rows *by position* after removing
duplicates and scores cell overlap within each pair, so it rewards a mostly
right answer but is sensitive to row order.  `row_multiset_f1` is our own,
order-free alternative: precision/recall over whole rows as multisets, with the
comparator's value rules.
"""

from __future__ import annotations

from collections import Counter
from typing import Sequence

from .comparator import count_matching_rows, value_key


def _f1(precision: float, recall: float) -> float:
    return 0.0 if precision + recall == 0 else 2 * precision * recall / (precision + recall)


def _dedupe(rows: Sequence[tuple]) -> list[tuple]:
    """Rows as value keys, duplicates dropped, first occurrence order kept."""
    keyed = (tuple(value_key(v) for v in row) for row in rows)
    return list(dict.fromkeys(keyed))


def _pair_scores(gold_row: tuple, pred_row: tuple) -> tuple[float, float, float]:
    """(matched, prediction-only, gold-only) for one positional pair, as row-width fractions.

    Values are matched as a multiset intersection.  Matched and gold-only are
    divided by the gold row's width, prediction-only by the predicted row's.
    """
    matched = sum((Counter(gold_row) & Counter(pred_row)).values())
    gold_width, pred_width = len(gold_row), len(pred_row)
    tp = matched / gold_width if gold_width else 0.0
    fn = (gold_width - matched) / gold_width if gold_width else 0.0
    fp = (pred_width - matched) / pred_width if pred_width else 0.0
    return tp, fp, fn


def soft_f1(gold_rows: Sequence[tuple], pred_rows: Sequence[tuple] | None) -> float:
    """BIRD mini-dev Soft-F1 in [0, 1] (see module docstring); a failed prediction scores 0."""
    if pred_rows is None:
        return 0.0
    if not gold_rows and not pred_rows:
        return 1.0
    if not gold_rows or not pred_rows:
        return 0.0
    gold, pred = _dedupe(gold_rows), _dedupe(pred_rows)
    tp = fp = fn = 0.0
    for i in range(max(len(gold), len(pred))):
        if i >= len(pred):
            fn += 1
        elif i >= len(gold):
            fp += 1
        else:
            pair_tp, pair_fp, pair_fn = _pair_scores(gold[i], pred[i])
            tp, fp, fn = tp + pair_tp, fp + pair_fp, fn + pair_fn
    precision = tp / (tp + fp) if tp + fp else 0.0
    recall = tp / (tp + fn) if tp + fn else 0.0
    return _f1(precision, recall)


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
