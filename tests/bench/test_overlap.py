"""Scoring in two passes (issue 21): the EX pass of several tool × state pairs at once computes exactly
what one pair at a time computes, and the VES pass times with no other heron query on the server.

Real server, real tiny states 42/43/44, the committed questions. With ``--ves`` the score artifacts
hold the VES times, so no two such runs — two sequential ones included — share their digest; what is
compared is every artifact with those fields left out, and the standings without their wall-time
figures (latency, VES, R-VES) and provenance.
"""

from __future__ import annotations

import json
import threading
import time
from pathlib import Path

import pytest

from heron_pipeline.artifacts import write_jsonl_artifact
from heron_pipeline.bench import ArtifactRef, BenchOptions, PredictionsResult, audited_golds, build_state, run_bench
from heron_pipeline.bench.inputs import question_set
from heron_pipeline.bench.options import QUESTIONS_DIR
from heron_pipeline.bench.run import score_pairs
from heron_pipeline.bench.standings import compute_scale_standings
from heron_pipeline.predictions.record import PredictionRecord

SEEDS = (42, 43, 44)
RECORD_WALL_TIME = ("gold_time_s", "pred_time_s")
#: Standings figures that follow this machine's clock: the timings themselves, and the Grade, which
#: weighs min(100, VES) and latency (scoring.grade) — a gold-vs-gold VES just under 100 in one run
#: and not the other moves it.
STANDINGS_WALL_TIME = ("mean_latency_s", "ves", "r_ves", "grade")


@pytest.fixture(scope="module")
def audited(server, settings):
    """tiny 42/43/44 built, their gold computed and the audit passed: (questions, digest, audit, golds)."""
    questions, digest = question_set(QUESTIONS_DIR)
    states = {seed: build_state(server, settings.artifacts, "tiny", seed) for seed in SEEDS}
    audit, golds = audited_golds(server, settings.artifacts, "tiny", states, questions, digest)
    assert audit.passed, audit.summary_line()
    return questions, digest, audit, golds


def _records_without_wall_time(ref: ArtifactRef) -> list[dict]:
    lines = [json.loads(line) for line in ref.read_bytes().decode().splitlines() if line.strip()]
    for line in lines:
        for key in RECORD_WALL_TIME:
            line.pop(key, None)
    return lines


def _standings_without_wall_time(path: Path) -> dict:
    doc = json.loads(path.read_text())
    doc.pop("provenance", None)
    for tool in doc["tools"]:
        for key in STANDINGS_WALL_TIME:
            tool.pop(key, None)
    return doc


def _mixed_predictions(tmp_path: Path, questions, digest: str, audit) -> PredictionsResult:
    """A tool that is right on some questions, wrong on some, fails on others (syntax, sandbox refusal)."""
    records = []
    for i, q in enumerate(questions):
        sql = [q.gold_sql, "SELECT 1 FROM tenancy.tenants LIMIT 1", "SELEC nonsense", "DELETE FROM orders"][i % 4]
        records.append(PredictionRecord(q.id, 0, sql).to_json())
    path, sha = write_jsonl_artifact(tmp_path / "predictions", records)
    return PredictionsResult("mixed", "sql", "complete", None, "tiny", "natural", 1, ArtifactRef(path, sha), {}, {},
                             digest, {"seed": 42, "fingerprint": audit.states[0]["fingerprint"]}, audit.key,
                             len(records))


def test_the_ex_pass_at_once_computes_what_one_pair_at_a_time_computes(server, settings, audited, tmp_path) -> None:
    questions, digest, audit, golds = audited
    mixed = _mixed_predictions(tmp_path, questions, digest, audit)
    pairs = [(mixed, golds[seed]) for seed in SEEDS]
    one = score_pairs(server, settings.artifacts, pairs, questions, audit, time_ves=False, workers=1)
    at_once = score_pairs(server, settings.artifacts, pairs, questions, audit, time_ves=False, workers=3)
    assert [(s.tool, s.seed) for s in at_once] == [(s.tool, s.seed) for s in one] == [("mixed", s) for s in SEEDS]
    for a, b in zip(one, at_once):
        assert a.status == b.status == "scored"
        assert (a.ex1, a.errors, a.records) == (b.ex1, b.errors, b.records)
        assert _records_without_wall_time(a.scores) == _records_without_wall_time(b.scores)  # same order too
        assert a.scores.digest == b.scores.digest  # no VES: a score record holds no wall time at all
        records = _records_without_wall_time(a.scores)
        assert any(r["correct"] for r in records)  # right, wrong and failing: not a trivial comparison
        assert any(not r["correct"] and r["error_class"] is None for r in records)
        assert any(r["error_class"] is not None for r in records)
        assert 0 < a.ex1 < 100
    standings = [compute_scale_standings(settings.artifacts, audit, [mixed], scores, "natural", seeds=SEEDS,
                                         questions=questions) for scores in (one, at_once)]
    assert (_standings_without_wall_time(standings[0].standings.path)
            == _standings_without_wall_time(standings[1].standings.path))
    assert standings[0].standings.digest == standings[1].standings.digest


class ActivitySampler(threading.Thread):
    """Samples pg_stat_activity of the tiny states every ``PAUSE_S``: (database, pid, query) of every client
    backend not idle, per sample, with the monotonic time the sample was taken (``times``). Not as fast as it
    can: a loop without a pause kept one of the two cores busy (client and server) for the whole timed run,
    taken from the suite's other worker (issue 30); a few hundred samples a second still see every pass
    (each of its queries runs for milliseconds, back to back)."""

    PAUSE_S = 0.002

    def __init__(self, server) -> None:
        super().__init__(daemon=True)
        self.server, self.samples, self.times, self.stop = server, [], [], threading.Event()

    def run(self) -> None:
        with self.server.connect() as conn:
            while not self.stop.is_set():
                started = time.monotonic()
                self.samples.append(conn.execute(
                    "SELECT datname, pid, query FROM pg_stat_activity WHERE datname LIKE 'heron_tiny_%' "
                    "AND state <> 'idle' AND backend_type = 'client backend' AND pid <> pg_backend_pid()"
                ).fetchall())  # client backends: the server's own autovacuum workers are not heron's queries
                self.times.append(started)
                self.stop.wait(self.PAUSE_S)


def _run(server, settings, workers: int, sampler: ActivitySampler | None = None):
    options = BenchOptions(scale="tiny", seeds=SEEDS, tools=("gold",), time_ves=True, score_workers=workers)
    if sampler:
        sampler.start()
    try:
        return run_bench(server, settings.artifacts, options)
    finally:
        if sampler:
            sampler.stop.set()
            sampler.join()


@pytest.mark.e2e
def test_a_ves_run_at_once_gives_the_same_artifacts_and_times_alone(server, settings, audited, monkeypatch) -> None:
    from heron_pipeline.bench import run as bench_run

    one = _run(server, settings, 1)
    # A timed query is indistinguishable from a scored one by design (issue 33: no cursor name or
    # setting tells them apart), so the VES pass is found by time: when its first timing starts.
    ves_started: list[float] = []
    time_scores = bench_run.time_scores

    def noting_start(executed):
        ves_started.append(time.monotonic())
        return time_scores(executed)

    monkeypatch.setattr(bench_run, "time_scores", noting_start)
    sampler = ActivitySampler(server)
    at_once = _run(server, settings, 3, sampler)
    first, second = (json.loads(r.manifest.path.read_text()) for r in (one, at_once))
    for key in ("states", "audit", "predictions"):  # byte-identical inputs, by digest
        assert first[key] == second[key], key
    assert first["options"] == {**second["options"], "score_workers": 1}
    for a, b in zip(one.scores, at_once.scores, strict=True):
        assert (a.tool, a.seed, a.ex1, a.gold_digest, a.predictions_digest) == (
            b.tool, b.seed, b.ex1, b.gold_digest, b.predictions_digest)
        assert _records_without_wall_time(a.scores) == _records_without_wall_time(b.scores)
        records = [json.loads(line) for line in b.scores.read_bytes().decode().splitlines() if line.strip()]
        assert all(r["correct"] and r["gold_time_s"] > 0 and r["pred_time_s"] > 0 for r in records)  # all timed
    assert (_standings_without_wall_time(one.standings.standings.path)
            == _standings_without_wall_time(at_once.standings.standings.path))

    # The sampler saw the EX pass run several states at once (it can see overlap) ...
    assert max(len({db for db, _pid, _q in rows}) for rows in sampler.samples) >= 2
    # ... and every time it saw a query during the VES pass, that backend was the only busy one.
    assert ves_started, "the VES pass never ran"
    timing = [rows for rows, at in zip(sampler.samples, sampler.times) if at >= ves_started[0] and rows]
    assert timing, "the sampler never caught a VES timing query"
    crowded = [rows for rows in timing if len({pid for _db, pid, _q in rows}) > 1]
    assert not crowded, crowded[:3]
    assert set(at_once.phase_seconds) >= {"ex", "ves"}  # two passes, in that order


def test_score_workers_must_be_positive() -> None:
    with pytest.raises(ValueError, match="--score-workers must be at least 1, got 0"):
        BenchOptions(score_workers=0)
