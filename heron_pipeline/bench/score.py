"""Step 5 — one tool's predictions executed in the sandbox on one state and compared with its gold.

The step reads exactly the predictions artifact and the gold artifact it is given (digests
checked), refuses to run unless the scale's audit of these states and questions passed, and stores
one content-hashed JSON-lines artifact of score records. Tools whose predictions are not complete,
and retrievers (which return ranked tables, no SQL), get a ``skipped`` result instead.

The step is three parts so that a run scoring many states can overlap what may overlap:
``execute_scores`` (the EX pass: execute and compare, safe to run for several states at once),
``time_scores`` (the VES pass: must run alone on the server) and ``store_scores``. ``score`` is the
three in order, for one state.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Callable

from heron_pipeline.artifacts import ArtifactLayout, ArtifactRef
from heron_pipeline.bench.audit import AuditResult, require_passed
from heron_pipeline.bench.gold import GoldResult
from heron_pipeline.bench.predict import PredictionsResult


@dataclass(frozen=True)
class ScoresResult:
    """One tool's scores on one state."""

    tool: str
    scale: str
    seed: int
    question_mode: str
    status: str  # scored | skipped
    reason: str | None
    scores: ArtifactRef | None
    predictions_digest: str | None
    gold_digest: str
    fingerprint: str
    ex1: float | None = None
    errors: int = 0
    records: int = 0
    #: the trap mutant answers the diagnosis read (``mutants.answers``), by identity; None when the
    #: gold had none recorded (no ``trap:<tag>`` cause could be named)
    mutant_answers: ArtifactRef | None = None
    #: sample 0's wrong questions on this state counted by cause (the registry's ``wrong_by_cause``)
    wrong_by_cause: dict[str, int] | None = None

    def to_json(self) -> dict[str, Any]:
        return {"tool": self.tool, "scale": self.scale, "seed": self.seed, "question_mode": self.question_mode,
                "status": self.status, "reason": self.reason, "scores": self.scores.to_json() if self.scores else None,
                "predictions_digest": self.predictions_digest, "gold_digest": self.gold_digest,
                "fingerprint": self.fingerprint, "ex1": self.ex1, "errors": self.errors, "records": self.records,
                "mutant_answers": self.mutant_answers.to_json() if self.mutant_answers else None,
                "wrong_by_cause": self.wrong_by_cause}

    @classmethod
    def from_json(cls, doc: dict[str, Any]) -> "ScoresResult":
        ref = ArtifactRef.from_json(doc["scores"]) if doc.get("scores") else None
        return cls(doc["tool"], doc["scale"], int(doc["seed"]), doc["question_mode"], doc["status"], doc.get("reason"),
                   ref, doc.get("predictions_digest"), doc["gold_digest"], doc["fingerprint"], doc.get("ex1"),
                   int(doc.get("errors", 0)), int(doc.get("records", 0)),
                   ArtifactRef.from_json(doc["mutant_answers"]) if doc.get("mutant_answers") else None,
                   doc.get("wrong_by_cause"))


@dataclass(frozen=True)
class ExecutedScores:
    """One tool's predictions executed and compared on one state, not yet timed or stored."""

    base: dict[str, Any]  # the ScoresResult fields every outcome shares
    records: list[Any]  # harness ScoreRecords, in (question, sample) order
    questions: list[Any]
    predictions: list[Any]  # the PredictionRecords scored
    run: Any  # the harness StateRun they were executed through (VES times on the same sandbox)
    question_mode: str
    mutant_answers: ArtifactRef | None  # the trap mutant answers the diagnosis read (the gold's), by identity
    gold: GoldResult | None = None  # the gold scored against: the VES pass checks timed gold rows against it


def execute_scores(server: Any, predictions: PredictionsResult, gold: GoldResult, questions: list[Any],
                   audit: AuditResult, *, progress: Callable[[int], None] | None = None
                   ) -> ExecutedScores | ScoresResult:
    """The EX pass: every prediction of ``predictions`` executed on ``gold``'s state and compared with
    its gold (several at a time, no timing); a ``skipped`` ScoresResult when there is nothing to run."""
    from heron_pipeline.harness.scorer import score_state
    from heron_pipeline.harness.state_run import state_run

    require_passed(audit, gold.state.scale)
    state = gold.state
    if state.seed not in audit.seeds or state.fingerprint != next(
            s["fingerprint"] for s in audit.states if int(s["seed"]) == state.seed):
        raise ValueError(f"{state.label} (fingerprint {state.fingerprint[:12]}…) is not a state the audit "
                         f"{audit.key[:12]}… judged; audit it first")
    if predictions.questions_digest != gold.questions_digest:
        raise ValueError(f"predictions of {predictions.tool} were made for other questions than the gold of "
                         f"{state.label}; make them again")
    base = dict(tool=predictions.tool, scale=state.scale, seed=state.seed, question_mode=predictions.question_mode,
                predictions_digest=predictions.predictions.digest if predictions.predictions else None,
                gold_digest=gold.gold.digest, fingerprint=state.fingerprint)
    if not predictions.complete:
        return ScoresResult(status="skipped", reason=f"predictions {predictions.status}: {predictions.reason}",
                            scores=None, **base)
    if predictions.kind == "retrieval":
        return ScoresResult(status="skipped", reason="a retriever returns ranked tables, no SQL: it is scored on "
                                                     "the retrieval board", scores=None, **base)
    loaded = list(predictions.load())
    run = state_run(server, state.scale, state.seed)
    records = score_state(predictions.tool, questions, loaded, gold.rows(questions), run, progress=progress,
                          mutant_answers=gold.mutant_rows())
    from heron_pipeline.harness.state_run import keep_timed_answers

    keep_timed_answers(run, records, loaded)  # the scored answers VES checks its timed runs against
    return ExecutedScores(base, records, questions, loaded, run, predictions.question_mode, gold.mutant_answers, gold)


def time_scores(executed: ExecutedScores) -> ExecutedScores:
    """The VES pass: the correct predictions' gold and prediction times, one query at a time. The
    caller guarantees nothing else of heron's runs on the server meanwhile. Every timed run's rows
    are checked (``harness.state_run``): gold against its stored rows, a prediction against its
    scored answer; a prediction that answers otherwise when timed is named ``timing-divergent`` in
    its record and earns no VES."""
    from heron_pipeline.harness.state_run import time_checked

    gold_rows = executed.gold.rows(executed.questions) if executed.gold is not None else None
    timed = time_checked(executed.records, executed.questions, executed.predictions, executed.run, gold_rows)
    return replace(executed, records=timed)


def store_scores(artifacts: Path, executed: ExecutedScores | ScoresResult) -> ScoresResult:
    """The score records as one content-hashed artifact, and the step's result (a skipped result as is)."""
    from heron_pipeline.harness.aggregate import state_figures
    from heron_pipeline.harness.store import store_scores_in
    from heron_pipeline.metrics import ex1_of_records

    if isinstance(executed, ScoresResult):
        return executed
    base, records = executed.base, executed.records
    path, digest = store_scores_in(ArtifactLayout.of(artifacts).scores(base["tool"], base["scale"], base["seed"],
                                                                       executed.question_mode), records)
    first = [r for r in records if r.sample == 0]
    causes = state_figures(path, base["tool"], ("wrong_by_cause",))["wrong_by_cause"]
    return ScoresResult(status="scored", reason=None, scores=ArtifactRef(path, digest),
                        ex1=ex1_of_records(records),
                        errors=sum(r.error_class is not None for r in first), records=len(records),
                        mutant_answers=executed.mutant_answers, wrong_by_cause=causes, **base)


def score(server: Any, artifacts: Path, predictions: PredictionsResult, gold: GoldResult, questions: list[Any],
          audit: AuditResult, *, time_ves: bool = False,
          progress: Callable[[int], None] | None = None) -> ScoresResult:
    """Execute every prediction of ``predictions`` on ``gold``'s state and score it (EX, then VES timing
    when asked, then the artifact)."""
    executed = execute_scores(server, predictions, gold, questions, audit, progress=progress)
    if time_ves and isinstance(executed, ExecutedScores):
        executed = time_scores(executed)
    return store_scores(artifacts, executed)
