"""heron submit / verify / leaderboard exit codes: 0 accepted or written, 1 rejected, 2 usage, 4 harness down."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from heron_pipeline.cli import main


@pytest.fixture
def env(monkeypatch, settings, sub_artifacts):
    """The CLI pointed at the test session's server and the submission tests' artifacts."""
    if not settings.is_embedded:
        pytest.skip("the CLI tests drive the embedded test server")
    monkeypatch.setenv("HERON_DATA_DIR", str(settings.data_dir))
    monkeypatch.setenv("HERON_PORT", str(settings.port))
    monkeypatch.setenv("HERON_ARTIFACT_DIR", str(sub_artifacts))
    monkeypatch.delenv("HERON_DSN", raising=False)
    monkeypatch.delenv("HERON_HIDDEN_SEEDS_FILE", raising=False)


def test_verify_accepts_with_one_verdict_document_on_stdout(env, submissions, capsys) -> None:
    assert main(["verify", str(submissions / "gold")]) == 0
    verdict = json.loads(capsys.readouterr().out)
    assert verdict["status"] == "accepted" and verdict["reasons"] == [] and verdict["tool"] == "gold"
    assert verdict["claimed"] == {k: verdict["reproduced"][k] for k in verdict["claimed"]}
    assert [s["seed"] for s in verdict["public_states"]] == [42, 43]


def test_verify_rejects_with_exit_1_and_the_reason(env, submissions, capsys) -> None:
    assert main(["verify", str(submissions / "gold-broken")]) == 1
    verdict = json.loads(capsys.readouterr().out)
    assert verdict["status"] == "rejected" and verdict["reason_codes"] == ["malformed"]


def test_usage_errors_exit_2(env, tmp_path, capsys) -> None:
    assert main(["verify", str(tmp_path / "nope")]) == 2
    assert "no such submission folder" in capsys.readouterr().err
    bad = tmp_path / "hidden"
    bad.write_text("42\n")
    assert main(["leaderboard", "--submissions", str(tmp_path), "--hidden-seeds-file", str(bad)]) == 2
    assert "hidden seed must be between" in capsys.readouterr().err
    with pytest.raises(SystemExit) as err:
        main(["submit", "--tool", "gold"])
    assert err.value.code == 2


def test_harness_unavailable_exits_4(monkeypatch, submissions, free_port, capsys) -> None:
    monkeypatch.setenv("HERON_DSN", f"postgresql://postgres@127.0.0.1:{free_port()}/postgres?connect_timeout=2")
    assert main(["verify", str(submissions / "gold")]) == 4
    assert "heron cannot verify" in capsys.readouterr().err


def test_heron_failing_on_a_folder_is_one_line_and_exit_4_not_a_traceback(env, submissions, monkeypatch,
                                                                          capsys) -> None:
    import heron_pipeline.submissions as package

    def fails(*_a, **_k):
        raise RecursionError("maximum recursion depth exceeded")

    monkeypatch.setattr(package, "verify", fails)
    assert main(["verify", str(submissions / "gold")]) == 4
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "RecursionError" in err[0] and "heron's failure, not the submission's" in err[0]


def test_submit_without_a_matching_run_names_the_fix(env, tmp_path, capsys) -> None:
    assert main(["submit", "--tool", "gold", "--scale", "small", "--seeds", "42,43,44", "--out", str(tmp_path / "x")]) == 1
    assert "heron bench --tools gold --scale small" in capsys.readouterr().err


def test_submit_packages_the_newest_run_by_its_recorded_time(env, gold_run, sub_artifacts, tmp_path, capsys) -> None:
    import shutil

    # an older run whose file is the most recently modified must not win
    older = json.loads(gold_run.manifest.path.read_text())
    older["finished_at"] = "2000-01-01T00:00:00+00:00"
    stale = sub_artifacts / "runs" / ("0" * 64 + ".json")
    stale.write_text(json.dumps(older))
    try:
        assert main(["submit", "--tool", "gold", "--scale", "tiny", "--seeds", "42,43", "--out", str(tmp_path / "g")]) == 0
        meta = json.loads((tmp_path / "g" / "meta.json").read_text())
        assert meta["run"]["manifest_digest"] == gold_run.manifest.digest and meta["date"] != "2000-01-01"
        again = tmp_path / "again"
        assert main(["submit", "--tool", "gold", "--scale", "tiny", "--seeds", "42,43", "--out", str(again),
                     "--run", str(gold_run.manifest.path)]) == 0
        for name in ("meta.json", "predictions.jsonl", "claims.json"):  # idempotent: same run, same bytes
            assert (again / name).read_bytes() == (tmp_path / "g" / name).read_bytes()
    finally:
        stale.unlink()
        shutil.rmtree(tmp_path, ignore_errors=True)
