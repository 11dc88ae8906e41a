"""The hidden evaluation: every runnable submission on a draw nobody has seen, and its contamination gap.

A hidden evaluation is a draw the maintainer keeps secret (``HiddenPlan``: data seeds and an
instance seed), audited by the same rules and redraw loop as any draw (``audited_instances``);
only a draw whose audit passed scores a tool. A question no redraw makes pass is withheld from a
hidden draw (named in the record) and scored on neither side of the gap. Each accepted runnable submission (``tool.toml``) is
run on it through the bench core, and its row gets:

- public multi-state EX@1 (the verified submission's, with its CI),
- hidden multi-state EX@1 on the draw × hidden states (bootstrap CI over questions),
- the contamination gap, public − hidden, with a paired bootstrap CI over question ids, and the
  flag "public answers not reproduced on a hidden draw" when the whole interval lies above
  ``GAP_FLAG_POINTS`` (METHODOLOGY §16).

The result is an evaluation record, committed under ``evaluations/``: aggregates, the draw's
digest and the audit's verdict — never the seeds, the question texts or per-question results.
After ``RETIRE_AFTER_DAYS`` a record may be retired: its seeds are written into it (``retire``),
checked first against its draw digest, and anyone can then recompute it from the runnable
submissions (``recompute``) and get the same figures.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Iterable

from heron_pipeline.config import PROJECT_ROOT
from heron_pipeline.hidden.paired import FLAG_TEXT, GAP_FLAG_POINTS, flagged, mean_ci, paired_difference
from heron_pipeline.hidden.plan import HiddenPlan
from heron_pipeline.hidden.runner import run_tool
from heron_pipeline.hidden.toolspec import ToolSpec

Say = Callable[[str], None]
EVALUATIONS_DIR = PROJECT_ROOT / "evaluations"
RECORD_FORMAT = "heron-hidden-evaluation/1"
#: A draw's seeds are published (and its figures become recomputable by anyone) this many days after it ran.
RETIRE_AFTER_DAYS = 28


@dataclass(frozen=True)
class Runnable:
    """An accepted submission with a ``tool.toml``: its folder, verdict and checked spec."""

    folder: Path
    verdict: Any
    spec: ToolSpec

    @property
    def public_correct(self) -> dict[str, bool]:
        return {q: bool(v) for q, v in (self.verdict.standing.get("per_question") or {}).items()}


def redacting(say: Say, plan: HiddenPlan) -> Say:
    """``say`` with every hidden value of ``plan`` replaced by ``‹hidden›``: the steps a hidden evaluation
    reuses name states by their seed ("heron_small_<seed> is up to date", "audit of small seeds …"), and a
    maintainer's log or a CI log must not publish a seed before its draw is retired. Hidden values are
    ≥ 10⁹, so no other number in a message can match one."""
    values = sorted({str(v) for v in (*plan.seeds, plan.instance_seed) if v}, key=len, reverse=True)

    def said(message: str) -> None:
        for value in values:
            message = message.replace(value, "‹hidden›")
        say(message)

    return said


def hidden_states(server: Any, artifacts: Path, scale: str, plan: HiddenPlan, say: Say) -> dict[int, Any]:
    from heron_pipeline.bench.states import build_state

    return {seed: build_state(server, artifacts, scale, seed, say=say) for seed in plan.seeds}


def audited_draw(server: Any, artifacts: Path, scale: str, plan: HiddenPlan, states: dict[int, Any],
                 questions_dir: Path, say: Say) -> tuple[Any, Any, dict[int, Any]]:
    """(instance set, audit, golds by seed) of the plan's draw on its states; the seed is never said."""
    from heron_pipeline.bench.instances import audited_instances
    from heron_pipeline.bench.run import redraw_audit

    return audited_instances(questions_dir, int(plan.instance_seed or 0),
                             redraw_audit(server, artifacts, scale, states, say=say),
                             say=say, label=plan.label, withhold=True)


def tool_row(runnable: Runnable, run: Any) -> dict[str, Any]:
    """One tool's aggregates on the draw: public, hidden, gap (paired), flag, errors."""
    v = runnable.verdict
    public = runnable.public_correct
    row: dict[str, Any] = {
        "folder": v.folder, "submission_digest": v.submission_digest, "tool": v.tool, "class": v.klass,
        "protocol": runnable.spec.protocol, "question_mode": v.conditions["question_mode"],
        "public": {"multi_state_ex1": v.standing["multi_state_ex1"], "ci": v.standing["multi_state_ex1_ci"]},
        "status": run.status, "errors": run.errors, "errors_by_class": run.errors_by_class,
    }
    if run.reason:
        row["reason"] = run.reason
    hidden_ex, hidden_ci = mean_ci(run.correct)
    row["hidden"] = {"multi_state_ex1": hidden_ex, "ci": hidden_ci}
    if public:
        gap = paired_difference(public, run.correct)
        row["gap"] = gap.to_json()
        row["flagged"] = flagged(gap)
    else:  # a verdict from before per-question results were kept: no pairing, no flag
        row["gap"], row["flagged"] = None, False
    return row


def evaluate(server: Any, artifacts: Path, runnables: Iterable[Runnable], plan: HiddenPlan, *, kind: str,
             date: dt.date, llm: Any = None, questions_dir: Path | None = None,
             say: Say = lambda _m: None) -> list[dict[str, Any]]:
    """One evaluation record per scale of the runnable submissions (none when there is none)."""
    from heron_pipeline.bench.options import QUESTIONS_DIR

    if not plan.has_draw:
        raise ValueError("the hidden evaluation needs instance_seed in the hidden file (HERON_HIDDEN_SEEDS_FILE)")
    questions_dir = Path(questions_dir or QUESTIONS_DIR)
    by_scale: dict[str, list[Runnable]] = {}
    for r in runnables:
        by_scale.setdefault(r.verdict.conditions["scale"], []).append(r)
    records = []
    say = redacting(say, plan)
    for scale, members in sorted(by_scale.items()):
        states = hidden_states(server, artifacts, scale, plan, say)
        drawn, audit, golds = audited_draw(server, artifacts, scale, plan, states, questions_dir, say)
        record: dict[str, Any] = {
            "format": RECORD_FORMAT, "kind": kind, "label": plan.label, "date": date.isoformat(), "scale": scale,
            "draw_digest": drawn.digest, "hidden_states": len(plan.seeds), "questions": len(drawn.questions),
            "audit": {"passed": bool(audit.passed), "failed_rules": list(audit.failed_rules),
                      "redraws": dict(sorted(drawn.attempts.items())), "withheld": list(drawn.withheld)},
            "flag": {"threshold_points": GAP_FLAG_POINTS, "text": FLAG_TEXT},
            "retire_after_days": RETIRE_AFTER_DAYS, "tools": [], "retired": None}
        say(f"{plan.label} at {scale}: draw {drawn.digest[:12]}… ({len(drawn.questions)} questions"
            + (f", {len(drawn.withheld)} withheld" if drawn.withheld else "") + "), audit "
            f"{'passed' if audit.passed else 'FAILED (' + ', '.join(audit.failed_rules) + ')'}")
        if audit.passed:
            for r in sorted(members, key=lambda m: m.folder.name):
                run = run_tool(r.folder, r.spec, r.verdict.tool, server, artifacts, scale=scale,
                               question_mode=r.verdict.conditions["question_mode"], questions=list(drawn.questions),
                               digest=drawn.digest, audit=audit, golds=golds, states=states, llm=llm, say=say)
                row = tool_row(r, run)
                record["tools"].append(row)
                gap = row["gap"]
                say(f"{plan.label}: {r.folder.name}: public {row['public']['multi_state_ex1']:.1f}, hidden "
                    f"{row['hidden']['multi_state_ex1']:.1f}"
                    + (f", gap {gap['difference']:+.1f} [{gap['ci'][0]:.1f}, {gap['ci'][1]:.1f}]" if gap else "")
                    + (f" — flagged: {FLAG_TEXT}" if row["flagged"] else "")
                    + (f" ({run.errors} errors)" if run.errors else ""))
        records.append(record)
    return records


def record_name(record: dict[str, Any]) -> str:
    """``<date>_<kind>_<scale>_<digest12>.json``: one file per (date, kind, scale, draw)."""
    return f"{record['date']}_{record['kind']}_{record['scale']}_{record['draw_digest'][:12]}.json"


def record_text(record: dict[str, Any]) -> str:
    return json.dumps(record, indent=1, sort_keys=True, ensure_ascii=False) + "\n"


def write_record(directory: Path, record: dict[str, Any]) -> Path:
    from heron_pipeline.artifacts.atomic import write_text_atomic

    path = Path(directory) / record_name(record)
    write_text_atomic(path, record_text(record))
    return path


def read_records(directory: Path) -> list[dict[str, Any]]:
    """Every evaluation record of ``directory`` (date, then name order); a file that is not one is an error."""
    out = []
    directory = Path(directory)
    if not directory.is_dir():
        return out
    for path in sorted(directory.glob("*.json")):
        try:
            doc = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as err:
            raise ValueError(f"{path}: not an evaluation record ({err}); remove it or restore it from git") from None
        if not isinstance(doc, dict) or doc.get("format") != RECORD_FORMAT:
            raise ValueError(f"{path}: not an evaluation record (format {RECORD_FORMAT} expected)")
        out.append(doc)
    return sorted(out, key=lambda d: (d["date"], record_name(d)))


def retire(record: dict[str, Any], plan: HiddenPlan, *, today: dt.date, questions_dir: Path | None = None,
           force: bool = False) -> dict[str, Any]:
    """The record with its seeds published; ValueError when it is too young or the plan is not its draw."""
    from heron_pipeline.bench.inputs import instance_set
    from heron_pipeline.bench.options import QUESTIONS_DIR

    if record.get("retired"):
        raise ValueError(f"{record_name(record)} is already retired")
    age = (today - dt.date.fromisoformat(record["date"])).days
    if age < RETIRE_AFTER_DAYS and not force:
        raise ValueError(f"{record_name(record)} ran {age} day(s) ago; a draw is retired after {RETIRE_AFTER_DAYS} "
                         f"days (METHODOLOGY §16)")
    drawn = instance_set(Path(questions_dir or QUESTIONS_DIR), int(plan.instance_seed or 0),
                         record["audit"]["redraws"], tuple(record["audit"].get("withheld") or ()))
    if drawn.digest != record["draw_digest"] or len(plan.seeds) != record["hidden_states"]:
        raise ValueError(f"{record_name(record)}: the hidden file's draw is not this record's (its digest differs); "
                         f"give the hidden file (or the night's secret) it was run with")
    return {**record, "retired": {"date": today.isoformat(), "instance_seed": plan.instance_seed,
                                  "seeds": list(plan.seeds)}}


def retired_plan(record: dict[str, Any]) -> HiddenPlan:
    retired = record.get("retired")
    if not retired:
        raise ValueError(f"{record_name(record)} is not retired: its seeds are secret until "
                         f"{RETIRE_AFTER_DAYS} days after it ran")
    return HiddenPlan(tuple(retired["seeds"]), int(retired["instance_seed"]), None, label=record["label"])


FIGURES = ("public", "hidden", "gap", "flagged", "errors", "errors_by_class", "status")


def compare_records(published: dict[str, Any], recomputed: dict[str, Any]) -> list[str]:
    """Every difference between a record's tool figures and a recomputation (empty: they agree)."""
    problems = []
    if published["draw_digest"] != recomputed["draw_digest"]:
        problems.append(f"draw digest {recomputed['draw_digest'][:12]}… ≠ {published['draw_digest'][:12]}…")
    theirs = {(t["folder"], t["submission_digest"]): t for t in recomputed["tools"]}
    for row in published["tools"]:
        other = theirs.get((row["folder"], row["submission_digest"]))
        if other is None:
            problems.append(f"{row['folder']}: not recomputed (the submission changed or is not runnable now)")
            continue
        for key in FIGURES:
            if row.get(key) != other.get(key):
                problems.append(f"{row['folder']}: {key} {row.get(key)} recomputed as {other.get(key)}")
    return problems


def figures_digest(record: dict[str, Any]) -> str:
    """sha256 of a record's tool figures (what a recomputation must reproduce)."""
    rows = [{k: t.get(k) for k in ("folder", "submission_digest", *FIGURES)} for t in record["tools"]]
    return hashlib.sha256(json.dumps(rows, sort_keys=True).encode()).hexdigest()
