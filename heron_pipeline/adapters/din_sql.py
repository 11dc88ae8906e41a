"""``din-sql``: decomposed in-context text-to-SQL — schema linking, classification, generation by
class, self-correction.

Follows DIN-SQL (Pourreza & Rafiei, "DIN-SQL: Decomposed In-Context Learning of Text-to-SQL with
Self-Correction", NeurIPS 2023). Its four modules, one call each:

1. schema linking — the compact schema of all 211 tables and the question; the model lists the
   tables (and columns) the query needs, as JSON;
2. classification — easy (one table), non-nested (joins, no sub-query) or nested (sub-queries,
   set operations, CTEs), with the sub-questions of a nested one, as JSON;
3. generation — a prompt per class over the linked tables' full rendering (comments included);
4. self-correction — the paper's "generic" prompt: fix the query if it has a bug, else return it.

Simplified: zero-shot (the paper's few-shot demonstrations were written for Spider), no NatSQL
intermediate representation for the non-nested class (a join plan in prose instead), PostgreSQL
and heron's conventions note instead of SQLite. Fallbacks, each recorded in ``steps``: unusable
linking → the lexical retriever's tables with FK join paths (or the whole compact schema when that
library is absent); unusable classification → ``nested`` (the most general prompt); a correction
without SQL → the generated SQL. Only the final SQL is the prediction; the linked tables are its
ranked retrieval.
"""

from __future__ import annotations

from typing import Any

from heron_pipeline.adapters.base import PredictionContext
from heron_pipeline.adapters.extract import NoSQLFound, extract_json, extract_sql
from heron_pipeline.adapters.prompt import SYSTEM_PROMPT, one_line, render_schema
from heron_pipeline.adapters.steps import render_tables, retrieved_fallback, tables_from_reply
from heron_pipeline.adapters.tally import Tally, ask
from heron_pipeline.llm.client import LLMClient
from heron_pipeline.predictions.record import PredictionRecord

CLASSES = ("easy", "non-nested", "nested")

LINKING = (
    "You are doing schema linking for a PostgreSQL text-to-SQL system. Given the schema below and a "
    "question, list every table (schema-qualified) and column the SQL query will need, including the "
    "tables needed only to join. Reply with one JSON object and nothing else: "
    '{"tables": ["schema.table", ...], "columns": ["schema.table.column", ...]}'
)
CLASSIFY = (
    "Classify the SQL query the question needs. \"easy\": one table, no join and no sub-query. "
    "\"non-nested\": joins but no sub-query. \"nested\": needs sub-queries, set operations (UNION, "
    "EXCEPT, INTERSECT) or common table expressions. For a nested query also list the sub-questions "
    "to solve first. Reply with one JSON object and nothing else: "
    '{"class": "easy" | "non-nested" | "nested", "sub_questions": ["...", ...]}'
)
GENERATE = {
    "easy": "The query reads a single table: write it directly.",
    "non-nested": ("The query joins tables without sub-queries: first state in one or two sentences which "
                   "tables join on which keys (tenant-safe), then write the query."),
    "nested": ("The query needs sub-queries or CTEs: solve these sub-questions first, each as a CTE, then "
               "compose the final query from them:\n{sub_questions}"),
}
CORRECT = (
    "For the given question, use the schema (tables, columns, keys and comments) and the conventions to "
    "fix the given PostgreSQL query for any issues: wrong or missing tables and columns, join conditions "
    "that drop tenant_id, deleted rows that should be excluded, a wrong as-of date, wrong grouping or "
    "ordering. If there are any problems, fix them. If there are no issues, return the query as is. "
    "Reply with the SQL in a single ```sql fenced block."
)


class DinSQLAdapter:
    """DIN-SQL's four modules over an OpenAI-compatible model (see module docstring)."""

    name = "din-sql"

    def __init__(self, llm: LLMClient, *, fallback_tables: int = 20):
        self.llm = llm
        self.settings = llm.settings
        self.fallback_tables = fallback_tables
        self._compact: tuple[object, str] | None = None

    def conditions(self) -> dict[str, Any]:
        return {**self.llm.conditions(), "steps": "link,classify,generate,correct",
                "fallback_tables": self.fallback_tables}

    def _compact_schema(self, catalog: Any) -> str:
        if self._compact is None or self._compact[0] is not catalog:
            self._compact = (catalog, render_schema(catalog, "compact"))
        return self._compact[1]

    def predict(self, question: Any, context: PredictionContext) -> list[PredictionRecord]:
        return [self._sample(question, i, context) for i in range(context.n)]

    def _ask(self, tally: Tally, step: str, system: str, user: str, sample: int) -> str | None:
        return ask(self.llm, tally, step, system, user, sample)

    def _sample(self, question: Any, sample: int, context: PredictionContext) -> PredictionRecord:
        catalog, conventions = context.schema(), context.conventions
        text = one_line(context.text_of(question))
        tally = Tally(question.id, sample)

        # 1. schema linking
        reply = self._ask(tally, "link", f"{LINKING}\n\n{conventions}\n\n{self._compact_schema(catalog)}", text, sample)
        if tally.stop:
            return tally.record(None)
        tables, note = tables_from_reply(reply, catalog) if reply is not None else ([], "no reply")
        if tables:
            tally.note(f"link: {note}")
            schema = render_tables(catalog, tables)
        else:
            tables = retrieved_fallback(catalog, text, self.fallback_tables)
            if tables:
                tally.note(f"link: unusable ({note}); fallback: {len(tables)} retrieved tables")
                schema = render_tables(catalog, tables)
            else:
                tally.note(f"link: unusable ({note}); fallback: the whole compact schema")
                schema = self._compact_schema(catalog)

        # 2. classification
        reply = self._ask(tally, "classify", f"{CLASSIFY}\n\n{conventions}\n\n{schema}", text, sample)
        if tally.stop:
            return tally.record(None)
        doc = extract_json(reply) if reply is not None else None
        kind = doc.get("class") if doc else None
        kind = kind.strip().lower().replace("_", "-").replace(" ", "-") if isinstance(kind, str) else None
        subs = [one_line(s) for s in (doc or {}).get("sub_questions") or [] if isinstance(s, str) and s.strip()]
        if kind not in CLASSES:
            tally.note(f"classify: unusable ({'no reply' if reply is None else 'no class in the reply'}); "
                       f"fallback: nested")
            kind = "nested"
        else:
            tally.note(f"classify: {kind}" + (f", {len(subs)} sub-questions" if subs else ""))

        # 3. generation by class
        instruction = GENERATE[kind].format(
            sub_questions="\n".join(f"- {s}" for s in subs) or "- (decompose the question yourself)")
        reply = self._ask(tally, f"generate ({kind})",
                          f"{SYSTEM_PROMPT}\n\n{instruction}\n\n{conventions}\n\n{schema}", text, sample)
        if tally.stop:
            return tally.record(None)
        if reply is None:
            return tally.failed("generate", retrieved_tables=tuple(tables))
        try:
            sql = extract_sql(reply)
        except NoSQLFound as err:
            return tally.record(None, error=f"generate: {err}", retrieved_tables=tuple(tables))

        # 4. self-correction
        reply = self._ask(tally, "correct", f"{CORRECT}\n\n{conventions}\n\n{schema}",
                          f"Question: {text}\n\nQuery:\n```sql\n{sql}\n```", sample)
        if tally.stop:
            return tally.record(None)
        try:
            corrected = extract_sql(reply) if reply is not None else None
        except NoSQLFound:
            corrected = None
        if corrected is None:
            tally.note("correct: unusable reply; fallback: the generated SQL")
        elif corrected != sql:
            tally.note("correct: changed the query")
        return tally.record(corrected or sql, retrieved_tables=tuple(tables))
