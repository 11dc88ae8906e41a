"""Step 3 — the release gate of one scale: every audit rule over the gold of the states to be scored.

The per-state rules were judged by the gold step; this step adds the rules over the whole question
set and the cross-seed rules (answers vary across seeds, result shapes are stable). With fewer than
two states the cross-seed rules cannot be judged: they are reported as "not judged" — a warning,
never a pass and never a block.

The verdict is recorded under a key made of the scale, the questions digest and the states'
fingerprints (``<artifacts>/audits/<scale>/<key>.json``), so the predict and score steps can refuse
to run unless a passing audit of exactly these states and questions exists, and ``heron bench``
can reuse a verdict instead of auditing again.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable

from heron_pipeline.artifacts import ArtifactLayout, ArtifactRef, write_document, write_text_atomic
from heron_pipeline.bench.gold import GoldResult
from heron_pipeline.bench.identity import harness_version

CROSS_SEED_RULES = ("shape-stable", "varies")


class AuditGateError(RuntimeError):
    """Scoring was asked for states and questions whose audit did not pass (or was never run)."""


def audit_key(scale: str, questions_digest: str, fingerprints: dict[int, str]) -> str:
    """sha256 of what an audit verdict is about: scale, questions, and every state's fingerprint."""
    doc = {"scale": scale, "questions": questions_digest, "states": {str(s): f for s, f in sorted(fingerprints.items())}}
    return hashlib.sha256(json.dumps(doc, sort_keys=True).encode("utf-8")).hexdigest()


@dataclass(frozen=True)
class AuditResult:
    """The verdict of one scale's audit over a set of states."""

    scale: str
    key: str
    passed: bool
    questions_digest: str
    states: list[dict[str, Any]]  # [{seed, fingerprint, generator_version, gold: {path, digest}}]
    problems: list[dict[str, Any]] = field(default_factory=list)
    not_judged: list[str] = field(default_factory=list)
    by_rule: dict[str, int] = field(default_factory=dict)
    varying_share: float | None = None
    report: str = ""
    trap_liveness: dict[str, Any] | None = None  # tag -> {"tagged", "live"} where trap-live was judged
    record: ArtifactRef | None = None

    @property
    def seeds(self) -> list[int]:
        return [int(s["seed"]) for s in self.states]

    def to_json(self) -> dict[str, Any]:
        return {"scale": self.scale, "key": self.key, "passed": self.passed, "questions_digest": self.questions_digest,
                "states": self.states, "problems": self.problems, "not_judged": self.not_judged,
                "by_rule": self.by_rule, "varying_share": self.varying_share, "report": self.report,
                "trap_liveness": self.trap_liveness, "harness_version": harness_version()}

    @classmethod
    def from_json(cls, doc: dict[str, Any], record: ArtifactRef | None = None) -> "AuditResult":
        return cls(doc["scale"], doc["key"], bool(doc["passed"]), doc["questions_digest"], list(doc["states"]),
                   list(doc.get("problems", [])), list(doc.get("not_judged", [])), dict(doc.get("by_rule", {})),
                   doc.get("varying_share"), doc.get("report", ""), doc.get("trap_liveness"), record)


def audit_states(artifacts: Path, scale: str, golds: Iterable[GoldResult], questions: list[Any],
                 questions_digest: str, *, server: Any = None) -> AuditResult:
    """Judge every rule; record the verdict under its key; the verdict.

    ``trap-live`` needs the states themselves (each tag's mutant must change the answer somewhere):
    with ``server`` given and a scale the rule is judged at (small and up), the mutants run there;
    otherwise the rule is reported as not judged."""
    from heron_pipeline.questions import audit as rules
    from heron_pipeline.questions.gold import Execution, QuestionRun, read_gold_artifact

    golds = sorted(golds, key=lambda g: g.state.seed)
    if not golds:
        raise ValueError(f"audit of {scale}: no states given")
    if any(g.state.scale != scale for g in golds):
        raise ValueError(f"audit of {scale}: a state of another scale was given")
    stale = [g.state.label for g in golds if g.questions_digest != questions_digest]
    if stale:
        raise ValueError(f"audit of {scale}: gold of {', '.join(stale)} was computed for other questions; "
                         f"recompute the gold results")
    problems = [rules.Problem(p["rule"], p["question_id"], p["message"]) for g in golds
                for found in g.problems.values() for p in found]
    problems += rules.static_problems(questions) + rules.check_balance(questions)
    states = {}
    for g in golds:
        g.gold.read_bytes()
        states[g.state.label] = {qid: QuestionRun(gold=Execution(result, error, (ms or 0.0) / 1000))
                                 for qid, (result, ms, error) in read_gold_artifact(g.gold.path).items()}
    not_judged: list[str] = []
    liveness = None
    if server is not None and scale in rules.TRAP_LIVE_SCALES:
        proofs = _trap_proofs(server, golds, questions, states)
        problems += rules.check_trap_live(questions, proofs)
        liveness = rules.trap_liveness(questions, proofs)
    else:
        not_judged.append("trap-live")
    if len(golds) >= 2:
        problems += rules.check_shape_stable(questions, states) + rules.check_varies(questions, states)
        constant, judged = rules.constant_answers(questions, states)
    else:
        not_judged += list(CROSS_SEED_RULES)
        constant, judged = [], 0
    report = rules.AuditReport(scale=scale, problems=problems, balance=rules.balance_of(questions), constant=constant,
                               judged=judged, latency_ms={g.state.label: g.latency for g in golds},
                               questions=len(questions))
    text = rules.format_report(report, questions)
    if not_judged:
        text += (f"\nnot judged here: {', '.join(not_judged)} (trap-live is judged from the small scale up; "
                 f"the cross-seed rules need at least two seeds)")
    fingerprints = {g.state.seed: g.state.fingerprint for g in golds}
    key = audit_key(scale, questions_digest, fingerprints)
    result = AuditResult(
        scale=scale, key=key, passed=not problems, questions_digest=questions_digest,
        states=[{"seed": g.state.seed, "fingerprint": g.state.fingerprint,
                 "generator_version": g.state.generator_version, "gold": g.gold.to_json()} for g in golds],
        problems=[{"rule": p.rule, "question_id": p.question_id, "message": p.message} for p in problems],
        not_judged=not_judged, by_rule=report.by_rule(),
        varying_share=round(report.varying_share, 4) if judged else None, report=text, trap_liveness=liveness)
    layout = ArtifactLayout.of(artifacts)
    record = write_document(layout.audits(scale), result.to_json())
    write_text_atomic(layout.audit_pointer(scale, key), json.dumps(record.to_json(), sort_keys=True))
    return AuditResult.from_json(result.to_json(), record)


def _trap_proofs(server: Any, golds: list[GoldResult], questions: list[Any], states: dict) -> dict:
    """Every tag's proof (``mutants.liveness.prove_questions``) on the audited states, one read-only
    connection per state."""
    import contextlib

    from heron_pipeline.catalog import load_catalog
    from heron_pipeline.mutants.liveness import prove_questions
    from heron_pipeline.mutants.run import database_executor

    with contextlib.ExitStack() as stack:
        execute = database_executor({g.state.label: stack.enter_context(server.connect(g.state.database))
                                     for g in golds})
        return prove_questions(questions, states, execute, load_catalog())


def recorded_audit(artifacts: Path, scale: str, questions_digest: str, fingerprints: dict[int, str]) -> AuditResult | None:
    """The verdict recorded for exactly these states and questions, or None."""
    pointer = ArtifactLayout.of(artifacts).audit_pointer(scale, audit_key(scale, questions_digest, fingerprints))
    try:
        record = ArtifactRef.from_json(json.loads(pointer.read_text(encoding="utf-8")))
        return AuditResult.from_json(record.read_json(), record)
    except (OSError, ValueError, KeyError):
        return None


def require_passed(audit: AuditResult | None, scale: str) -> AuditResult:
    """The audit itself when it passed; AuditGateError naming the fix otherwise."""
    if audit is None:
        raise AuditGateError(f"no audit of these {scale} states and questions is recorded; "
                             f"run `heron audit --scale {scale}` (or `heron bench`, which audits first)")
    if not audit.passed:
        failing = ", ".join(f"{rule} {n}" for rule, n in audit.by_rule.items() if n)
        raise AuditGateError(f"the audit of {scale} seeds {','.join(map(str, audit.seeds))} failed ({failing}); "
                             f"predictions are not scored against a gold that failed its audit")
    return audit
