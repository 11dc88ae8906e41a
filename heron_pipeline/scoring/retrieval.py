"""Schema retrieval quality: did the tool surface the tables the gold query uses?"""

from __future__ import annotations

from typing import Iterable, Sequence


def _normalise(name: str) -> str:
    """Schema-qualified names compare case-insensitively ("Sales.Orders" = "sales.orders")."""
    return name.strip().lower()


def set_recall_at_k(retrieved: Sequence[str], gold_tables: Iterable[str], k: int | None = None) -> float:
    """|top-k retrieved ∩ gold| ÷ |gold| (k=None: every retrieved table), in [0, 1].

    Duplicates in the retrieved list do not count twice.  Recall against an empty
    gold set is undefined (ValueError).
    """
    gold = {_normalise(t) for t in gold_tables}
    if not gold:
        raise ValueError("recall needs at least one gold table")
    if k is not None and k < 1:
        raise ValueError(f"k must be ≥ 1 or None, got {k}")
    top = retrieved if k is None else retrieved[:k]
    return len({_normalise(t) for t in top} & gold) / len(gold)
