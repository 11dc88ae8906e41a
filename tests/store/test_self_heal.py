"""`heron bench` re-makes what it needs instead of failing on it forever, and an artifact root copied
elsewhere stands alone (issue 34), against the real embedded PostgreSQL."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from heron_pipeline.cli import main

BENCH = ["bench", "--scale", "tiny", "--seeds", "42", "--tools", "gold"]


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


@pytest.mark.timeout(1800)
def test_bench_remakes_a_missing_gold_and_a_copied_root_stands_alone(cli_env: Path, monkeypatch, capsys) -> None:
    assert main(BENCH) == 0
    capsys.readouterr()
    (gold,) = (cli_env / "gold" / "tiny_42").glob("*.json")
    kept = gold.read_bytes()

    # a copied root, the original gone: its records name its own files, so the verdict is reused as is
    copy = cli_env.parent / "copy"
    shutil.copytree(cli_env, copy)
    shutil.rmtree(cli_env)
    monkeypatch.setenv("HERON_ARTIFACT_DIR", str(copy))
    assert main(BENCH) == 0, capsys.readouterr().err
    err = capsys.readouterr().err
    assert "reused the verdict recorded for these states and questions" in err
    assert not [line for line in err.splitlines() if line.startswith("gold/")]

    # the gold deleted (as an error message once advised): the next bench says so and makes it again
    (copy / gold.relative_to(cli_env)).unlink()
    assert main(BENCH) == 0
    err = capsys.readouterr().err
    (line,) = [line for line in err.splitlines() if "cannot be read" in line]
    assert "computing the gold again" in line and gold.name[:16] in line
    assert (copy / gold.relative_to(cli_env)).read_bytes() == kept  # the same rows, the same artifact
