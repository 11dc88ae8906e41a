"""What a metric function is given: one scored prediction, or one tool's score records across states.

``ToolScores`` is the machinery every aggregate shares (the sqlglot optimizer's ``scope``): the
grouping that several figures need — per question and sample across seeds, sample 0 per question
and seed, each prediction once — is done here once per tool, so each aggregate is a few lines of
arithmetic calling ``heron_pipeline.scoring``. Rows come back in a fixed order (question, then
seed) because float sums depend on it and the standings must not change from run to run.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from functools import cached_property
from typing import Any

import duckdb

from heron_pipeline.scoring import TimedResult


@dataclass(frozen=True)
class Scored:
    """One prediction executed on one state: what a per-record metric function reads.

    ``pred_rows`` is None when the prediction gave no SQL or its execution failed; ``correct`` is
    the comparator's verdict (``scoring.compare``: the same rule in both question modes), false too
    when the scorer names the prediction ``reads-no-data`` or ``comparator-budget``; ``error_class``
    is the record's failure class (None when the SQL ran and neither of those was named);
    ``mutant_answers`` the question's stored trap mutant answers on this state (``mutants.answers.MutantAnswer``)."""

    question: Any
    prediction: Any
    gold_rows: list[tuple]
    pred_rows: list[tuple] | None
    correct: bool
    error_class: str | None = None
    mutant_answers: tuple[Any, ...] = ()

    @property
    def ran(self) -> bool:
        """Whether the prediction ran and was judged: it gave SQL, the sandbox returned its rows and
        the record names no class — not no SQL, rejected, timed out, over a limit or failed, nor
        one of the scorer's own wrong-answer classes. Any other prediction scores 0 on every metric."""
        return self.error_class is None and self.pred_rows is not None


class ToolScores:
    """One tool's score records on one scale (the ``scores`` table of a DuckDB connection)."""

    def __init__(self, con: duckdb.DuckDBPyConnection, tool: str) -> None:
        self.con, self.tool = con, tool
        self.seeds: list[int] = [r[0] for r in con.execute(
            "SELECT DISTINCT seed FROM scores WHERE tool = ? ORDER BY seed", [tool]).fetchall()]
        # per question × sample: correct on every seed present, and on how many seeds it was scored
        per_sample = con.execute("""
            SELECT question_id, sample, bool_and(correct) AS all_correct, count(DISTINCT seed) AS states
            FROM scores WHERE tool = ? GROUP BY question_id, sample ORDER BY question_id, sample""", [tool]).fetchall()
        self.samples: dict[str, list[bool]] = defaultdict(list)
        for qid, _sample, all_correct, states in per_sample:
            self.samples[qid].append(bool(all_correct) and states == len(self.seeds))
        self.questions: list[str] = sorted(self.samples)
        #: n: the most samples any question has
        self.n: int = max((len(s) for s in self.samples.values()), default=1)

    @cached_property
    def first(self) -> list[dict[str, Any]]:
        """Every sample-0 record as a dict, ordered by question then seed."""
        cursor = self.con.execute("SELECT * FROM scores WHERE tool = ? AND sample = 0 ORDER BY question_id, seed",
                                  [self.tool])
        names = [d[0] for d in cursor.description]
        return [dict(zip(names, row)) for row in cursor.fetchall()]

    @cached_property
    def by_state(self) -> dict[int, dict[str, bool]]:
        """seed -> question -> sample 0 correct there."""
        out: dict[int, dict[str, bool]] = defaultdict(dict)
        for r in self.first:
            out[r["seed"]][r["question_id"]] = bool(r["correct"])
        return out

    @cached_property
    def per_question_states(self) -> dict[str, list[bool]]:
        """question -> sample 0 correct on each seed; a seed it was not scored on counts as wrong."""
        out: dict[str, list[bool]] = defaultdict(list)
        for r in self.first:
            out[r["question_id"]].append(bool(r["correct"]))
        for qid in self.questions:
            out[qid] += [False] * (len(self.seeds) - len(out[qid]))
        return dict(out)

    @cached_property
    def multi(self) -> dict[str, bool]:
        """question -> sample 0 correct on every seed (multi-state)."""
        return {qid: all(self.per_question_states[qid]) for qid in self.questions}

    @cached_property
    def tags(self) -> dict[str, list[str]]:
        """question -> its breakdown labels (shape, retrieval, traps)."""
        return {r["question_id"]: [f"shape:{r['shape']}", f"retrieval:{r['retrieval']}",
                                   *(f"trap:{t}" for t in r["traps"] or [])] for r in self.first}

    @cached_property
    def timed(self) -> dict[int, list[TimedResult]]:
        """seed -> VES inputs of sample 0: correct and timed, or wrong (a wrong answer earns 0, and so
        does a correct one whose timed runs gave another answer: ``timing_verdict``)."""
        out: dict[int, list[TimedResult]] = defaultdict(list)
        for r in self.first:
            if r["correct"] and r.get("timing_verdict"):
                # answered differently when timed (issue 33, harness.state_run): no efficiency reward
                out[r["seed"]].append(TimedResult(False, 1.0, 1.0))
            elif r["correct"] and r["gold_time_s"] is not None and r["pred_time_s"] is not None:
                out[r["seed"]].append(TimedResult(True, r["gold_time_s"], r["pred_time_s"]))
            elif not r["correct"]:
                out[r["seed"]].append(TimedResult(False, 1.0, 1.0))
        return out

    @cached_property
    def usage(self) -> dict[str, Any]:
        """Tokens, latency and cost with each prediction counted once (score records repeat it per
        seed); ``cost_known`` is False as soon as one prediction's cost is unknown."""
        row = self.con.execute("""
            SELECT sum(prompt_tokens), sum(completion_tokens), avg(latency_s), sum(cached_prompt_tokens),
                   sum(cost_usd), count(*) = count(cost_usd)
            FROM (SELECT DISTINCT question_id, sample, prompt_tokens, completion_tokens, latency_s,
                         cached_prompt_tokens, cost_usd
                  FROM scores WHERE tool = ?)""", [self.tool]).fetchone()
        return dict(zip(("prompt_tokens", "completion_tokens", "mean_latency_s", "cached_prompt_tokens",
                         "cost_sum", "cost_known"), row))
