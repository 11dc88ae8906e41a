"""heron's own metrics, each declared once (docs/METHODOLOGY.md defines them; ``scoring`` computes them).

Registration order is the order of the columns on every face (CLI table, CSV, Markdown, HTML), so
the declarations below are in the order the published files have always shown them: the Grade,
the headline multi-state EX@1 with its interval, EX@1 per state, EX@k, VES, R-VES, Soft-F1, row F1,
Set-Recall@k, exact match, errors, tokens, cost, latency, then the breakdown (not a column). Where
a face has always written a figure its own way (the CI beside the headline, EX@k labelled with its
n, cost to four places) the declaration says so, so the files stay byte for byte what they were.
"""

from __future__ import annotations

from collections import defaultdict
from functools import lru_cache
from typing import Any, Mapping, Sequence

from heron_pipeline.diagnosis import TRAP_PREFIX, cause_rank, diagnose, table_linking
from heron_pipeline.metrics.cells import cli_text, html_cell, html_text, md_text, rounded
from heron_pipeline.metrics.registry import Cell, Claim, Column, Metric, RecordField, register
from heron_pipeline.metrics.scores import Scored, ToolScores
from heron_pipeline.scoring.exact_match import EMSchema
from heron_pipeline.scoring.grade import CLAIMED, MEASURED
from heron_pipeline.scoring import (
    ToolDims,
    bootstrap_ci,
    breakdown,
    canonical_pair,
    ex,
    ex_at_k,
    exact_set_match,
    grade,
    multi_state_ex,
    pass_at_k,
    r_ves,
    row_multiset_f1,
    set_recall_at_k,
    soft_f1,
    ves,
)

CI_RESAMPLES = 1000
CI_SEED = 0
#: Set-Recall@k cut-offs; None is every retrieved table ("@all").
RECALL_KS: tuple[int | None, ...] = (5, 10, 20, None)


def recall_label(k: int | None) -> str:
    return "all" if k is None else str(k)


def _ci(values: list[float]) -> list[float]:
    low, high = bootstrap_ci(values, resamples=CI_RESAMPLES, seed=CI_SEED)
    return [round(100 * low, 4), round(100 * high, 4)]


def _mean(values: list[float]) -> float | None:
    return sum(values) / len(values) if values else None


def _mean_percent(field: str):
    """The aggregate of a per-record share in [0, 1]: 100 × its mean over sample 0 on every state."""
    def aggregate(scores: ToolScores) -> dict[str, Any]:
        values = [r[field] for r in scores.first]
        return {field: 100 * _mean(values) if values else None}
    return aggregate


def ex1_of_records(records: Sequence[Any]) -> float:
    """EX@1 of one state's score records (sample 0), in percent; 0.0 for no records."""
    first = [r for r in records if r.sample == 0]
    return ex([r.correct for r in first]) if first else 0.0


# --- Grade: from the row's own figures, after the aggregates ---------------------------------------

def telemetry_of(standing: Mapping[str, Any]) -> dict[str, str]:
    """How the row's tokens and latency were obtained (``conditions["telemetry"]``): ``measured``
    by heron unless the tool's adapter or the submission path marked them ``claimed``."""
    given = standing["conditions"].get("telemetry") or {}
    return {k: given.get(k, MEASURED) for k in ("tokens", "latency")}


def tool_dims(standing: Mapping[str, Any]) -> ToolDims:
    """The Grade's raw dimensions of one tool: multi-state EX@1 with ≥ 2 states, else EX@1; VES with
    the mean EX@1 of the states it was averaged over; tokens and latency with whether heron measured them."""
    states = standing["conditions"]["states"]
    per_state = list(standing["ex1_per_state"].values())
    headline = standing["multi_state_ex1"] if states >= 2 else per_state[0]
    measured = telemetry_of(standing)
    return ToolDims(ex=headline, ves=standing["ves"], errors=standing["errors"], n=standing["questions"],
                    tokens_per_question=standing["tokens_per_question"] or None,
                    mean_latency_s=standing["mean_latency_s"] or None,
                    ex_timed=sum(per_state) / len(per_state) if per_state else None,
                    tokens_measured=measured["tokens"] == MEASURED, latency_measured=measured["latency"] == MEASURED)


def _grades(rows: list[Mapping[str, Any]]) -> list[float]:
    return [grade(tool_dims(r)) for r in rows]


register(Metric(
    name="grade", label="Grade", field=_grades, unit="points", headline=True,
    description="EX, and efficiency, reliability, token economy and latency each earned only by right answers "
                "and measured against fixed reference points; ≤ EX, from the row's own measured figures "
                "(scoring.grade)"))


# --- execution accuracy --------------------------------------------------------------------------

def _multi_state(scores: ToolScores) -> dict[str, Any]:
    return {"multi_state_ex1": multi_state_ex(dict(scores.per_question_states)),
            "multi_state_ex1_ci": _ci([float(v) for v in scores.multi.values()])}


def _html_headline(t: Mapping[str, Any], board: Mapping[str, Any]) -> str:
    value = t["multi_state_ex1"]
    return html_cell(value, f'{html_text(value)}<div class="cond">EX@1, multi-state, '
                            f'{len(board["seeds"])} public states</div>')


def _html_ci(t: Mapping[str, Any], _board: Mapping[str, Any]) -> str:
    low, high = t["multi_state_ex1_ci"]
    return html_cell(low, f"[{html_text(low)}, {html_text(high)}]")


register(Metric(
    name="multi_state_ex1", label="multi-state EX@1", reads=("correct", "seed", "question_id", "sample"),
    aggregate=_multi_state, headline=True,
    claims=(Claim("multi_state_ex1", required=("sql", "reference")),),
    columns=(Column("multi_state_ex1", lambda t, k: rounded(t["multi_state_ex1"])),
             Column("multi_state_ex1_ci_low", lambda t, k: rounded(t["multi_state_ex1_ci"][0])),
             Column("multi_state_ex1_ci_high", lambda t, k: rounded(t["multi_state_ex1_ci"][1]))),
    cli=(Cell("multi-state EX@1", lambda t: cli_text(t["multi_state_ex1"])),
         Cell("95 % CI", lambda t: "[{:.1f}, {:.1f}]".format(*t["multi_state_ex1_ci"]))),
    markdown=(Cell("multi-state EX@1 [95 % CI]", lambda r: f"{r['multi_state_ex1']} [{r['multi_state_ex1_ci_low']}, "
                                                          f"{r['multi_state_ex1_ci_high']}]"),),
    html=(Cell(lambda b: f"multi-state EX@1 ({len(b['seeds'])} states)", _html_headline),
          Cell("95 % CI", _html_ci)),
    description="sample 0 correct on every state (the headline), with its 95 % bootstrap interval"))


def _per_state(scores: ToolScores) -> dict[str, Any]:
    qs = scores.questions
    return {"ex1_per_state": {str(s): ex([scores.by_state[s].get(q, False) for q in qs]) for s in scores.seeds},
            "ex1_per_state_ci": {str(s): _ci([float(scores.by_state[s].get(q, False)) for q in qs])
                                 for s in scores.seeds}}


def _html_per_state(t: Mapping[str, Any], _board: Mapping[str, Any]) -> str:
    per_state = " ".join(f"{s}:{v:.1f}" for s, v in t["ex1_per_state"].items())
    return html_cell(per_state, html_text(per_state), klass="text")


register(Metric(
    name="ex1_per_state", label="EX@1 per state", reads=("correct", "seed", "question_id", "sample"),
    aggregate=_per_state, headline=True,
    columns=(Column("ex1_per_state", lambda t, k: ";".join(f"{s}:{rounded(v)}" for s, v in t["ex1_per_state"].items())),),
    cli=(Cell("EX@1 per state", lambda t: " ".join(f"{s}:{v:.0f}" for s, v in t["ex1_per_state"].items())),),
    html=(Cell("EX@1 per state", _html_per_state, klass="text"),),
    description="sample 0 correct, per state"))


def _pass(outcomes: list[bool], k: int) -> float:
    return pass_at_k(len(outcomes), sum(outcomes), k)


def _ex_at_k(scores: ToolScores) -> dict[str, Any]:
    n = scores.n
    return {f"ex_at_{n}": ex_at_k(scores.samples, n), "ex_at_k_ci": _ci([_pass(v, n) for v in scores.samples.values()])}


def _html_ex_at_k(t: Mapping[str, Any], _board: Mapping[str, Any]) -> str:
    n = t["conditions"]["n"]
    value = t.get(f"ex_at_{n}")
    return html_cell(value, f'{html_text(value)}<div class="cond">EX@{n}</div>')


register(Metric(
    name="ex_at_k", label="EX@k", reads=("correct", "seed", "question_id", "sample"), aggregate=_ex_at_k,
    columns=(Column("ex_at_k", lambda t, k: f"@{k}:{rounded(t[f'ex_at_{k}'])}"),),
    cli=(Cell("EX@k", lambda t: cli_text(t[f"ex_at_{t['conditions']['n']}"])),),
    html=(Cell("EX@k (n samples, ceiling)", _html_ex_at_k),),
    description="unbiased pass@k over the n samples, a sample correct = correct on every state (a ceiling); "
                "stored as ex_at_<n>"))


# --- efficiency ------------------------------------------------------------------------------------

def _timed_ok(scores: ToolScores) -> bool:
    """VES only when every correct prediction was timed on that state (``timed`` holds every sample-0
    record but the correct untimed ones; a timing-divergent one is there, unrewarded)."""
    timed = scores.timed
    return bool(timed) and all(len(timed[s]) == len(scores.by_state[s]) for s in scores.seeds)


def _efficiency(name: str, reward):
    def aggregate(scores: ToolScores) -> dict[str, Any]:
        return {name: _mean([reward(scores.timed[s]) for s in scores.seeds]) if _timed_ok(scores) else None}
    return aggregate


TIMING = ("correct", "gold_time_s", "pred_time_s", "timing_verdict", "seed")
register(Metric(name="ves", label="VES", reads=TIMING, aggregate=_efficiency("ves", ves), html=(),
                description="BIRD's valid efficiency score over timed correct predictions, mean over states"))
register(Metric(name="r_ves", label="R-VES", reads=TIMING, aggregate=_efficiency("r_ves", r_ves), cli=(), html=(),
                description="BIRD mini-dev's bucketed reward efficiency score, mean over states"))


def _timing_divergent(scores: ToolScores) -> dict[str, Any]:
    """The questions whose sample 0 answered differently when timed on some state (issue 33), named
    in the standings; the key is there only when there is one, so other standings keep their bytes."""
    named = sorted({f"{r['question_id']}@{r['seed']}" for r in scores.first
                    if r["correct"] and r.get("timing_verdict")})
    return {"timing_divergent": named} if named else {}


register(Metric(name="timing_divergent", label="timing-divergent", reads=("correct", "timing_verdict", "seed"),
                aggregate=_timing_divergent, unit="questions", higher_is_better=False,
                columns=(), cli=(), markdown=(), html=(),
                description="question@seed of the correct predictions whose timed runs gave another answer than the "
                            "scored run (VES and R-VES 0 there); present only when there is one"))


# --- partial credit, per record ---------------------------------------------------------------------

register(Metric(
    name="soft_f1", label="Soft-F1", reads=("soft_f1",), fields=(RecordField("soft_f1", "DOUBLE"),),
    record=lambda s: {"soft_f1": soft_f1(*canonical_pair(s.question.gold_sql, s.gold_rows, s.prediction.sql,
                                                         s.pred_rows))},
    failed=lambda s: {"soft_f1": 0.0}, aggregate=_mean_percent("soft_f1"), claims=(Claim("soft_f1"),),
    description="BIRD mini-dev's Soft-F1, rows paired in the canonical order (scoring.canonical_pair)"))

register(Metric(
    name="row_f1", label="row F1", reads=("row_f1",), fields=(RecordField("row_f1", "DOUBLE"),),
    record=lambda s: {"row_f1": row_multiset_f1(s.gold_rows, s.pred_rows)}, failed=lambda s: {"row_f1": 0.0},
    aggregate=_mean_percent("row_f1"), claims=(Claim("row_f1"),),
    description="F1 of the result rows as multisets (order-free)"))


def _recalls(s: Scored) -> dict[str, float | None]:
    retrieved, gold_tables = s.prediction.retrieved_tables, s.question.gold_tables
    if not retrieved or not gold_tables:
        return {f"recall_{recall_label(k)}": None for k in RECALL_KS}
    return {f"recall_{recall_label(k)}": set_recall_at_k(retrieved, gold_tables, k) for k in RECALL_KS}


def _zeroed(values: Mapping[str, Any]) -> dict[str, Any]:
    """Every defined value 0 (False for a boolean); an undefined one (None: not exposed) stays None."""
    return {k: None if v is None else (False if isinstance(v, bool) else 0.0) for k, v in values.items()}


def _lowest_per_question(scores: ToolScores, field: str) -> dict[str, Any]:
    """question -> the lowest defined value of ``field`` over sample 0's states. The value does not
    depend on the state where the prediction ran, and is 0 where it failed: one failure zeroes it."""
    out: dict[str, Any] = {}
    for r in scores.first:
        value = r[field]
        if value is not None:
            out[r["question_id"]] = value if r["question_id"] not in out else min(out[r["question_id"]], value)
    return out


def _set_recall(scores: ToolScores) -> dict[str, Any]:
    # per question, the lowest value over the states (a retrieval does not depend on the state; a
    # prediction that failed on some state scores 0 there)
    recalls: dict[str, dict[str, float]] = {recall_label(k): _lowest_per_question(scores, f"recall_{recall_label(k)}")
                                            for k in RECALL_KS}
    return {"set_recall": {f"@{k}": (100 * _mean(list(v.values())) if v else None) for k, v in
                           ((recall_label(k), recalls.get(recall_label(k), {})) for k in RECALL_KS)}}


register(Metric(
    name="set_recall", label="Set-Recall@k",
    reads=tuple(f"recall_{recall_label(k)}" for k in RECALL_KS),
    fields=tuple(RecordField(f"recall_{recall_label(k)}", "DOUBLE") for k in RECALL_KS),
    record=_recalls, failed=lambda s: _zeroed(_recalls(s)), aggregate=_set_recall,
    claims=tuple(Claim(f"set_recall@{recall_label(k)}", classes=("retrieval",),
                       required=("retrieval",) if k == 10 else ()) for k in RECALL_KS),
    columns=tuple(Column(f"set_recall_at_{recall_label(k)}", lambda t, _n, k=k: rounded(t["set_recall"][f"@{recall_label(k)}"]))
                  for k in RECALL_KS),
    cli=(Cell("Recall@all", lambda t: cli_text(t["set_recall"]["@all"])),),
    markdown=(Cell("Recall@" + "/".join(recall_label(k) for k in RECALL_KS),
                   lambda r: "/".join(md_text(r[f"set_recall_at_{recall_label(k)}"]) for k in RECALL_KS)),),
    html=(),
    description="|top-k retrieved ∩ gold tables| ÷ |gold tables| of the tables a tool reports it retrieved "
                "(sql class); the retrieval class claims it from submissions.figures"))


@lru_cache(maxsize=1)
def _em_schema() -> EMSchema:
    """heron's tables and foreign keys, which Spider's exact match reads as its database schema."""
    from heron_pipeline.catalog import load_catalog

    return EMSchema.from_catalog(load_catalog())


@lru_cache(maxsize=4096)
def _exact_match(gold_sql: str, pred_sql: str) -> bool:
    """EM does not depend on the state; parsing both queries costs more than executing them on
    tiny, so each pair is parsed once per process however many states are scored."""
    return exact_set_match(gold_sql, pred_sql, schema=_em_schema())


def _exact_match_share(scores: ToolScores) -> dict[str, Any]:
    # per question: an exact match on every state, i.e. it ran everywhere (a failure scores EM 0)
    em: dict[str, bool] = {}
    for r in scores.first:
        em[r["question_id"]] = em.get(r["question_id"], True) and bool(r["exact_match"])
    return {"exact_match": ex(list(em.values())) if em else None}


register(Metric(
    name="exact_match", label="EM", reads=("exact_match",), fields=(RecordField("exact_match", "BOOLEAN", False),),
    record=lambda s: {"exact_match": s.prediction.sql is not None and _exact_match(s.question.gold_sql,
                                                                                    s.prediction.sql)},
    failed=lambda s: {"exact_match": False}, aggregate=_exact_match_share, claims=(Claim("exact_match"),),
    description="Spider's exact set match of the SQL that ran, share of questions (a prediction that failed, "
                "was rejected or timed out on some state: 0)"))


# --- reliability and cost ---------------------------------------------------------------------------

def _errors(scores: ToolScores) -> dict[str, Any]:
    by_class: dict[str, int] = defaultdict(int)
    failed = set()
    for r in scores.first:
        if r["error_class"]:
            by_class[r["error_class"]] += 1
            failed.add(r["question_id"])
    return {"errors": len(failed), "errors_by_class": dict(sorted(by_class.items()))}


register(Metric(name="errors", label="errors", reads=("error_class",), aggregate=_errors, unit="questions",
                higher_is_better=False, headline=True,
                description="questions whose sample 0 failed on some state; errors_by_class counts the failures"))


def _tokens(scores: ToolScores) -> dict[str, Any]:
    u = scores.usage
    tokens = (u["prompt_tokens"] or 0) + (u["completion_tokens"] or 0)
    return {"prompt_tokens": int(u["prompt_tokens"] or 0), "completion_tokens": int(u["completion_tokens"] or 0),
            "cached_prompt_tokens": int(u["cached_prompt_tokens"] or 0),
            "tokens_per_question": tokens / len(scores.questions) if scores.questions else 0.0}


def claimed(t: Mapping[str, Any], kind: str, key: str) -> bool:
    """Whether the row shows a ``kind`` figure (tokens, latency) the tool claimed rather than heron measured."""
    return bool(t.get(key)) and telemetry_of(t)[kind] == CLAIMED


def _cli_telemetry(t: Mapping[str, Any], kind: str, key: str, digits: int) -> str:
    return cli_text(t.get(key), digits) + (" (claimed)" if claimed(t, kind, key) else "")


def _html_telemetry(t: Mapping[str, Any], kind: str, key: str, digits: int) -> str:
    note = '<div class="cond">claimed, not graded</div>' if claimed(t, kind, key) else ""
    return html_cell(t.get(key), html_text(t.get(key), digits) + note)


register(Metric(
    name="tokens_per_question", label="tokens/q", reads=("prompt_tokens", "completion_tokens", "cached_prompt_tokens"),
    aggregate=_tokens, unit="tokens", higher_is_better=False,
    columns=(Column("tokens_per_question", lambda t, k: rounded(t["tokens_per_question"], 1)),),
    cli=(Cell("tok/q", lambda t: _cli_telemetry(t, "tokens", "tokens_per_question", 1)),),
    html=(Cell("tokens/q", lambda t, b: _html_telemetry(t, "tokens", "tokens_per_question", 1)),),
    description="prompt + completion tokens per question, each prediction once; claimed (not graded) when the "
                "tool reported them (conditions.telemetry)"))


def _cost(scores: ToolScores) -> dict[str, Any]:
    u = scores.usage
    return {"cost_usd": float(u["cost_sum"] or 0.0) if u["cost_known"] else None}


register(Metric(
    name="cost_usd", label="cost $", reads=("cost_usd",), aggregate=_cost, unit="USD", higher_is_better=False,
    columns=(Column("cost_usd", lambda t, k: rounded(t["cost_usd"], 4)),),
    cli=(Cell("cost $", lambda t: cli_text(t["cost_usd"], 4)),),
    html=(Cell("cost $", lambda t, b: html_cell(t.get("cost_usd"), html_text(t.get("cost_usd"), 4))),),
    description="summed from the predictions' own cost; None as soon as one is unknown"))

register(Metric(
    name="mean_latency_s", label="latency s", reads=("latency_s",),
    aggregate=lambda scores: {"mean_latency_s": scores.usage["mean_latency_s"]}, unit="s", higher_is_better=False,
    columns=(Column("mean_latency_s", lambda t, k: rounded(t["mean_latency_s"], 3)),),
    cli=(Cell("lat s", lambda t: _cli_telemetry(t, "latency", "mean_latency_s", 3)),), html=(),
    description="the tool's own mean time to predict (not the execution); claimed (not graded) when the tool "
                "reported it (conditions.telemetry)"))


# --- breakdown (a JSON figure, not a column) --------------------------------------------------------

register(Metric(
    name="breakdown_multi_state_ex1", label="breakdown", reads=("correct", "shape", "retrieval", "traps"),
    aggregate=lambda scores: {"breakdown_multi_state_ex1": {
        label: {"n": count, "ex": 100 * mean} for label, (count, mean) in breakdown(scores.multi, scores.tags).items()}},
    columns=(), cli=(), markdown=(), html=(),
    description="multi-state EX@1 per SQL shape, retrieval difficulty and trap"))


# --- why each tool fails: table linking and one cause per wrong prediction (heron_pipeline.diagnosis) --

@lru_cache(maxsize=4096)
def _linking(sql: str | None, gold_tables: tuple[str, ...]) -> tuple[float | None, float | None]:
    """(recall, precision) of the tables ``sql`` reads; the same on every state, so parsed once."""
    return table_linking(sql, gold_tables)


def _failed_linking(s: Scored) -> tuple[float | None, float | None]:
    """A prediction that did not run links no table: (0, 0), undefined without gold tables."""
    return table_linking(s.prediction.sql, tuple(s.question.gold_tables), ran=False)


def _per_question_percent(field: str):
    """100 × the mean over questions of a per-record share that does not depend on the state where
    the prediction ran (sample 0's lowest value over the states, like Set-Recall: 0 when it failed on
    one); None-valued questions left out."""
    def aggregate(scores: ToolScores) -> dict[str, Any]:
        values = _lowest_per_question(scores, field)
        return {field: 100 * _mean(list(values.values())) if values else None}
    return aggregate


register(Metric(
    name="table_recall", label="table recall", reads=("table_recall",),
    fields=(RecordField("table_recall", "DOUBLE"),),
    record=lambda s: {"table_recall": _linking(s.prediction.sql, tuple(s.question.gold_tables))[0]},
    failed=lambda s: {"table_recall": _failed_linking(s)[0]},
    aggregate=_per_question_percent("table_recall"), claims=(Claim("table_recall"),),
    description="share of the gold tables the predicted SQL reads (sqlglot, CTE names excluded); a prediction "
                "that did not run reads none (0)"))

register(Metric(
    name="table_precision", label="table precision", reads=("table_precision",),
    fields=(RecordField("table_precision", "DOUBLE"),),
    record=lambda s: {"table_precision": _linking(s.prediction.sql, tuple(s.question.gold_tables))[1]},
    failed=lambda s: {"table_precision": _failed_linking(s)[1]},
    aggregate=_per_question_percent("table_precision"), claims=(Claim("table_precision"),),
    description="share of the tables the predicted SQL reads that gold reads; undefined (left out) when SQL "
                "that ran reads none; 0 for a prediction that did not run"))

DIAGNOSIS_FIELDS = (RecordField("cause", "VARCHAR"), RecordField("cause_detail", "VARCHAR"),
                    RecordField("missing_tables", "VARCHAR[]"), RecordField("extra_tables", "VARCHAR[]"),
                    RecordField("rows_missing", "BIGINT"), RecordField("rows_extra", "BIGINT"),
                    RecordField("trap_mutants", "VARCHAR[]"))


def _diagnosis(s: Scored) -> dict[str, Any]:
    found = diagnose(correct=s.correct, error_class=s.error_class, pred_sql=s.prediction.sql,
                     gold_sql=s.question.gold_sql, gold_tables=s.question.gold_tables, gold_rows=s.gold_rows,
                     pred_rows=s.pred_rows, mutant_answers=s.mutant_answers,
                     question_traps=[str(getattr(t, "value", t)) for t in s.question.traps])
    if found is None:
        return {f.name: None for f in DIAGNOSIS_FIELDS}
    return {"cause": found.cause, "cause_detail": found.detail, "missing_tables": list(found.missing_tables),
            "extra_tables": list(found.extra_tables), "rows_missing": found.rows_missing,
            "rows_extra": found.rows_extra, "trap_mutants": list(found.trap_mutants)}


def _wrong_by_cause(scores: ToolScores) -> dict[str, Any]:
    """Per question not right on every state: its cause on the first state (seed order) where it is
    wrong; counted by cause, so the counts add up to the questions multi-state EX@1 misses."""
    first_cause: dict[str, str] = {}
    for r in scores.first:  # question, then seed order
        if not r["correct"] and r["question_id"] not in first_cause:
            first_cause[r["question_id"]] = r["cause"] or r["error_class"] or "unknown"
    counts: dict[str, int] = defaultdict(int)
    for qid, right in scores.multi.items():
        if not right:
            counts[first_cause.get(qid, "unscored")] += 1
    return {"wrong_by_cause": {c: counts[c] for c in sorted(counts, key=cause_rank)}}


def causes_text(counts: Mapping[str, int] | None) -> str:
    """``values:3;shape:1`` in precedence order; empty when nothing is wrong."""
    return ";".join(f"{c}:{n}" for c, n in (counts or {}).items())


#: Bar colours of the causes; the failure classes share greys.
CAUSE_COLOURS = {"schema-linking": "#d95f02", "shape": "#7570b3", "values": "#e7298a"}
#: The colour every ``trap:<tag>`` cause shares.
TRAP_COLOUR = "#1b9e77"


def cause_colour(cause: str) -> str:
    """A cause's bar colour: its own, the traps' shared one, or the failure classes' grey."""
    return TRAP_COLOUR if cause.startswith(TRAP_PREFIX) else CAUSE_COLOURS.get(cause, "#999")


def _html_causes(t: Mapping[str, Any], _board: Mapping[str, Any]) -> str:
    counts = t.get("wrong_by_cause") or {}
    total = sum(counts.values())
    if not total:
        return html_cell(0, "—")
    bar = "".join(f'<span style="width:{100 * n / total:.1f}%;background:{cause_colour(c)}" '
                  f'title="{html_text(c)}: {n}"></span>' for c, n in counts.items())
    legend = " · ".join(f"{html_text(c)} {n}" for c, n in counts.items())
    return html_cell(total, f'<div class="causes">{bar}</div><div class="cond">{legend}</div>', klass="text")


register(Metric(
    name="wrong_by_cause", label="wrong by cause", unit="questions", higher_is_better=False,
    reads=("correct", "cause", "error_class", "seed", "question_id", "sample"),
    fields=DIAGNOSIS_FIELDS, record=_diagnosis, aggregate=_wrong_by_cause,
    columns=(Column("wrong_by_cause", lambda t, k: causes_text(t["wrong_by_cause"])),),
    cli=(),
    html=(Cell("wrong by cause", _html_causes, klass="text"),),
    description="one cause per wrong prediction (heron_pipeline.diagnosis); per tool, the questions not right "
                "on every state counted by their cause on the first state where they are wrong"))
