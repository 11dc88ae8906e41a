"""Step 2 — a state's gold answers, and the per-state audit rules judged on the same runs.

Every question's gold runs twice (determinism), its alt once and, for ordered golds, the tie probe:
the per-state rules need all of it and the extra queries cost little next to building the state.
The gold answers are stored as one content-hashed artifact (rows only: two runs of one state give
the same digest); the outcome of every per-state rule of the audit table (``questions.audit``,
scope ``state``) and the latencies it measured are returned beside it — the Dagster asset checks
of ``gold_results`` and the audit step read the same outcomes.

The same step stores the state's trap mutant answers (``mutants.answers``): computed here, once per
state, so that scoring any number of tools reads them (``trap:<tag>`` causes) and runs no mutant.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

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
    #: the state's trap mutant answers (``mutants.answers``); None for a gold recorded before them
    mutant_answers: ArtifactRef | None = None

    @property
    def passed(self) -> bool:
        """No per-state rule failed here (a rule not judged is not a failure)."""
        return not any(o["status"] == "failed" for o in self.outcomes.values())

    def to_json(self) -> dict[str, Any]:
        return {"state": self.state.to_json(), "gold": self.gold.to_json(), "questions_digest": self.questions_digest,
                "outcomes": self.outcomes, "latency": self.latency, "latencies_ms": self.latencies_ms,
                "mutant_answers": self.mutant_answers.to_json() if self.mutant_answers else None}

    @classmethod
    def from_json(cls, doc: dict[str, Any]) -> "GoldResult":
        return cls(StateResult.from_json(doc["state"]), ArtifactRef.from_json(doc["gold"]), doc["questions_digest"],
                   {k: dict(v) for k, v in doc.get("outcomes", {}).items()}, dict(doc.get("latency", {})),
                   dict(doc.get("latencies_ms", {})),
                   ArtifactRef.from_json(doc["mutant_answers"]) if doc.get("mutant_answers") else None)

    def rows(self, questions: list[Any]) -> dict[str, list[tuple]]:
        """question id -> gold rows, read from exactly this artifact (digest checked)."""
        from heron_pipeline.questions.gold import gold_rows

        self.gold.read_bytes()  # identity check before decoding
        return gold_rows(self.gold.path, questions)

    def mutant_rows(self) -> dict[str, tuple[Any, ...]]:
        """question id -> its stored trap mutant answers (``mutants.answers.MutantAnswer``), read from
        exactly this artifact (digest checked); empty when the gold has none recorded."""
        from heron_pipeline.mutants.answers import parse_mutant_answers

        if self.mutant_answers is None:
            return {}
        return parse_mutant_answers(self.mutant_answers.read_json())


def _trap_inputs() -> tuple[str, Path, Callable[[str], list[Any]]]:
    """(source key, cache folder, maker) of ``mutants.trap_cache`` for the current DDL, profiles and
    code: the trap candidates of a gold (``mutants.answers.trap_candidates``) over the prepared catalog."""
    from heron_pipeline.input_cache import CACHE_DIR
    from heron_pipeline.mutants.answers import trap_candidates
    from heron_pipeline.mutants.trap_cache import source_key
    from heron_pipeline.seeding.prepared import cache_key, load_prepared

    return source_key(cache_key()), CACHE_DIR, lambda sql: trap_candidates(sql, load_prepared().catalog)


def trap_source() -> Callable[[str], list[Any]]:
    """gold SQL -> its trap candidates, each gold's made once and kept (``mutants.trap_cache``: in memory
    and on disk, keyed by the gold, the DDL, the profiles and the code), so a redrawn instance set or a
    new night's draw makes only the questions whose gold is new. The trap-liveness proofs read it."""
    from heron_pipeline.mutants.trap_cache import cached_candidates

    inputs = _trap_inputs()
    return lambda gold_sql: cached_candidates(gold_sql, *inputs)


def trap_table(questions: list[Any]) -> dict[str, list[Any]]:
    """question id -> its trap mutants (``mutants.answers.trap_mutant_table``) from the same kept
    candidates as ``trap_source``. The same for every state, so a run over several states makes it once."""
    from heron_pipeline.mutants.trap_cache import cached_table

    return cached_table(questions, *_trap_inputs())


def compute_mutant_answers(server: Any, artifacts: Path, state: StateResult, questions: list[Any],
                           gold_rows: dict[str, list[tuple]],
                           table: dict[str, list[Any]] | None = None, reuse: dict | None = None) -> ArtifactRef:
    """Run every question's trap mutants (``table``, made by ``trap_table`` when not given) on
    ``state`` (read only, each under a statement timeout and ``mutants.answers.MAX_ROWS``) and store
    their answers, content-addressed. ``reuse``: ``mutants.answers.mutant_answers_document``'s."""
    from heron_pipeline.artifacts import ArtifactLayout, write_content_addressed
    from heron_pipeline.mutants.answers import MAX_ROWS, mutant_answers_bytes, mutant_answers_document
    from heron_pipeline.mutants.run import run_trusted

    table = table if table is not None else trap_table(questions)
    with server.connect(state.database) as conn:
        document = mutant_answers_document(questions, gold_rows,
                                           lambda sql: run_trusted(conn, sql, max_rows=MAX_ROWS), table, reuse)
    path, digest = write_content_addressed(ArtifactLayout.of(artifacts).mutant_answers(state.scale, state.seed),
                                           mutant_answers_bytes(document), suffix=".json")
    return ArtifactRef(path, digest)


def with_mutant_answers(server: Any, artifacts: Path, gold: GoldResult, questions: list[Any],
                        table: dict[str, list[Any]] | None = None) -> GoldResult:
    """``gold`` itself when its mutant answers are recorded, else ``gold`` with them computed now
    (a gold recorded before they existed, e.g. rebuilt from an older audit verdict)."""
    import dataclasses

    if gold.mutant_answers is not None:
        return gold
    rows = _ok_rows(gold)
    return dataclasses.replace(gold, mutant_answers=compute_mutant_answers(server, artifacts, gold.state, questions,
                                                                           rows, table))


def _ok_rows(gold: GoldResult) -> dict[str, list[tuple]]:
    """question id -> gold rows of every question whose gold ran (digest checked)."""
    from heron_pipeline.questions.gold import read_gold_artifact

    gold.gold.read_bytes()
    return {qid: list(result.rows) for qid, (result, _error) in read_gold_artifact(gold.gold.path).items()
            if result is not None}


@dataclass
class StateMemo:
    """What one audit loop already ran on one state, per gold SQL: the questions' runs and their trap
    mutants' answers. A drawn instance set redrawn after a failed audit differs in a few questions; with
    the memo, the next round runs only theirs (a tiny hidden night: 13 rounds, all 100 questions
    each, before). Kept for one loop (``instances.state_audit``), never on disk: the runs hold
    latencies of this machine and moment."""

    runs: dict = field(default_factory=dict)
    answers: dict = field(default_factory=dict)


def compute_gold(server: Any, artifacts: Path, state: StateResult, questions: list[Any],
                 questions_digest: str, table: dict[str, list[Any]] | None = None,
                 memo: StateMemo | None = None) -> GoldResult:
    """Run every question on ``state``, store the gold artifact, judge the per-state rules, and store
    the state's trap mutant answers (``compute_mutant_answers``; ``table`` as there). With ``memo``, a
    question whose gold SQL this state already ran is not run again."""
    from heron_pipeline.questions import audit as rules
    from heron_pipeline.questions.evidence import Evidence
    from heron_pipeline.questions.gold import gold_latencies_ms, latency_summary, run_state, write_gold_artifact

    with server.connect(state.database) as conn:
        runs = run_state(conn, questions, reuse=memo.runs if memo is not None else None)
    path, digest = write_gold_artifact(artifacts, state.scale, state.seed, runs)
    outcomes = rules.judge(questions, Evidence(state.scale, {state.label: runs}), rules.rules_in(rules.Scope.STATE))
    rows = {qid: list(run.gold.result.rows) for qid, run in runs.items() if run.gold.ok}
    answers = compute_mutant_answers(server, artifacts, state, questions, rows, table,
                                     reuse=memo.answers if memo is not None else None)
    return GoldResult(state, ArtifactRef(path, digest), questions_digest,
                      {name: o.to_json() for name, o in outcomes.items()}, latency_summary(runs), gold_latencies_ms(runs),
                      answers)
