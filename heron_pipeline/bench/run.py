"""The bench run: every step in order, for one scale, question mode and set of seeds.

``heron bench`` is this loop and nothing else; the Dagster assets call the same steps one at a
time. The run writes a manifest naming every artifact it read and wrote (path and sha256), the
options it ran with and the harness version, as ``<artifacts>/runs/<sha256>.json``.

Scoring is two passes over every tool × state pair: the EX pass executes and compares
``options.score_workers`` pairs at once (each on its own sandbox connections; the records come out in
the same order and with the same bytes as one at a time, timing fields aside), and with ``--ves`` the
VES pass then times the correct predictions one query at a time, after every EX execution has
finished, so no other heron query is in flight while a query is timed. Gold stays one state at a
time: the audit's latency rule times gold, and concurrent golds would time each other.
"""

from __future__ import annotations

import datetime as dt
import time
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterator

from heron_pipeline.artifacts import ArtifactLayout, ArtifactRef, write_document
from heron_pipeline.bench.audit import AuditResult, recorded_audit
from heron_pipeline.bench.gold import GoldResult, trap_table, with_mutant_answers
from heron_pipeline.bench.identity import harness_version
from heron_pipeline.bench.options import BenchOptions, default_tools, manifest_options
from heron_pipeline.bench.predict import PredictionsResult, predict
from heron_pipeline.bench.score import ExecutedScores, ScoresResult, execute_scores, store_scores, time_scores
from heron_pipeline.bench.standings import StandingsResult, compute_scale_standings, write_local_leaderboard
from heron_pipeline.bench.states import StateResult, build_state, existing_state

Say = Callable[[str], None]


@dataclass
class BenchResult:
    """What a run produced; ``manifest`` names every artifact."""

    options: BenchOptions
    states: dict[int, StateResult] = field(default_factory=dict)
    audit: AuditResult | None = None
    predictions: list[PredictionsResult] = field(default_factory=list)
    scores: list[ScoresResult] = field(default_factory=list)
    standings: StandingsResult | None = None
    leaderboard: dict[str, Path] = field(default_factory=dict)  # results/leaderboard.*: the latest publish
    leaderboard_written: dict[str, ArtifactRef] = field(default_factory=dict)  # this run's bytes, by digest
    manifest: ArtifactRef | None = None
    instances: Any = None  # the InstanceSet the run scored (the public set under instance seed 0)
    #: wall seconds of each phase (states, gold_audit, predict, ex, ves, standings), for benchmarks/
    phase_seconds: dict[str, float] = field(default_factory=dict)

    @contextmanager
    def phase(self, name: str) -> Iterator[None]:
        started = time.perf_counter()
        try:
            yield
        finally:
            self.phase_seconds[name] = self.phase_seconds.get(name, 0.0) + time.perf_counter() - started

    @property
    def incomplete(self) -> list[PredictionsResult]:
        return [p for p in self.predictions if p.status == "incomplete"]

    @property
    def skipped(self) -> list[PredictionsResult]:
        return [p for p in self.predictions if p.status == "skipped"]


def golds_of(audit: AuditResult, states: dict[int, StateResult], root: Path | None = None) -> dict[int, GoldResult]:
    """The gold results a recorded audit judged, rebuilt from its record (no queries run); with
    ``root``, their paths read under that artifact root (``ArtifactRef.from_json``)."""
    return {int(s["seed"]): GoldResult(states[int(s["seed"])], ArtifactRef.from_json(s["gold"], root),
                                       audit.questions_digest,
                                       mutant_answers=ArtifactRef.from_json(s["mutant_answers"], root)
                                       if s.get("mutant_answers") else None)
            for s in audit.states}


def unreadable_artifacts(golds: dict[int, GoldResult]) -> list[str]:
    """Why each gold or mutant-answers artifact of ``golds`` cannot be read as recorded (missing, or
    bytes that do not hash to its digest): one reason per artifact, empty when all read."""
    from heron_pipeline.artifacts import ArtifactMismatch

    found = []
    for _seed, gold in sorted(golds.items()):
        for ref in (gold.gold, gold.mutant_answers):
            try:
                if ref is not None:
                    ref.read_bytes()
            except (ArtifactMismatch, OSError) as err:
                found.append(str(err).split(";")[0])
    return found


def audited_golds(server: Any, artifacts: Path, scale: str, states: dict[int, StateResult], questions: list[Any],
                  questions_digest: str, *, say: Say = lambda _m: None,
                  memos: dict[int, Any] | None = None) -> tuple[AuditResult, dict[int, GoldResult]]:
    """A passing audit recorded for exactly these states and questions (by ``heron audit`` or an
    earlier run), or a new audit (gold computed, every rule of the audit table judged).

    A recorded audit whose gold (or mutant answers) is missing or corrupt is not a dead end: the
    step says so in one line and computes the gold again (the same rows give the same content-
    addressed file, so the recorded verdict usually stands), then audits what it made. ``memos``
    (``instances.state_audit``'s) carries what earlier candidate sets of one redraw loop ran."""
    fingerprints = {seed: s.fingerprint for seed, s in states.items()}
    found = recorded_audit(artifacts, scale, questions_digest, fingerprints)
    if found is not None and found.passed:
        golds = golds_of(found, states, artifacts)
        unreadable = unreadable_artifacts(golds)
        if unreadable:
            say(f"the recorded audit {found.key[:12]}… names {len(unreadable)} artifact(s) that cannot be read "
                f"({unreadable[0]}{', …' if len(unreadable) > 1 else ''}): computing the gold again")
        else:
            say(found.summary_line(reused=True))
            if any(g.mutant_answers is None for g in golds.values()):
                # a verdict recorded before trap mutant answers existed: compute them now, once per state
                table = trap_table(questions)
                golds = {seed: with_mutant_answers(server, artifacts, g, questions, table) for seed, g in golds.items()}
            return found, golds
    from heron_pipeline.bench.instances import state_audit

    def gold_said(state: StateResult, gold: GoldResult, _seconds: float, n: int) -> None:
        say(f"gold/{state.label}: {n} questions → {gold.gold.path.name[:16]}…")

    audit, made = state_audit(server, artifacts, scale, states, on_gold=gold_said,
                              memos=memos)(questions, questions_digest)
    say(audit.summary_line())
    return audit, {gold.state.seed: gold for gold in made}


def redraw_audit(server: Any, artifacts: Path, scale: str, states: dict[int, StateResult], *,
                 say: Say = lambda _m: None) -> Callable[[list[Any], str], tuple[AuditResult, dict[int, GoldResult]]]:
    """The ``AuditOnce`` of one redraw loop (``instances.audited_instances``) over ``states``: each
    candidate set's ``audited_golds``, with one memo for the whole loop, so a round runs only the
    questions it redrew."""
    memos: dict[int, Any] = {}
    return lambda questions, digest: audited_golds(server, artifacts, scale, states, questions, digest, say=say,
                                                   memos=memos)


def score_pairs(server: Any, artifacts: Path, pairs: list[tuple[PredictionsResult, GoldResult]], questions: list[Any],
                audit: AuditResult, *, time_ves: bool, workers: int,
                phase: Callable[[str], Any] | None = None) -> list[ScoresResult]:
    """Every (predictions, gold) pair scored, results in ``pairs`` order: the EX pass with ``workers``
    pairs at once, then (``time_ves``) the VES pass one pair and one query at a time, then the
    artifacts. The VES pass starts only when the EX pool has been shut down (every execution
    finished), so nothing else of this run is on the server while a query is timed."""
    @contextmanager
    def untimed(_name: str) -> Iterator[None]:
        yield

    phase = phase or untimed

    def execute(pair: tuple[PredictionsResult, GoldResult]) -> ExecutedScores | ScoresResult:
        return execute_scores(server, pair[0], pair[1], questions, audit)

    with phase("ex"):
        if workers <= 1 or len(pairs) <= 1:
            executed = [execute(pair) for pair in pairs]
        else:
            with ThreadPoolExecutor(max_workers=workers, thread_name_prefix="heron-ex") as pool:
                executed = list(pool.map(execute, pairs))
    if time_ves:
        with phase("ves"):
            executed = [time_scores(e) if isinstance(e, ExecutedScores) else e for e in executed]
    return [store_scores(artifacts, e) for e in executed]


def run_bench(server: Any, artifacts: Path, options: BenchOptions, *, llm: Any = None, cache_dir: Path | None = None,
              say: Say = lambda _m: None, progress: Callable[[dict], None] | None = None) -> BenchResult:
    """Build → gold → audit → predict → score (EX, then VES) → standings → local leaderboard, plus the
    manifest.

    Raises AuditGateError when the audit fails (nothing is predicted or scored then)."""
    from heron_pipeline.bench.audit import require_passed
    from heron_pipeline.bench.instances import audited_instances

    started = dt.datetime.now(dt.timezone.utc)
    result = BenchResult(options)
    with result.phase("states"):
        for seed in options.states:
            result.states[seed] = (build_state(server, artifacts, options.scale, seed, say=say)
                                   if options.seed_missing else existing_state(server, artifacts, options.scale, seed))
    with result.phase("gold_audit"):
        drawn, audit, golds = audited_instances(
            options.questions_dir, options.instance_seed,
            redraw_audit(server, artifacts, options.scale, result.states, say=say), say=say)
    questions, digest = list(drawn.questions), drawn.digest
    result.instances = drawn
    result.audit = audit
    try:
        require_passed(audit, options.scale)
        tools = options.tools or default_tools()
        pairs = []
        with result.phase("predict"):
            for tool in dict.fromkeys(tools):
                made = predict(server, artifacts, options, tool, questions, digest, audit,
                               result.states[options.primary_seed], llm=llm, cache_dir=cache_dir, progress=progress)
                result.predictions.append(made)
                if made.status != "complete":
                    say(f"predictions/{made.tool}/{options.scale}: {made.status} — {made.reason}")
                    continue
                say(f"predictions/{made.tool}/{options.scale}/{options.question_mode}: {made.records} records → "
                    f"{made.predictions.path.name[:16]}…")
                pairs.extend((made, golds[seed]) for seed in options.seeds)
        result.scores = score_pairs(server, artifacts, pairs, questions, audit, time_ves=options.time_ves,
                                    workers=options.score_workers, phase=result.phase)
        for scored in result.scores:
            if scored.status == "scored":
                say(f"scores/{scored.tool}/{options.scale}_{scored.seed}: EX@1 {scored.ex1:.1f} "
                    f"({scored.errors} errors) → {scored.scores.path.name[:16]}…")
        with result.phase("standings"):
            result.standings = compute_scale_standings(artifacts, audit, result.predictions, result.scores,
                                                       options.question_mode, seeds=options.seeds, questions=questions,
                                                       instance_seed=options.instance_seed)
            board = write_local_leaderboard(artifacts, [result.standings])
        result.leaderboard, result.leaderboard_written = board.files, board.written
        say(f"standings/{options.scale}/{options.question_mode}: {result.standings.standings.path}")
    finally:
        result.manifest = write_manifest(artifacts, result, started, result.instances.digest if result.instances else None)
    return result


def write_manifest(artifacts: Path, result: BenchResult, started: dt.datetime, questions_digest: str | None) -> ArtifactRef:
    """``<artifacts>/runs/<sha256>.json``: options, harness version and every artifact read or written."""
    options = manifest_options(result.options)

    document = {
        "kind": "heron-run",
        "started_at": started.isoformat(timespec="seconds"),
        "finished_at": dt.datetime.now(dt.timezone.utc).isoformat(timespec="seconds"),
        "harness_version": harness_version(),
        "options": options,
        "questions": {"dir": str(result.options.questions_dir), "digest": questions_digest,
                      **({"instance_seed": result.instances.instance_seed, "redraws": dict(result.instances.attempts)}
                         if result.instances is not None and result.instances.instance_seed else {})},
        "states": [s.to_json() for _seed, s in sorted(result.states.items())],
        "audit": ({**result.audit.to_json(), "record": result.audit.record.to_json() if result.audit.record else None,
                   "report": None} if result.audit else None),
        "predictions": [p.to_json() for p in result.predictions],
        "scores": [s.to_json() for s in result.scores],
        "standings": result.standings.to_json() if result.standings else None,
        # the bytes this run wrote, by digest: results/leaderboard.* may be another run's by now
        "leaderboard": {suffix: ref.to_json() for suffix, ref in sorted(result.leaderboard_written.items())},
    }
    return write_document(ArtifactLayout.of(artifacts).runs(), document)


def recorded_runs(artifacts: Path) -> list[tuple[Path, dict[str, Any]]]:
    """Every run manifest under the artifact root with its document, as ``write_manifest`` wrote it;
    one that cannot be read or is not a heron run is skipped (what packaging and explaining search)."""
    import json

    found = []
    for path in ArtifactLayout.of(artifacts).run_manifests():
        try:
            doc = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):  # unreadable, not UTF-8, not JSON: not a run heron wrote
            continue
        if isinstance(doc, dict) and doc.get("kind") == "heron-run":
            found.append((path, doc))
    return found
