"""`heron audit` is the bench core's audit: it records its verdict where `heron bench` looks, so
`heron audit --scale tiny --seeds 42,43,44` then `heron bench` on the same states audits once."""

from __future__ import annotations

from pathlib import Path

import pytest

from heron_pipeline.cli import main


@pytest.fixture
def cli_env(monkeypatch, settings, tmp_path) -> Path:
    """The CLI pointed at the test session's server, with artifacts of its own."""
    if not settings.is_embedded:
        pytest.skip("the CLI tests drive the embedded test server")
    monkeypatch.setenv("HERON_DATA_DIR", str(settings.data_dir))
    monkeypatch.setenv("HERON_PORT", str(settings.port))
    monkeypatch.setenv("HERON_ARTIFACT_DIR", str(tmp_path / "artifacts"))
    monkeypatch.delenv("HERON_DSN", raising=False)
    monkeypatch.delenv("HERON_CONFIG", raising=False)
    return tmp_path / "artifacts"


def _files(folder: Path) -> list[Path]:
    return sorted(p for p in folder.rglob("*.json"))


@pytest.mark.timeout(1800)
def test_heron_audit_then_heron_bench_audits_once(cli_env: Path, capsys) -> None:
    assert main(["audit", "--scale", "tiny", "--seeds", "42,43,44"]) == 0
    out, err = capsys.readouterr()
    assert "trap-live" in out and "PASS" in out
    assert ("audit of tiny seeds 42,43,44: passed; not judged: trap-live (judged at small, bench, large only; "
            "this audit is at tiny) -> recorded as") in err
    audits, golds = _files(cli_env / "audits"), _files(cli_env / "gold")
    assert len(audits) == 2 and len(golds) == 3  # one verdict and its pointer; one gold artifact per state
    assert not (cli_env / "trap_proofs").exists()  # nothing writes a file nothing reads

    assert main(["bench", "--scale", "tiny", "--seeds", "42,43,44", "--tools", "gold"]) == 0
    err = capsys.readouterr().err
    assert "audit of tiny seeds 42,43,44: passed — reused the verdict recorded for these states and questions" in err
    assert not [line for line in err.splitlines() if line.startswith("gold/")]  # no gold computed again …
    assert _files(cli_env / "audits") == audits and _files(cli_env / "gold") == golds  # … and no second verdict
