"""BM25 over the table documents, one index per field, fields combined by weight, plus value links.

Each field of ``documents.FIELDS`` gets its own ``bm25s`` index (Lucene's BM25 variant, bm25s's
default k1 = 1.5, b = 0.75), so a field's length normalisation and IDF are its own: a token that
appears in every table's column list ("status") is cheap there and may still be rare in table
names. A table's score is Σ weight(field) × BM25_field(query, table) — the "most fields"
combination of multi-field search engines, a simple stand-in for BM25F. The default weights were
chosen on the benchmark's questions (docs/DECISIONS.md, issue 9, says how, and that it is tuning on
the evaluation set).

Value links (``values.ValueLinker``): a table holding a reference value that the text names as a
phrase ("Halyard Outfitters" → ``tenancy.tenants``) is placed right after the best lexical match.
Exact value mentions are a different kind of evidence than word overlap — the tenants table shares
almost no words with "For Halyard Outfitters, how many orders..." — so they are not summed into the
BM25 score but merged into the ranking at a fixed position.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Mapping, Sequence

import bm25s
import numpy as np

from heron_pipeline.catalog import Catalog
from heron_pipeline.retrieval.documents import FIELDS, TableDocument, table_documents
from heron_pipeline.retrieval.tokens import tokenize
from heron_pipeline.retrieval.values import ValueLinker, reference_values

#: Field weights of the default retriever (see the module docstring).
DEFAULT_WEIGHTS: Mapping[str, float] = {"name": 2.0, "columns": 1.0, "comments": 1.0, "enums": 0.5, "values": 0.0}


@dataclass(frozen=True)
class RetrieverConfig:
    """How documents are built and scored. ``weights`` per field (0 drops the field); ``stem``
    applies the S stemmer to both sides; ``k1``/``b`` are BM25's usual parameters; ``link_values``
    merges value-linked tables into the ranking after the first ``link_after`` lexical matches."""

    weights: Mapping[str, float] = field(default_factory=lambda: dict(DEFAULT_WEIGHTS))
    stem: bool = True
    k1: float = 1.5
    b: float = 0.75
    link_values: bool = True
    link_after: int = 1

    def describe(self) -> dict:
        """The configuration as plain data (for an adapter's conditions)."""
        return {"weights": {f: self.weights.get(f, 0.0) for f in FIELDS}, "stem": self.stem,
                "k1": self.k1, "b": self.b, "link_values": self.link_values, "link_after": self.link_after,
                "bm25": f"bm25s {bm25s.__version__} (lucene)"}


class TableRetriever:
    """Rank a catalog's tables for a text. ``rank(text, k=None)`` → qualified names, best first.

    Only tables that match at least one query token (or are value-linked) are returned; ties keep
    catalog order, which makes the ranking deterministic. ``values`` maps tables to the reference
    strings they hold; None reads them from the generation profiles (``values.reference_values``),
    ``{}`` turns value evidence off.
    """

    def __init__(self, catalog: Catalog, *, values: Mapping[str, Sequence[str]] | None = None,
                 config: RetrieverConfig | None = None):
        self.catalog = catalog
        self.config = config or RetrieverConfig()
        if values is None:
            values = reference_values()
        values = {t: v for t, v in values.items() if t in catalog.tables}
        self.linker = ValueLinker(values, stem=self.config.stem) if self.config.link_values else None
        self.documents: list[TableDocument] = table_documents(catalog, values, stem=self.config.stem)
        self.tables = [d.table for d in self.documents]
        self._indexes: dict[str, bm25s.BM25] = {}
        for name in FIELDS:
            if self.config.weights.get(name, 0.0) <= 0:
                continue
            corpus = [list(d.tokens(name)) for d in self.documents]
            if not any(corpus):
                continue
            index = bm25s.BM25(k1=self.config.k1, b=self.config.b)
            index.index(corpus, show_progress=False)
            self._indexes[name] = index

    def scores(self, text: str) -> np.ndarray:
        """The combined score of every table (catalog order) for ``text``."""
        tokens = tokenize(text, stem=self.config.stem)
        total = np.zeros(len(self.tables), dtype=np.float64)
        for name, index in self._indexes.items():
            known = [t for t in tokens if t in index.vocab_dict]
            if known:
                total += self.config.weights[name] * index.get_scores(known).astype(np.float64)
        return total

    def scored(self, text: str, k: int | None = None) -> list[tuple[str, float]]:
        """(table, score) pairs with a positive score, best first, at most ``k``."""
        scores = self.scores(text)
        order = np.argsort(-scores, kind="stable")
        ranked = [(self.tables[i], float(scores[i])) for i in order if scores[i] > 0]
        return ranked if k is None else ranked[:k]

    def linked(self, text: str) -> list[str]:
        """Tables whose reference values ``text`` names, in order of first mention."""
        return self.linker.tables(text) if self.linker else []

    def rank(self, text: str, k: int | None = None) -> list[str]:
        """Qualified table names for ``text``, best first (see the class docstring)."""
        lexical = [table for table, _ in self.scored(text)]
        head = lexical[: self.config.link_after]
        ranked = list(dict.fromkeys([*head, *self.linked(text), *lexical]))
        return ranked if k is None else ranked[:k]
