"""The bench core: artifacts by identity, the audit gate, "not judged" with one state."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from heron_pipeline.artifacts import write_document, write_jsonl_artifact
from heron_pipeline.bench import (ArtifactMismatch, ArtifactRef, AuditGateError, AuditResult, BenchOptions,
                                  PredictionsResult, audit_states, build_state, compute_gold, predict,
                                  recorded_audit, run_bench)
from heron_pipeline.bench.inputs import question_set
from heron_pipeline.predictions.record import PredictionRecord

GOOD = Path(__file__).resolve().parents[1] / "questions" / "fixtures" / "good"


def _records(sql: str) -> list[dict]:
    return [PredictionRecord("q1", 0, sql).to_json()]


def test_a_then_b_then_a_reads_a(tmp_path: Path) -> None:
    """Re-writing an existing artifact leaves its file untouched, so "the newest file" after A, B, A
    is B; the step result of the third run names A and reading it gives A."""
    folder = tmp_path / "predictions"
    first = write_jsonl_artifact(folder, _records("SELECT 1"))
    write_jsonl_artifact(folder, _records("SELECT 2"))
    third = write_jsonl_artifact(folder, _records("SELECT 1"))
    assert third == first
    newest = max(folder.glob("*.jsonl"), key=lambda p: p.stat().st_mtime_ns)
    assert newest != third[0]  # what an mtime lookup would have read: B
    result = PredictionsResult("t", "sql", "complete", None, "tiny", "full", 1, ArtifactRef(*third), {}, {}, "d",
                               {"seed": 42, "fingerprint": "f"}, "k", 1)
    again = PredictionsResult.from_json(json.loads(json.dumps(result.to_json())))
    assert [r.sql for r in again.load()] == ["SELECT 1"]


def test_a_tampered_artifact_is_refused(tmp_path: Path) -> None:
    ref = write_document(tmp_path, {"a": 1})
    assert ref.read_json() == {"a": 1}
    ref.path.write_text('{"a": 2}')
    with pytest.raises(ArtifactMismatch, match="expected"):
        ref.read_json()
    ref.path.unlink()
    with pytest.raises(ArtifactMismatch, match="missing"):
        ref.read_bytes()


def _audit(passed: bool) -> AuditResult:
    problems = [] if passed else [{"rule": "balance", "question_id": None, "message": "too few"}] * 3
    return AuditResult("tiny", "k" * 64, passed, "d", [{"seed": 42, "fingerprint": "f", "generator_version": "g",
                                                        "gold": {"path": "/nonexistent", "digest": "0"}}],
                       outcomes={"balance": {"status": "passed" if passed else "failed", "reason": None,
                                             "problems": problems}})


def test_predict_refuses_a_failed_or_missing_audit(tmp_path: Path) -> None:
    with pytest.raises(AuditGateError, match=r"failed \(balance 3\)"):
        predict(None, tmp_path, BenchOptions(seeds=(42,)), "gold", [], "d", _audit(False), None)
    from heron_pipeline.bench import require_passed

    with pytest.raises(AuditGateError, match="no audit"):
        require_passed(None, "tiny")
    assert not any(tmp_path.rglob("*.jsonl"))  # nothing was predicted


def test_one_state_leaves_the_cross_seed_rules_not_judged(tiny42, settings) -> None:
    questions, digest = question_set(GOOD)
    state = build_state(tiny42, settings.artifacts, "tiny", 42)
    gold = compute_gold(tiny42, settings.artifacts, state, questions, digest)
    assert gold.passed, gold.problems
    audit = audit_states(settings.artifacts, "tiny", [gold], questions, digest)
    assert audit.not_judged == {"shape-stable": "needs at least two seeds; 1 state audited (tiny_42)",
                                "varies": "needs at least two seeds; 1 state audited (tiny_42)",
                                "trap-live": "judged at small, bench, large only; this audit is at tiny"}
    assert "shape-stable   not judged: needs at least two seeds" in audit.report
    assert not audit.passed and audit.failed_rules == ["balance"]  # three questions cannot meet the balance rule
    found = recorded_audit(settings.artifacts, "tiny", digest, {42: state.fingerprint})
    assert found is not None and found.key == audit.key and not found.passed
    assert recorded_audit(settings.artifacts, "tiny", digest, {42: "another-fingerprint"}) is None


def test_bench_is_gated_by_its_own_audit(tiny42, settings, tmp_path) -> None:
    """`heron bench` alone audits first; a failing audit stops it before any prediction."""
    options = BenchOptions(scale="tiny", seeds=(42,), tools=("gold",), questions_dir=GOOD)
    with pytest.raises(AuditGateError, match="failed"):
        run_bench(tiny42, tmp_path, options)
    assert not (tmp_path / "predictions").exists() and not (tmp_path / "scores").exists()
    manifests = list((tmp_path / "runs").glob("*.json"))
    assert len(manifests) == 1 and json.loads(manifests[0].read_text())["audit"]["passed"] is False


def test_a_redrawn_round_runs_only_the_new_gold_and_stores_what_a_fresh_run_stores(tiny42, settings, tmp_path,
                                                                                  monkeypatch) -> None:
    """An audit loop's memo (``StateMemo``): after one question's gold changes, the next round runs that
    question's gold and trap mutants only, and its gold and mutant-answer artifacts are byte for byte
    what a computation without the memo stores."""
    import dataclasses

    from heron_pipeline.bench.gold import StateMemo
    from heron_pipeline.questions import gold as gold_module

    questions, digest = question_set(GOOD)
    state = build_state(tiny42, settings.artifacts, "tiny", 42)
    memo = StateMemo()
    compute_gold(tiny42, tmp_path / "memo", state, questions, digest, memo=memo)
    changed = next(q for q in questions if "tenant_id = " in q.gold_sql or "LIMIT" in q.gold_sql)
    redrawn = [dataclasses.replace(q, gold_sql=q.gold_sql.replace("LIMIT", "LIMIT 1 + ", 1)
                                   if "LIMIT" in q.gold_sql else q.gold_sql.replace("tenant_id = ", "tenant_id = 1 + ", 1))
               if q.id == changed.id else q for q in questions]
    ran: list[str] = []
    run_question = gold_module.run_question
    monkeypatch.setattr(gold_module, "run_question", lambda conn, q, **kw: (ran.append(q.id), run_question(conn, q, **kw))[1])
    again = compute_gold(tiny42, tmp_path / "memo", state, redrawn, digest, memo=memo)
    assert ran == [changed.id]
    assert len(memo.answers) == len({q.gold_sql for q in questions} | {q.gold_sql for q in redrawn})
    fresh = compute_gold(tiny42, tmp_path / "fresh", state, redrawn, digest)
    assert again.gold.path.read_bytes() == fresh.gold.path.read_bytes()
    assert again.mutant_answers.path.read_bytes() == fresh.mutant_answers.path.read_bytes()
    assert again.outcomes == fresh.outcomes


def test_two_gold_computations_of_one_state_store_the_same_digest(tiny42, settings, tmp_path) -> None:
    """The gold artifact holds answers only (no timing; rows in canonical order where the query leaves
    it open), so a clean re-run of the same state is the same artifact; the timings stay beside it."""
    questions, digest = question_set(GOOD)
    state = build_state(tiny42, settings.artifacts, "tiny", 42)
    first = compute_gold(tiny42, tmp_path / "one", state, questions, digest)
    second = compute_gold(tiny42, tmp_path / "two", state, questions, digest)
    assert first.gold.digest == second.gold.digest
    assert first.gold.path.read_bytes() == second.gold.path.read_bytes()
    # the trap mutant answers too: rows in canonical order, answers deduplicated in a fixed order
    assert first.mutant_answers.digest == second.mutant_answers.digest
    assert first.mutant_answers.path.read_bytes() == second.mutant_answers.path.read_bytes()
    assert set(first.latencies_ms) == {q.id for q in questions} and first.latency["max_ms"] > 0
    assert set(first.outcomes) == {"executes", "non-empty", "alt-agrees", "repeatable", "ties", "latency"}
