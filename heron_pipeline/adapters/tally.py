"""The running account of one sample's calls: usage summed, cost summed, one line per step.

A multi-step tool makes several calls for one answer; its record carries the sum of their billed
usage (None only when no call reported any), a cost that is unknown as soon as one call's is
unknown, and a ``steps`` line per step saying what happened — including every fallback — so a
reader of the predictions can tell a tool that answered from one that limped to an answer.

Its usage and latency are heron's own measurements — the billed usage heron's LLM client read from
the provider's response, the client's clock around each call — so the LLM adapters' rows carry
``telemetry`` ``measured`` (the default of ``metrics.telemetry_of``) and their tokens and latency
enter the Grade; contrast the ``cli`` tool's reply and a submission's records, which are claims.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from heron_pipeline.llm.client import CallResult
from heron_pipeline.llm.errors import BUDGET, CACHE_MISS, NO_SQL
from heron_pipeline.predictions.record import PredictionRecord


def _add(a: int | float | None, b: int | float | None) -> int | float | None:
    return b if a is None else a if b is None else a + b


@dataclass
class Tally:
    question_id: str
    sample: int
    prompt_tokens: int | None = None
    cached_prompt_tokens: int | None = None
    completion_tokens: int | None = None
    latency_s: float | None = None
    cost_usd: float | None = 0.0
    cost_known: bool = True
    steps: list[str] = field(default_factory=list)
    stop: CallResult | None = None  # a call refused by heron itself (budget, offline miss): no fallback
    last: CallResult | None = None  # the latest call's result

    def add(self, step: str, result: CallResult) -> CallResult:
        """Count ``result`` (the call made for ``step``) and note its outcome."""
        self.last = result
        self.prompt_tokens = _add(self.prompt_tokens, result.prompt_tokens)
        self.cached_prompt_tokens = _add(self.cached_prompt_tokens, result.cached_prompt_tokens)
        self.completion_tokens = _add(self.completion_tokens, result.completion_tokens)
        self.latency_s = _add(self.latency_s, result.latency_s)
        if result.cost_usd is None and result.error_class not in (BUDGET, CACHE_MISS):
            self.cost_known = False
        else:
            self.cost_usd = (self.cost_usd or 0.0) + (result.cost_usd or 0.0)
        if result.error_class in (BUDGET, CACHE_MISS) and self.stop is None:
            self.stop = result
        self.note(f"{step}: {'ok' if result.ok else result.error_class + ' — ' + (result.error or '')}")
        return result

    def failed(self, step: str, **extra: Any) -> PredictionRecord:
        """The record of a sample whose final step's call failed (its class and message)."""
        last = self.last
        return self.record(None, error_class=last.error_class if last else None,
                           error=f"{step}: {last.error if last else 'no call made'}", **extra)

    def note(self, line: str) -> None:
        self.steps.append(" ".join(line.split()))

    def record(self, sql: str | None, *, error_class: str | None = None, error: str | None = None,
               retrieved_tables: tuple[str, ...] = ()) -> PredictionRecord:
        """The sample's record; a heron-side refusal (budget, cache miss) wins over any fallback SQL."""
        if self.stop is not None:
            sql, error_class, error = None, self.stop.error_class, self.stop.error
        if sql is None and error_class is None:
            error_class, error = NO_SQL, error or "no SQL"
        return PredictionRecord(
            question_id=self.question_id, sample=self.sample, sql=sql, retrieved_tables=tuple(retrieved_tables),
            prompt_tokens=self.prompt_tokens, completion_tokens=self.completion_tokens, latency_s=self.latency_s,
            error=error if sql is None else None, error_class=error_class if sql is None else None,
            cached_prompt_tokens=self.cached_prompt_tokens, cost_usd=self.cost_usd if self.cost_known else None,
            steps=tuple(self.steps))


def failed_record(question_id: str, sample: int, error_class: str, error: str, **extra: Any) -> PredictionRecord:
    """A record for a sample that made no call at all (budget already spent, adapter crash)."""
    return PredictionRecord(question_id=question_id, sample=sample, sql=None, error=error, error_class=error_class,
                            **extra)


def ask(llm: Any, tally: Tally, step: str, system: str, user: str, sample: int) -> str | None:
    """One intermediate step of a multi-step tool: a system + user exchange, tallied; the reply's
    text, or None when the call failed (the caller falls back)."""
    result = tally.add(step, llm.complete([{"role": "system", "content": system}, {"role": "user", "content": user}],
                                          sample=sample))
    return result.content if result.ok else None


def one_shot_records(llm: Any, question_id: str, messages: list[dict[str, str]], n: int, tables: list[str],
                     note: str) -> list[PredictionRecord]:
    """``n`` samples of a single-prompt tool (retrieval, rag): one generation per sample, the SQL
    extracted from the reply, the tables it was shown recorded as its retrieval."""
    from heron_pipeline.adapters.extract import NoSQLFound, extract_sql
    from heron_pipeline.adapters.prompt import one_line

    records = []
    for sample in range(n):
        tally = Tally(question_id, sample)
        tally.note(note)
        result = tally.add("generate", llm.complete(messages, sample=sample))
        if not result.ok:
            records.append(tally.failed("generate", retrieved_tables=tuple(tables)))
            continue
        try:
            records.append(tally.record(extract_sql(result.content), retrieved_tables=tuple(tables)))
        except NoSQLFound as err:
            records.append(tally.record(None, error_class=NO_SQL, error=one_line(str(err)),
                                        retrieved_tables=tuple(tables)))
    return records
