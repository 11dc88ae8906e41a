"""Plain-text report of mutant kill rates: per question, overall, every survivor, every kill by the
scoring bound and every comparison left unjudged — the last two always printed, so a report that
has none says 0."""

from __future__ import annotations

from collections import Counter
from typing import Mapping, Sequence

from heron_pipeline.mutants.run import SCORING_BOUND_MS, KillSummary, MutantOutcome, summarize


def _rate(value: float | None) -> str:
    return "   n/a" if value is None else f"{value:5.1f}%"


def format_report(outcomes: Sequence[MutantOutcome], states: Sequence[str], primary: str,
                  notes: Mapping[str, str] | None = None) -> str:
    overall, per_question = summarize(outcomes)
    lines = [f"mutants over {len(states)} states ({', '.join(states)}); single-state = {primary}", "",
             f"{'question':10} {'made':>5} {'equiv':>5} {'ran':>5} {'single':>7} {'multi':>7}  survivors"]
    for question_id in sorted(per_question):
        s = per_question[question_id]
        lines.append(f"{question_id:10} {s.generated:5} {s.equivalent:5} {s.executed:5} {_rate(s.single_rate):>7} "
                     f"{_rate(s.multi_rate):>7}  {len(s.survivors)}")
    lines += ["", _overall_line(overall)]
    by_operator = Counter(o.mutant.operator for o in overall.survivors)
    if by_operator:
        lines.append("survivors by operator: " + ", ".join(f"{k} {v}" for k, v in sorted(by_operator.items())))
    reasons = Counter(o.mutant.equivalent.split(":")[0] for o in outcomes if o.executed and o.mutant.equivalent)
    if reasons:
        lines.append("equivalent by contract (executed, not counted): "
                     + ", ".join(f"{k} {v}" for k, v in sorted(reasons.items())))
    if overall.contradicted:
        lines.append(f"CONTRADICTED equivalences (a state killed a 'proven' equivalent): {len(overall.contradicted)}")
        lines += [f"  {o.question_id} [{o.mutant.operator}] {o.mutant.description} ({o.mutant.equivalent})"
                  for o in overall.contradicted]
    failed = Counter(o.mutant.operator for o in outcomes if not o.executed and not o.timed_out)
    if failed:
        lines.append("did not execute (error), by operator: "
                     + ", ".join(f"{k} {v}" for k, v in sorted(failed.items())))
    lines.append(f"killed by the scoring bound (ran past the {SCORING_BOUND_MS / 1000:g} s statement timeout every "
                 f"prediction is scored under): {len(overall.killed_by_bound)}")
    lines += [f"  {o.question_id} [{o.mutant.operator}] {o.mutant.description} ({o.error})"
              for o in overall.killed_by_bound]
    lines.append(f"unjudged comparisons (equivalent by contract, ran past the scoring bound): {len(overall.unjudged)}")
    lines += [f"  {o.question_id} [{o.mutant.operator}] {o.mutant.description} ({o.error})" for o in overall.unjudged]
    if overall.survivors:
        lines += ["", "survivors (executed, equal to gold on every state):"]
        for outcome in overall.survivors:
            lines.append(f"  {outcome.question_id} [{outcome.mutant.operator}] {outcome.mutant.description}")
    return "\n".join(lines)


def _overall_line(summary: KillSummary) -> str:
    return (f"overall: {summary.generated} mutants, {summary.equivalent} equivalent by contract, "
            f"{summary.executed} other executed; killed single-state "
            f"{summary.killed_single} ({_rate(summary.single_rate).strip()}), multi-state {summary.killed_multi} "
            f"({_rate(summary.multi_rate).strip()}); {len(summary.survivors)} survivors")
