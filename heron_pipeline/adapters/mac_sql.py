"""``mac-sql``: a selector, a decomposer and a refiner that executes the SQL and repairs it.

Follows MAC-SQL (Wang et al., "MAC-SQL: A Multi-Agent Collaborative Framework for Text-to-SQL",
COLING 2025): three agents in sequence.

1. selector — prunes the schema: shown the ``candidates`` (30) tables heron's lexical retriever
   ranks first (BM25 + FK join paths, heron_pipeline.retrieval) in the compact rendering, the model
   keeps the ones the question needs, as JSON;
2. decomposer — over the kept tables' full rendering, breaks the question into sub-questions and
   writes the SQL step by step (chain of thought); the last SQL block is the candidate;
3. refiner — executes the candidate on the primary state through the sandbox (the read-only role,
   its caps and parser guard); a PostgreSQL error, a sandbox refusal or an empty result goes back
   to the model with the SQL, which answers with a corrected query; at most ``rounds`` (3) rounds.

Simplified: the selector keeps whole tables (the paper also drops columns) and sees a retrieved
shortlist rather than the whole 211-table schema (the paper's selector reads every table of a
BIRD database, at most a few dozen); zero-shot prompts. Fallbacks, recorded in ``steps``: an
unusable selector reply → the retriever's top ``fallback`` (10) tables; a refiner reply without SQL
→ the SQL it already has (refinement stops); a refiner that returns the query unchanged ends the
refinement too (the next round would be the same request). Only the final SQL is the prediction; the selected
tables are its ranked retrieval. An empty result may be right (the questions have empty probes):
the refiner is told so and may return the query unchanged.
"""

from __future__ import annotations

from typing import Any

from heron_pipeline.adapters.base import PredictionContext
from heron_pipeline.adapters.extract import NoSQLFound, extract_sql
from heron_pipeline.adapters.prompt import one_line
from heron_pipeline.adapters.retrieval_llm import ranked_tables
from heron_pipeline.adapters.steps import render_tables, tables_from_reply
from heron_pipeline.adapters.tally import Tally, ask
from heron_pipeline.llm.client import LLMClient
from heron_pipeline.predictions.record import PredictionRecord

SELECTOR = (
    "You are the Selector of a text-to-SQL team. Below are candidate tables of a large PostgreSQL schema. "
    "Keep only the tables the SQL query for the question needs, including the tables needed only to join "
    "them. Reply with one JSON object and nothing else: {\"tables\": [\"schema.table\", ...]}"
)
DECOMPOSER = (
    "You are the Decomposer of a text-to-SQL team. Answer the user's question with exactly one read-only "
    "PostgreSQL SELECT statement over the schema below; always qualify tables with their schema. Work step "
    "by step: decompose the question into sub-questions, write the SQL of each (later ones may reuse "
    "earlier ones as CTEs), and end with the final query in a ```sql fenced block."
)
REFINER = (
    "You are the Refiner of a text-to-SQL team. The PostgreSQL query below was executed on the database. "
    "Given the question, the schema, the conventions and the execution result, correct the query. If the "
    "result is empty and the question can legitimately have no answer, you may return the query unchanged. "
    "Reply with the corrected SQL in a single ```sql fenced block."
)


def execution_feedback(sql: str, reader_dsn: str) -> tuple[str | None, bool]:
    """(what to tell the refiner, or None when the query ran and returned rows; whether the sandbox
    itself is unavailable — then there is nothing to refine against)."""
    from heron_pipeline.sandbox import SandboxUnavailable, run_prediction
    from heron_pipeline.sandbox.errors import SandboxError

    try:
        result = run_prediction(sql, dsn=reader_dsn)
    except SandboxUnavailable as err:
        return f"the sandbox is unavailable: {err.message}", True
    except SandboxError as err:
        return f"The query failed: {err.line()}", False
    if not result.rows:
        return "The query ran without error but returned no rows.", False
    return None, False


class MacSQLAdapter:
    """Selector → decomposer → refiner (see module docstring)."""

    name = "mac-sql"

    def __init__(self, llm: LLMClient, *, candidates: int = 30, fallback: int = 10, rounds: int = 3):
        if rounds < 0 or candidates < 1 or fallback < 1:
            raise ValueError("mac-sql needs candidates ≥ 1, fallback ≥ 1 and rounds ≥ 0")
        self.llm = llm
        self.settings = llm.settings
        self.candidates, self.fallback, self.rounds = candidates, fallback, rounds

    def conditions(self) -> dict[str, Any]:
        return {**self.llm.conditions(), "candidates": self.candidates, "fallback_tables": self.fallback,
                "refine_rounds": self.rounds, "retriever": "bm25-fk"}

    def predict(self, question: Any, context: PredictionContext) -> list[PredictionRecord]:
        return [self._sample(question, i, context) for i in range(context.n)]

    def _ask(self, tally: Tally, step: str, system: str, user: str, sample: int) -> str | None:
        return ask(self.llm, tally, step, system, user, sample)

    def _sample(self, question: Any, sample: int, context: PredictionContext) -> PredictionRecord:
        catalog, conventions = context.schema(), context.conventions
        text = one_line(context.text_of(question))
        tally = Tally(question.id, sample)
        shortlist = ranked_tables(catalog, text, self.candidates)

        # 1. selector
        reply = self._ask(tally, "select", f"{SELECTOR}\n\n{conventions}\n\n{render_tables(catalog, shortlist, 'compact')}",
                          text, sample)
        if tally.stop:
            return tally.record(None)
        tables, note = tables_from_reply(reply, catalog) if reply is not None else ([], "no reply")
        if tables:
            tally.note(f"select: {note}")
        else:
            tables = shortlist[: self.fallback]
            tally.note(f"select: unusable ({note}); fallback: the {len(tables)} best retrieved tables")
        schema = render_tables(catalog, tables)
        retrieved = tuple(tables)

        # 2. decomposer
        reply = self._ask(tally, "decompose", f"{DECOMPOSER}\n\n{conventions}\n\n{schema}", text, sample)
        if tally.stop:
            return tally.record(None)
        if reply is None:
            return tally.failed("decompose", retrieved_tables=retrieved)
        try:
            sql = extract_sql(reply)
        except NoSQLFound as err:
            return tally.record(None, error=f"decompose: {err}", retrieved_tables=retrieved)

        # 3. refiner: execute, feed errors and empty results back, at most `rounds` times
        if not context.reader_dsn:
            tally.note("refine: skipped (no primary state to execute on)")
            return tally.record(sql, retrieved_tables=retrieved)
        for round_no in range(1, self.rounds + 1):
            feedback, unavailable = execution_feedback(sql, context.reader_dsn)
            if unavailable:
                tally.note(f"refine: stopped ({feedback})")
                break
            if feedback is None:
                tally.note(f"refine: the query runs and returns rows after {round_no - 1} round(s)")
                break
            tally.note(f"execute: {feedback}")
            reply = self._ask(tally, f"refine {round_no}", f"{REFINER}\n\n{conventions}\n\n{schema}",
                              f"Question: {text}\n\nQuery:\n```sql\n{sql}\n```\n\nExecution result: {feedback}",
                              sample)
            if tally.stop:
                return tally.record(None)
            try:
                refined = extract_sql(reply) if reply is not None else None
            except NoSQLFound:
                refined = None
            if refined is None:
                tally.note("refine: unusable reply; fallback: the SQL it already has")
                break
            if refined == sql:  # the next round would be the same request, hence the same answer
                tally.note("refine: the refiner kept the query as it is")
                break
            sql = refined
        return tally.record(sql, retrieved_tables=retrieved)
