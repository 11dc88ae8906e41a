"""Step 3 — the release gate of one scale: every audit rule over the gold of the states to be scored.

The per-state rules were judged by the gold step; this step judges the other rules of the audit
table (``questions.audit.RULES``: the static rules over the whole question set, the cross-seed
rules, ``trap-live``) with the same loop, and joins both into one outcome per rule: passed, failed
with its problems, or not judged with the reason (the cross-seed rules need two states; a rule with
scales is judged only there). Not judged is never a pass and never a block.

The verdict is recorded under a key made of the scale, the questions digest and the states'
fingerprints (``<artifacts>/audits/<scale>/<key>.json``), so the predict and score steps can refuse
to run unless a passing audit of exactly these states and questions exists, and ``heron bench``
can reuse a verdict — its own or ``heron audit``'s — instead of auditing again.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable, Iterator

from heron_pipeline.bench.gold import GoldResult
from heron_pipeline.artifacts import ArtifactLayout, ArtifactRef, write_document, write_text_atomic
from heron_pipeline.bench.identity import harness_version


class AuditGateError(RuntimeError):
    """Scoring was asked for states and questions whose audit did not pass (or was never run)."""


def audit_key(scale: str, questions_digest: str, fingerprints: dict[int, str]) -> str:
    """sha256 of what an audit verdict is about: scale, questions, and every state's fingerprint."""
    doc = {"scale": scale, "questions": questions_digest, "states": {str(s): f for s, f in sorted(fingerprints.items())}}
    return hashlib.sha256(json.dumps(doc, sort_keys=True).encode("utf-8")).hexdigest()


@dataclass(frozen=True)
class AuditResult:
    """The verdict of one scale's audit over a set of states: one outcome per rule of the table."""

    scale: str
    key: str
    passed: bool
    questions_digest: str
    #: [{seed, fingerprint, generator_version, gold: {path, digest}, mutant_answers: {path, digest}}]
    states: list[dict[str, Any]]
    #: rule name -> {"status": passed | failed | not judged, "reason", "problems": [...]}, table order
    outcomes: dict[str, dict[str, Any]] = field(default_factory=dict)
    varying_share: float | None = None
    report: str = ""
    trap_liveness: dict[str, Any] | None = None  # tag -> {"tagged", "live"} where trap-live was judged
    record: ArtifactRef | None = None

    @property
    def seeds(self) -> list[int]:
        return [int(s["seed"]) for s in self.states]

    @property
    def problems(self) -> list[dict[str, Any]]:
        return [p for o in self.outcomes.values() for p in o.get("problems", [])]

    @property
    def by_rule(self) -> dict[str, int]:
        """Problems per rule."""
        return {rule: len(o.get("problems", [])) for rule, o in self.outcomes.items()}

    @property
    def not_judged(self) -> dict[str, str]:
        """Rule name -> why it was not judged."""
        return {rule: o.get("reason") or "" for rule, o in self.outcomes.items() if o["status"] == "not judged"}

    @property
    def failed_rules(self) -> list[str]:
        return [rule for rule, o in self.outcomes.items() if o["status"] == "failed"]

    def summary_line(self, *, reused: bool = False) -> str:
        """One line: the verdict, whether it was recorded before this run, and what was not judged."""
        verdict = "passed" if self.passed else f"FAILED ({', '.join(self.failed_rules)}: {len(self.problems)} problems)"
        how = f" — reused the verdict recorded for these states and questions ({self.key[:12]}…)" if reused else ""
        unjudged = "; ".join(f"{rule} ({reason})" for rule, reason in self.not_judged.items())
        return (f"audit of {self.scale} seeds {','.join(map(str, self.seeds))}: {verdict}{how}"
                + (f"; not judged: {unjudged}" if unjudged else ""))

    def to_json(self) -> dict[str, Any]:
        return {"scale": self.scale, "key": self.key, "passed": self.passed, "questions_digest": self.questions_digest,
                "states": self.states, "outcomes": self.outcomes, "varying_share": self.varying_share,
                "report": self.report, "trap_liveness": self.trap_liveness, "harness_version": harness_version()}

    @classmethod
    def from_json(cls, doc: dict[str, Any], record: ArtifactRef | None = None) -> "AuditResult":
        return cls(doc["scale"], doc["key"], bool(doc["passed"]), doc["questions_digest"], list(doc["states"]),
                   {rule: dict(o) for rule, o in doc["outcomes"].items()}, doc.get("varying_share"),
                   doc.get("report", ""), doc.get("trap_liveness"), record)


def gold_states(golds: Iterable[GoldResult]) -> dict[str, dict[str, Any]]:
    """State label -> question id -> ``QuestionRun`` holding the stored gold (no alt, no probe, no
    timing), read from each gold artifact by identity: what the cross-seed and trap rules read."""
    from heron_pipeline.questions.gold import Execution, QuestionRun, read_gold_artifact

    states = {}
    for g in golds:
        g.gold.read_bytes()  # identity check before decoding
        states[g.state.label] = {qid: QuestionRun(gold=Execution(result, error, 0.0))
                                 for qid, (result, error) in read_gold_artifact(g.gold.path).items()}
    return states


@contextlib.contextmanager
def state_executor(server: Any, golds: Iterable[GoldResult]) -> Iterator[Any]:
    """A read-only mutant executor (``mutants.run.database_executor``) over one connection per
    state of ``golds``, closed on exit: what the trap proofs and ``heron audit --mutants`` run on."""
    from heron_pipeline.mutants.run import database_executor

    with contextlib.ExitStack() as stack:
        yield database_executor({g.state.label: stack.enter_context(server.connect(g.state.database)) for g in golds})


def prove_traps(server: Any, golds: list[GoldResult], questions: list[Any], states: dict) -> dict:
    """Every tag's proof (``mutants.liveness.prove_questions``) on the audited states, from the trap
    candidates the trap-mutant table was made from (``gold.trap_source``: made once per gold)."""
    from heron_pipeline.bench.gold import trap_source
    from heron_pipeline.mutants.liveness import prove_questions

    with state_executor(server, golds) as execute:
        return prove_questions(questions, states, execute, generate=trap_source())


def _state_outcomes(golds: list[GoldResult]) -> dict[str, Any]:
    """Each per-state rule's outcomes on every state, joined (``evidence.combined_outcome``)."""
    from heron_pipeline.questions import audit as rules
    from heron_pipeline.questions.evidence import Outcome, combined_outcome

    joined = {}
    for rule in rules.rules_in(rules.Scope.STATE):
        missing = [g.state.label for g in golds if rule.name not in g.outcomes]
        if missing:
            raise ValueError(f"gold of {', '.join(missing)} has no outcome for the {rule.name} rule (computed by "
                             f"another heron version); recompute the gold results")
        joined[rule.name] = combined_outcome(rule.name, [Outcome.from_json(rule.name, g.outcomes[rule.name])
                                                         for g in golds])
    return joined


def audit_states(artifacts: Path, scale: str, golds: Iterable[GoldResult], questions: list[Any],
                 questions_digest: str, *, server: Any = None, liveness: bool = False) -> AuditResult:
    """Judge every rule; record the verdict under its key; the verdict.

    ``trap-live`` needs the states themselves (each tag's mutant must change the answer somewhere):
    with ``server`` given, its proofs are made where the rule is judged (small and up) — and, with
    ``liveness``, everywhere, so the report shows per-tag liveness where it is not judged."""
    from heron_pipeline.questions import audit as rules
    from heron_pipeline.questions.evidence import Evidence

    golds = sorted(golds, key=lambda g: g.state.seed)
    if not golds:
        raise ValueError(f"audit of {scale}: no states given")
    if any(g.state.scale != scale for g in golds):
        raise ValueError(f"audit of {scale}: a state of another scale was given")
    stale = [g.state.label for g in golds if g.questions_digest != questions_digest]
    if stale:
        raise ValueError(f"audit of {scale}: gold of {', '.join(stale)} was computed for other questions; "
                         f"recompute the gold results")
    states = gold_states(golds)
    prove = (lambda: prove_traps(server, golds, questions, states)) if server is not None else None
    evidence = Evidence(scale, states, prove)
    judged = {**_state_outcomes(golds),
              **rules.judge(questions, evidence, [r for r in rules.RULES if r.scope is not rules.Scope.STATE])}
    outcomes = {name: judged[name] for name in rules.RULE_NAMES}
    report = rules.audit_report(questions, evidence, outcomes, {g.state.label: g.latency for g in golds},
                                liveness=liveness)
    fingerprints = {g.state.seed: g.state.fingerprint for g in golds}
    key = audit_key(scale, questions_digest, fingerprints)
    result = AuditResult(
        scale=scale, key=key, passed=report.ok, questions_digest=questions_digest,
        states=[{"seed": g.state.seed, "fingerprint": g.state.fingerprint,
                 "generator_version": g.state.generator_version, "gold": g.gold.to_json(artifacts),
                 **({"mutant_answers": g.mutant_answers.to_json(artifacts)} if g.mutant_answers else {})}
                for g in golds],
        outcomes={name: o.to_json() for name, o in outcomes.items()},
        varying_share=round(report.varying_share, 4) if report.judged else None,
        report=rules.format_report(report, questions),
        trap_liveness=report.liveness if report.traps_judged else None)
    layout = ArtifactLayout.of(artifacts)
    record = write_document(layout.audits(scale), result.to_json())
    write_text_atomic(layout.audit_pointer(scale, key), json.dumps(record.to_json(artifacts), sort_keys=True))
    return AuditResult.from_json(result.to_json(), record)


def recorded_audit(artifacts: Path, scale: str, questions_digest: str, fingerprints: dict[int, str]) -> AuditResult | None:
    """The verdict recorded for exactly these states and questions, or None."""
    pointer = ArtifactLayout.of(artifacts).audit_pointer(scale, audit_key(scale, questions_digest, fingerprints))
    try:
        record = ArtifactRef.from_json(json.loads(pointer.read_text(encoding="utf-8")), artifacts)
        return AuditResult.from_json(record.read_json(), record)
    except (OSError, ValueError, KeyError):
        return None


def require_passed(audit: AuditResult | None, scale: str) -> AuditResult:
    """The audit itself when it passed; AuditGateError naming the fix otherwise."""
    if audit is None:
        raise AuditGateError(f"no audit of these {scale} states and questions is recorded; "
                             f"run `heron audit --scale {scale}` (or `heron bench`, which audits first)")
    if not audit.passed:
        failing = ", ".join(f"{rule} {audit.by_rule[rule]}" for rule in audit.failed_rules)
        raise AuditGateError(f"the audit of {scale} seeds {','.join(map(str, audit.seeds))} failed ({failing}); "
                             f"predictions are not scored against a gold that failed its audit")
    return audit
