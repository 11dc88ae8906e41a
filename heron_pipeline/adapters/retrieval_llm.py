"""``retrieval``: lexical table retrieval with FK join paths, then the model sees only those tables.

Follows the spec's PromptQuery-style approach (retrieve the relevant tables, add the join path
between them, prompt with that subset) — the same family as RESDSQL's and CHESS's schema
filtering, without their trained rankers. Retrieval is heron's offline ``bm25-fk`` ranking
(heron_pipeline.retrieval: BM25 via ``bm25s`` over table names, column names, comments and enum
labels, value links, FK join-path expansion); the top ``tables`` (10 by default: the depth at
which ``bm25-fk`` reaches 98.7 % Set-Recall on today's texts) are rendered in full — comments
included — with the conventions note, and one call asks for the SQL.

Simplified: one retrieval pass (no model-driven re-ranking or second retrieval when the SQL
fails), no examples. Its ``retrieved_tables`` are the ranked tables the model saw, so Set-Recall
measures exactly what the prompt held.
"""

from __future__ import annotations

from typing import Any

from heron_pipeline.adapters.base import PredictionContext
from heron_pipeline.adapters.prompt import SYSTEM_PROMPT, build_messages
from heron_pipeline.adapters.steps import render_tables, retriever_for
from heron_pipeline.adapters.tally import one_shot_records
from heron_pipeline.llm.client import LLMClient
from heron_pipeline.predictions.record import PredictionRecord

DEFAULT_TABLES = 10
SUBSET_NOTE = ("Only the tables most relevant to the question are shown below (with the tables that join "
               "them); use only these.")


def ranked_tables(catalog: Any, text: str, limit: int) -> list[str]:
    """The ``limit`` best tables for ``text``: BM25 ranking with FK join paths inserted."""
    from heron_pipeline.retrieval import expand_with_join_paths

    return list(expand_with_join_paths(retriever_for(catalog).rank(text), catalog, limit=limit))


class RetrievalAdapter:
    """Retrieve, expand, prompt with the subset (see module docstring)."""

    name = "retrieval"

    def __init__(self, llm: LLMClient, *, tables: int = DEFAULT_TABLES):
        if tables < 1:
            raise ValueError(f"the retrieval tool needs at least 1 table, got {tables}")
        self.llm = llm
        self.settings = llm.settings
        self.tables = tables

    def conditions(self) -> dict[str, Any]:
        return {**self.llm.conditions(), "retriever": "bm25-fk", "tables": self.tables}

    def predict(self, question: Any, context: PredictionContext) -> list[PredictionRecord]:
        catalog = context.schema()
        text = context.text_of(question)
        tables = ranked_tables(catalog, text, self.tables)
        messages = build_messages(text, render_tables(catalog, tables), context.conventions,
                                  system_prompt=f"{SYSTEM_PROMPT} {SUBSET_NOTE}")
        return one_shot_records(self.llm, question.id, messages, context.n, tables, f"retrieve: {len(tables)} tables")
