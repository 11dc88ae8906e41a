"""Step 4 — one tool's predictions for one scale and question mode, made once against the primary state.

Predictions depend on the question, the schema and (for tools that look at data) the primary state
only, so they are made once and the same SQL is executed on every state. They are stored as one
content-hashed JSON-lines artifact under ``predictions/<tool>/<scale>/<question mode>/`` — the mode
is part of their identity, so the two modes never overwrite each other. The adapter's conditions
(model, temperature, prompt variant…) are recorded here, when the predictions are made, and the
standings take them from this result, never from the environment of a later step.

A tool that cannot run here (an LLM tool with no endpoint configured) gives a ``skipped`` result,
and one whose provider failed too often or whose budget ran out an ``incomplete`` one: neither gets a
standings row, neither fails the run that made it.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

from heron_pipeline.artifacts import ArtifactLayout, ArtifactRef
from heron_pipeline.bench.audit import AuditResult, require_passed
from heron_pipeline.bench.options import BenchOptions, canonical_tool
from heron_pipeline.bench.states import StateResult


@dataclass(frozen=True)
class PredictionsResult:
    """What the predict step made for one tool."""

    tool: str
    kind: str  # reference | sql | retrieval
    status: str  # complete | incomplete | skipped
    reason: str | None
    scale: str
    question_mode: str
    n: int
    predictions: ArtifactRef | None
    conditions: dict[str, Any]
    summary: dict[str, Any]
    questions_digest: str
    primary: dict[str, Any]  # {seed, fingerprint}
    audit_key: str
    records: int = 0

    @property
    def complete(self) -> bool:
        return self.status == "complete" and self.predictions is not None

    def to_json(self) -> dict[str, Any]:
        return {"tool": self.tool, "kind": self.kind, "status": self.status, "reason": self.reason, "scale": self.scale,
                "question_mode": self.question_mode, "n": self.n,
                "predictions": self.predictions.to_json() if self.predictions else None,
                "conditions": self.conditions, "summary": self.summary, "questions_digest": self.questions_digest,
                "primary": self.primary, "audit_key": self.audit_key, "records": self.records}

    @classmethod
    def from_json(cls, doc: dict[str, Any]) -> "PredictionsResult":
        ref = ArtifactRef.from_json(doc["predictions"]) if doc.get("predictions") else None
        return cls(doc["tool"], doc["kind"], doc["status"], doc.get("reason"), doc["scale"], doc["question_mode"],
                   int(doc["n"]), ref, dict(doc.get("conditions") or {}), dict(doc.get("summary") or {}),
                   doc["questions_digest"], dict(doc["primary"]), doc["audit_key"], int(doc.get("records", 0)))

    def load(self) -> list[Any]:
        """The prediction records of exactly this artifact (digest checked)."""
        from heron_pipeline.predictions.make import load_predictions

        if self.predictions is None:
            return []
        self.predictions.read_bytes()
        return load_predictions(self.predictions.path)


def predict(server: Any, artifacts: Path, options: BenchOptions, tool: str, questions: list[Any],
            questions_digest: str, audit: AuditResult, primary: StateResult, *, llm: Any = None,
            cache_dir: Path | None = None, catalog: Any = None,
            progress: Callable[[dict], None] | None = None) -> PredictionsResult:
    """Make (or re-make from the response cache) ``tool``'s predictions; refused unless ``audit`` passed."""
    from heron_pipeline.adapters import PredictionContext
    from heron_pipeline.artifacts import write_jsonl_artifact
    from heron_pipeline.predictions.make import PredictOptions, predict_tool

    layout = ArtifactLayout.of(artifacts)
    require_passed(audit, options.scale)
    if primary.seed not in audit.seeds:
        raise ValueError(f"the primary state {primary.label} is not among the audited seeds "
                         f"{','.join(map(str, audit.seeds))}; add it to --seeds")
    if catalog is None:
        from heron_pipeline.catalog import load_catalog

        catalog = load_catalog()
    context = PredictionContext(scale=options.scale, n=options.n, catalog=catalog,
                                primary_dsn=server.benchmark_dsn(options.scale, primary.seed),
                                reader_password=server.settings.reader_password)
    made = predict_tool(tool, questions, context, PredictOptions(
        n=options.n, question_mode=options.question_mode, retry_failed=options.retry_failed, offline=options.offline,
        cli_command=options.cli_command, cli_name=options.cli_name, cli_cwd=options.cli_cwd, llm=llm,
        cache_dir=cache_dir or layout.llm_cache(), schema=options.schema), progress=progress)
    ref = None
    if made.status != "skipped":
        path, digest = write_jsonl_artifact(layout.predictions(made.tool, options.scale, options.question_mode),
                                            (r.to_json() for r in made.records))
        ref = ArtifactRef(path, digest)
    return PredictionsResult(
        tool=made.tool or canonical_tool(tool), kind=made.kind, status=made.status, reason=made.reason,
        scale=options.scale, question_mode=options.question_mode, n=options.n, predictions=ref,
        conditions={**made.conditions, "question_mode": options.question_mode}, summary=made.summary,
        questions_digest=questions_digest, primary={"seed": primary.seed, "fingerprint": primary.fingerprint},
        audit_key=audit.key, records=len(made.records))
