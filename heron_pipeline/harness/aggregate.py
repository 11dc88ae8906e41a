"""Standings of one scale: every metric per tool, over the seeds whose scores are present.

DuckDB reads the score artifacts (JSON lines, one file per tool × state) and does the grouping —
per question and sample, across seeds — and the metric functions of ``heron_pipeline.scoring`` do
the arithmetic, so every figure here has exactly one definition (docs/METHODOLOGY.md). The headline
is multi-state EX@1 (sample 0 correct on every seed present); EX@1 is also given per state, EX@k is
the unbiased pass@k over the n samples (correct = correct on every state) and is a ceiling.
"""

from __future__ import annotations

import json
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable, Mapping

import duckdb

from heron_pipeline.scoring import (
    TimedResult,
    ToolDims,
    bootstrap_ci,
    breakdown,
    ex,
    ex_at_k,
    grade,
    multi_state_ex,
    r_ves,
    ves,
)

CI_RESAMPLES = 1000
CI_SEED = 0

_COLUMNS = {
    "tool": "VARCHAR", "scale": "VARCHAR", "seed": "BIGINT", "question_id": "VARCHAR", "sample": "BIGINT",
    "correct": "BOOLEAN", "soft_f1": "DOUBLE", "row_f1": "DOUBLE", "error_class": "VARCHAR", "error": "VARCHAR",
    "pred_row_count": "BIGINT", "gold_row_count": "BIGINT", "exec_s": "DOUBLE", "gold_time_s": "DOUBLE",
    "pred_time_s": "DOUBLE", "exact_match": "BOOLEAN", "recall_5": "DOUBLE", "recall_10": "DOUBLE",
    "recall_20": "DOUBLE", "recall_all": "DOUBLE", "prompt_tokens": "BIGINT", "completion_tokens": "BIGINT",
    "latency_s": "DOUBLE", "cached_prompt_tokens": "BIGINT", "cost_usd": "DOUBLE", "shape": "VARCHAR",
    "retrieval": "VARCHAR", "traps": "VARCHAR[]",
}


@dataclass(frozen=True)
class ToolConditions:
    """What a tool's numbers were measured under (printed next to them).

    The prices are informational only: cost is summed from the predictions' own ``cost_usd``
    (priced when they were made, heron_pipeline.llm.prices), so a figure never mixes prices.
    """

    model: str | None = None
    temperature: float | None = None
    usd_per_mtok_prompt: float | None = None
    usd_per_mtok_completion: float | None = None
    extra: dict[str, Any] = field(default_factory=dict)


def conditions_of(adapter: Any) -> ToolConditions:
    """A tool adapter's conditions (model, temperature, prices) as the standings record them."""
    cond = adapter.conditions()
    price = cond.get("price_usd_per_mtok") or {}
    return ToolConditions(model=cond.get("model"), temperature=cond.get("temperature"),
                          usd_per_mtok_prompt=price.get("prompt"), usd_per_mtok_completion=price.get("completion"))


def _ci(values: list[float]) -> list[float]:
    low, high = bootstrap_ci(values, resamples=CI_RESAMPLES, seed=CI_SEED)
    return [round(100 * low, 4), round(100 * high, 4)]


def load_scores(paths: Iterable[Path]) -> duckdb.DuckDBPyConnection:
    """An in-memory DuckDB with a ``scores`` table read from the given JSON-lines artifacts."""
    files = [str(p) for p in paths]
    con = duckdb.connect(":memory:")
    if not files:
        raise ValueError("no score artifacts to aggregate")
    columns = ", ".join(f"'{k}': '{v}'" for k, v in _COLUMNS.items())
    con.execute(f"CREATE TABLE scores AS SELECT * FROM read_json(?, format='newline_delimited', "
                f"columns={{{columns}}})", [files])
    return con


def _mean(values: list[float]) -> float | None:
    return sum(values) / len(values) if values else None


def tool_standing(con: duckdb.DuckDBPyConnection, tool: str, conditions: ToolConditions) -> dict[str, Any]:
    """Every figure of one tool on the scale the connection's scores belong to."""
    seeds = [r[0] for r in con.execute("SELECT DISTINCT seed FROM scores WHERE tool = ? ORDER BY seed", [tool]).fetchall()]
    # per question × sample: correct on every seed present, and on how many seeds it was scored
    per_sample = con.execute("""
        SELECT question_id, sample, bool_and(correct) AS all_correct, count(DISTINCT seed) AS states
        FROM scores WHERE tool = ? GROUP BY question_id, sample ORDER BY question_id, sample""", [tool]).fetchall()
    samples: dict[str, list[bool]] = defaultdict(list)
    for qid, _sample, all_correct, states in per_sample:
        samples[qid].append(bool(all_correct) and states == len(seeds))
    first = con.execute("""
        SELECT question_id, seed, correct, soft_f1, row_f1, error_class, exact_match,
               recall_5, recall_10, recall_20, recall_all, gold_time_s, pred_time_s, shape, retrieval, traps
        FROM scores WHERE tool = ? AND sample = 0 ORDER BY question_id, seed""", [tool]).fetchall()
    questions = sorted(samples)
    by_state: dict[int, dict[str, bool]] = defaultdict(dict)
    per_question_states: dict[str, list[bool]] = defaultdict(list)
    tags: dict[str, list[str]] = {}
    soft, rowf, em = [], [], {}
    recalls: dict[str, dict[str, float]] = defaultdict(dict)
    timed: dict[int, list[TimedResult]] = defaultdict(list)
    errors_by_class: dict[str, int] = defaultdict(int)
    failed_questions = set()
    for (qid, seed, correct, sf1, rf1, err, exm, r5, r10, r20, rall, gt, pt, shape, retrieval, traps) in first:
        by_state[seed][qid] = bool(correct)
        per_question_states[qid].append(bool(correct))
        soft.append(sf1)
        rowf.append(rf1)
        em[qid] = bool(exm)
        tags[qid] = [f"shape:{shape}", f"retrieval:{retrieval}", *(f"trap:{t}" for t in traps or [])]
        for name, value in (("5", r5), ("10", r10), ("20", r20), ("all", rall)):
            if value is not None:
                recalls[name][qid] = value
        if err:
            errors_by_class[err] += 1
            failed_questions.add(qid)
        if correct and gt is not None and pt is not None:
            timed[seed].append(TimedResult(True, gt, pt))
        elif not correct:
            timed[seed].append(TimedResult(False, 1.0, 1.0))
    for qid in questions:  # a question scored on fewer seeds than the tool counts as wrong
        per_question_states[qid] += [False] * (len(seeds) - len(per_question_states[qid]))
    multi = {qid: all(per_question_states[qid]) for qid in questions}
    n = max((len(s) for s in samples.values()), default=1)
    # each prediction once (scores repeat it per seed); cost is unknown as soon as one prediction's is
    usage = con.execute("""
        SELECT sum(prompt_tokens), sum(completion_tokens), avg(latency_s), sum(cached_prompt_tokens),
               sum(cost_usd), count(*) = count(cost_usd)
        FROM (SELECT DISTINCT question_id, sample, prompt_tokens, completion_tokens, latency_s,
                     cached_prompt_tokens, cost_usd
              FROM scores WHERE tool = ?)""", [tool]).fetchone()
    prompt_tokens, completion_tokens, mean_latency, cached_prompt_tokens, cost_sum, cost_known = usage
    tokens = (prompt_tokens or 0) + (completion_tokens or 0)
    cost = float(cost_sum or 0.0) if cost_known else None
    # VES only when every correct prediction was timed on that state
    timed_ok = bool(timed) and all(
        sum(r.correct for r in timed[s]) == sum(by_state[s].values()) for s in seeds)
    ves_figure = _mean([ves(timed[s]) for s in seeds]) if timed_ok else None
    r_ves_figure = _mean([r_ves(timed[s]) for s in seeds]) if timed_ok else None
    result: dict[str, Any] = {
        "tool": tool,
        "conditions": {"model": conditions.model, "temperature": conditions.temperature, "n": n,
                       "seeds": seeds, "states": len(seeds),
                       "mode": "multi-state" if len(seeds) >= 2 else "single-state", **conditions.extra},
        "questions": len(questions),
        "multi_state_ex1": multi_state_ex(dict(per_question_states)),
        "multi_state_ex1_ci": _ci([float(v) for v in multi.values()]),
        "ex1_per_state": {str(s): ex([by_state[s].get(q, False) for q in questions]) for s in seeds},
        "ex1_per_state_ci": {str(s): _ci([float(by_state[s].get(q, False)) for q in questions]) for s in seeds},
        f"ex_at_{n}": ex_at_k(samples, n),
        "ex_at_k_ci": _ci([_pass(v, n) for v in samples.values()]),
        "ves": ves_figure,
        "r_ves": r_ves_figure,
        "soft_f1": 100 * _mean(soft) if soft else None,
        "row_f1": 100 * _mean(rowf) if rowf else None,
        "set_recall": {f"@{k}": (100 * _mean(list(v.values())) if v else None) for k, v in
                       ((k, recalls.get(k, {})) for k in ("5", "10", "20", "all"))},
        "exact_match": ex(list(em.values())) if em else None,
        "errors": len(failed_questions),
        "errors_by_class": dict(sorted(errors_by_class.items())),
        "prompt_tokens": int(prompt_tokens or 0),
        "completion_tokens": int(completion_tokens or 0),
        "cached_prompt_tokens": int(cached_prompt_tokens or 0),
        "tokens_per_question": tokens / len(questions) if questions else 0.0,
        "cost_usd": cost,
        "mean_latency_s": mean_latency,
        "breakdown_multi_state_ex1": {label: {"n": count, "ex": 100 * mean}
                                      for label, (count, mean) in breakdown(multi, tags).items()},
    }
    return result


def _pass(outcomes: list[bool], k: int) -> float:
    from heron_pipeline.scoring import pass_at_k

    return pass_at_k(len(outcomes), sum(outcomes), k)


def tool_dims(standing: Mapping[str, Any]) -> ToolDims:
    """The Grade's raw dimensions of one tool: multi-state EX@1 with ≥ 2 states, else EX@1."""
    states = standing["conditions"]["states"]
    headline = standing["multi_state_ex1"] if states >= 2 else next(iter(standing["ex1_per_state"].values()))
    return ToolDims(ex=headline, ves=standing["ves"], errors=standing["errors"], n=standing["questions"],
                    tokens_per_question=standing["tokens_per_question"] or None,
                    mean_latency_s=standing["mean_latency_s"] or None)


def compute_standings(score_paths: Iterable[Path], scale: str,
                      conditions: Mapping[str, ToolConditions] | None = None) -> dict[str, Any]:
    """Standings of every tool found in the score artifacts, ranked by Grade then headline EX."""
    con = load_scores(score_paths)
    scales = {r[0] for r in con.execute("SELECT DISTINCT scale FROM scores").fetchall()}
    if scales != {scale}:
        raise ValueError(f"score artifacts of scale(s) {sorted(scales)} given for standings of {scale!r}")
    tools = [r[0] for r in con.execute("SELECT DISTINCT tool FROM scores ORDER BY tool").fetchall()]
    conditions = conditions or {}
    rows = [tool_standing(con, t, conditions.get(t, ToolConditions())) for t in tools]
    field_dims = [tool_dims(r) for r in rows]
    for row, dims in zip(rows, field_dims):
        row["grade"] = grade(dims, field_dims)
    rows.sort(key=lambda r: (-r["grade"], -r["multi_state_ex1"], r["tool"]))
    seeds = sorted({s for r in rows for s in r["conditions"]["seeds"]})
    return {"scale": scale, "seeds": seeds, "mode": "multi-state" if len(seeds) >= 2 else "single-state",
            "ci": {"level": 0.95, "resamples": CI_RESAMPLES, "seed": CI_SEED}, "tools": rows}


def standings_json(standings: Mapping[str, Any]) -> bytes:
    """Canonical JSON bytes of the standings (for a content-hashed artifact)."""
    return json.dumps(standings, sort_keys=True, indent=1, ensure_ascii=False).encode("utf-8")
