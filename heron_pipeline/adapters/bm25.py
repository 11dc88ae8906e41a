"""``bm25`` and ``bm25-fk``: offline table retrievers (no LLM, no SQL), scored on Set-Recall only.

``bm25`` ranks the catalog's tables for the question text with ``heron_pipeline.retrieval``'s
``TableRetriever`` — BM25 (the ``bm25s`` library, Lucene variant) over per-table documents of
name, column names, comments and enum labels, with identifier-aware tokenisation, plus value
linking of the reference values a question names (BRIDGE/CHESS-style value matching, from the
generation profiles rather than the live state). ``bm25-fk`` adds the shortest foreign-key join
paths between the top-ranked tables (the PromptQuery-style "add the join path" step).

What they simplify: no learned model, no query rewriting, no re-ranking; the values come from the
reference data every seed holds, not from sampling the primary state. They return the top
``depth`` tables (20 by default) as ``retrieved_tables`` and ``sql=None``: their class is
``retrieval``, so they appear on the retrieval board (Set-Recall@5/10/20/all) and never on the EX
board. With a fixed depth, Set-Recall@all equals Set-Recall@depth.

The text is the question's ``question`` (question mode ``full``) or its ``natural`` text (mode
``natural``, from ``context.options["question_mode"]``); a question without the text the mode asks
for is that question's error, never the run's.
"""

from __future__ import annotations

from typing import Any

from heron_pipeline.adapters.base import PredictionContext
from heron_pipeline.predictions.record import PredictionRecord

#: How many ranked tables a retriever reports per question.
DEFAULT_DEPTH = 20


def question_text(question: Any, mode: str = "full") -> str | None:
    """The text a tool is asked in question mode ``mode`` ("full" or "natural"); None when absent."""
    if mode == "natural":
        text = getattr(question, "natural", None)
    elif mode == "full":
        text = getattr(question, "question", None)
    else:
        raise ValueError(f"unknown question mode {mode!r}; use full or natural")
    return text if isinstance(text, str) and text.strip() else None


class BM25Adapter:
    """Lexical table retrieval; ``expand=True`` is ``bm25-fk`` (see the module docstring)."""

    kind = "retrieval"

    def __init__(self, *, expand: bool = False, depth: int = DEFAULT_DEPTH, config: Any = None, **_ignored: Any):
        if depth < 1:
            raise ValueError(f"retrieval depth must be ≥ 1, got {depth}")
        self.name = "bm25-fk" if expand else "bm25"
        self.expand = expand
        self.depth = depth
        self.config = config
        self._retriever: Any = None
        self._catalog: Any = None

    def _retriever_for(self, context: PredictionContext) -> Any:
        from heron_pipeline.retrieval import TableRetriever

        catalog = context.catalog
        if catalog is None:
            from heron_pipeline.catalog import load_catalog

            catalog = load_catalog()
        if self._catalog is not catalog:
            self._retriever, self._catalog = TableRetriever(catalog, config=self.config), catalog
        return self._retriever

    def rank(self, text: str, context: PredictionContext) -> list[str]:
        """The ``depth`` tables this tool retrieves for ``text``, best first."""
        from heron_pipeline.retrieval import expand_with_join_paths

        retriever = self._retriever_for(context)
        ranked = retriever.rank(text)
        if self.expand:
            return expand_with_join_paths(ranked, retriever.catalog, limit=self.depth)
        return ranked[: self.depth]

    def predict(self, question: Any, context: PredictionContext) -> list[PredictionRecord]:
        mode = str((context.options or {}).get("question_mode", "full"))
        try:
            text = question_text(question, mode)
        except ValueError as err:
            text, error = None, str(err)
        else:
            error = None if text else f"question {question.id} has no {mode} text"
        tables = tuple(self.rank(text, context)) if text else ()
        # latency is left unrecorded: a wall time would make two identical runs write different
        # predictions artifacts, and retrieval takes milliseconds
        return [PredictionRecord(question_id=question.id, sample=i, sql=None, retrieved_tables=tables, error=error)
                for i in range(context.n)]

    def conditions(self) -> dict[str, Any]:
        from heron_pipeline.retrieval import RetrieverConfig

        config = self.config or RetrieverConfig()
        return {"model": f"offline:{self.name}", "temperature": None, "kind": self.kind, "depth": self.depth,
                "fk_expansion": self.expand, "retriever": config.describe()}


def bm25(**options: Any) -> BM25Adapter:
    """Factory of the ``bm25`` tool."""
    return BM25Adapter(expand=False, **options)


def bm25_fk(**options: Any) -> BM25Adapter:
    """Factory of the ``bm25-fk`` tool."""
    return BM25Adapter(expand=True, **options)
