"""Step 2 — a state's gold answers, and the per-state audit rules judged on the same runs.

Every question's gold runs twice (determinism), its alt once and, for ordered golds, the tie probe:
the per-state rules need all of it and the extra queries cost little next to building the state.
The gold answers are stored as one content-hashed artifact; the problems each per-state rule found
are returned beside it, grouped by the check that reports them (the Dagster asset checks of
``gold_results`` and the audit step read the same grouping).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from heron_pipeline.artifacts.ref import ArtifactRef
from heron_pipeline.bench.states import StateResult


def _check_functions() -> dict[str, tuple]:
    """Check name -> the audit rule functions it runs (gold_latency is judged on the whole state)."""
    from heron_pipeline.questions import audit as rules

    return {"gold_executes": (rules.check_executes,), "gold_non_empty": (rules.check_non_empty,),
            "alt_agrees": (rules.check_alt_agrees,), "gold_deterministic": (rules.check_repeatable, rules.check_ties)}


#: (check name, description) of every per-state check, in report order; gold_latency applies to
#: the scales the latency budget covers.
STATE_CHECK_NAMES = (
    ("gold_executes", "every gold and alt query runs without error on this state"),
    ("gold_non_empty", "non-empty, except empty probes, which are empty"),
    ("alt_agrees", "the alt SQL returns the gold's answer"),
    ("gold_deterministic", "two runs agree; ties only on output sort keys; no LIMIT cuts a tie"),
    ("gold_latency", "median gold latency <= 100 ms, every gold <= 2 s (tiny and small)"),
)


@dataclass(frozen=True)
class GoldResult:
    """One state's gold artifact and what the per-state rules found on it."""

    state: StateResult
    gold: ArtifactRef
    questions_digest: str
    problems: dict[str, list[dict[str, Any]]] = field(default_factory=dict)  # check name -> problems
    latency: dict[str, float] = field(default_factory=dict)

    @property
    def passed(self) -> bool:
        return not any(self.problems.values())

    def to_json(self) -> dict[str, Any]:
        return {"state": self.state.to_json(), "gold": self.gold.to_json(), "questions_digest": self.questions_digest,
                "problems": self.problems, "latency": self.latency}

    @classmethod
    def from_json(cls, doc: dict[str, Any]) -> "GoldResult":
        return cls(StateResult.from_json(doc["state"]), ArtifactRef.from_json(doc["gold"]), doc["questions_digest"],
                   {k: list(v) for k, v in doc.get("problems", {}).items()}, dict(doc.get("latency", {})))

    def rows(self, questions: list[Any]) -> dict[str, list[tuple]]:
        """question id -> gold rows, read from exactly this artifact (digest checked)."""
        from heron_pipeline.questions.gold import gold_rows

        self.gold.read_bytes()  # identity check before decoding
        return gold_rows(self.gold.path, questions)


def _problem_json(problem: Any) -> dict[str, Any]:
    return {"rule": problem.rule, "question_id": problem.question_id, "message": problem.message}


def compute_gold(server: Any, artifacts: Path, state: StateResult, questions: list[Any],
                 questions_digest: str) -> GoldResult:
    """Run every question on ``state``, store the gold artifact, judge the per-state rules."""
    from heron_pipeline.questions import audit as rules
    from heron_pipeline.questions.gold import latency_summary, run_state, write_gold_artifact

    with server.connect(state.database) as conn:
        runs = run_state(conn, questions)
    path, digest = write_gold_artifact(artifacts, state.scale, state.seed, runs)
    problems: dict[str, list[dict[str, Any]]] = {}
    for name, functions in _check_functions().items():
        problems[name] = [_problem_json(p) for p in rules.check_state(questions, runs, state.label, checks=functions)]
    latency = rules.check_latency(runs, state.label) if state.scale in rules.LATENCY_SCALES else []
    problems["gold_latency"] = [_problem_json(p) for p in latency]
    return GoldResult(state, ArtifactRef(path, digest), questions_digest, problems, latency_summary(runs))
