"""Similar worked examples for a question: BM25 over the training pairs' question texts.

A Vanna-style tool shows the model the training pairs (``questions.train``) most like the question
at hand. The same tokenisation as for tables applies, plus the tables each pair reads as a second
field, so "loyalty points" finds the pairs that read ``marketing.loyalty_*`` even when worded
differently. Deterministic: ties keep the training set's order.
"""

from __future__ import annotations

from typing import Any, Sequence

import bm25s
import numpy as np

from heron_pipeline.retrieval.tokens import tokenize

#: Weight of the "tables the example reads" field against its question text.
TABLES_WEIGHT = 0.5


class ExampleRetriever:
    """``rank(text, k)`` → the ``k`` training pairs most similar to ``text`` (score > 0), best first.

    ``pairs`` are objects with ``question`` and ``tables`` (``questions.train.TrainingPair``).
    """

    def __init__(self, pairs: Sequence[Any], *, stem: bool = True, tables_weight: float = TABLES_WEIGHT):
        self.pairs = list(pairs)
        self.stem = stem
        self.tables_weight = tables_weight
        self._fields: list[tuple[float, bm25s.BM25]] = []
        for weight, corpus in ((1.0, [tokenize(p.question, stem=stem) for p in self.pairs]),
                               (tables_weight, [tokenize(" ".join(p.tables), stem=stem) for p in self.pairs])):
            if weight > 0 and self.pairs and any(corpus):
                index = bm25s.BM25()
                index.index(corpus, show_progress=False)
                self._fields.append((weight, index))

    def scores(self, text: str) -> np.ndarray:
        tokens = tokenize(text, stem=self.stem)
        total = np.zeros(len(self.pairs), dtype=np.float64)
        for weight, index in self._fields:
            known = [t for t in tokens if t in index.vocab_dict]
            if known:
                total += weight * index.get_scores(known).astype(np.float64)
        return total

    def rank(self, text: str, k: int = 3) -> list[Any]:
        """The ``k`` most similar pairs with a positive score, best first."""
        if k < 1:
            raise ValueError(f"k must be ≥ 1, got {k}")
        scores = self.scores(text)
        order = np.argsort(-scores, kind="stable")
        return [self.pairs[i] for i in order[:k] if scores[i] > 0]
