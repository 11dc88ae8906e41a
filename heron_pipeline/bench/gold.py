"""Step 2 — a state's gold answers, and the per-state audit rules judged on the same runs.

Every question's gold runs twice (determinism), its alt once and, for ordered golds, the tie probe:
the per-state rules need all of it and the extra queries cost little next to building the state.
The gold answers are stored as one content-hashed artifact (rows only: two runs of one state give
the same digest); the outcome of every per-state rule of the audit table (``questions.audit``,
scope ``state``) and the latencies it measured are returned beside it — the Dagster asset checks
of ``gold_results`` and the audit step read the same outcomes.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from heron_pipeline.artifacts.ref import ArtifactRef
from heron_pipeline.bench.states import StateResult


@dataclass(frozen=True)
class GoldResult:
    """One state's gold artifact, what the per-state rules found on it, and its gold latencies."""

    state: StateResult
    gold: ArtifactRef
    questions_digest: str
    #: rule name -> Outcome as JSON (``questions.evidence.Outcome.to_json``), the per-state rules only
    outcomes: dict[str, dict[str, Any]] = field(default_factory=dict)
    latency: dict[str, float] = field(default_factory=dict)  # median_ms, max_ms, total_ms
    latencies_ms: dict[str, float] = field(default_factory=dict)  # question id -> gold latency

    @property
    def passed(self) -> bool:
        """No per-state rule failed here (a rule not judged is not a failure)."""
        return not any(o["status"] == "failed" for o in self.outcomes.values())

    def to_json(self) -> dict[str, Any]:
        return {"state": self.state.to_json(), "gold": self.gold.to_json(), "questions_digest": self.questions_digest,
                "outcomes": self.outcomes, "latency": self.latency, "latencies_ms": self.latencies_ms}

    @classmethod
    def from_json(cls, doc: dict[str, Any]) -> "GoldResult":
        return cls(StateResult.from_json(doc["state"]), ArtifactRef.from_json(doc["gold"]), doc["questions_digest"],
                   {k: dict(v) for k, v in doc.get("outcomes", {}).items()}, dict(doc.get("latency", {})),
                   dict(doc.get("latencies_ms", {})))

    def rows(self, questions: list[Any]) -> dict[str, list[tuple]]:
        """question id -> gold rows, read from exactly this artifact (digest checked)."""
        from heron_pipeline.questions.gold import gold_rows

        self.gold.read_bytes()  # identity check before decoding
        return gold_rows(self.gold.path, questions)


def compute_gold(server: Any, artifacts: Path, state: StateResult, questions: list[Any],
                 questions_digest: str) -> GoldResult:
    """Run every question on ``state``, store the gold artifact, judge the per-state rules."""
    from heron_pipeline.questions import audit as rules
    from heron_pipeline.questions.evidence import Evidence
    from heron_pipeline.questions.gold import gold_latencies_ms, latency_summary, run_state, write_gold_artifact

    with server.connect(state.database) as conn:
        runs = run_state(conn, questions)
    path, digest = write_gold_artifact(artifacts, state.scale, state.seed, runs)
    outcomes = rules.judge(questions, Evidence(state.scale, {state.label: runs}), rules.rules_in(rules.Scope.STATE))
    return GoldResult(state, ArtifactRef(path, digest), questions_digest,
                      {name: o.to_json() for name, o in outcomes.items()}, latency_summary(runs), gold_latencies_ms(runs))
