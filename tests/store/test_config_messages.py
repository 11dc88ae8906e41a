"""The config and message defects of issue 34: each is one line naming the setting or file and the
fix, or the setting takes effect — never a silent default or "an unexpected failure"."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from heron_pipeline.cli import main


@pytest.fixture
def cli_env(monkeypatch, settings, tmp_path) -> Path:
    if not settings.is_embedded:
        pytest.skip("the CLI tests drive the embedded test server")
    monkeypatch.setenv("HERON_DATA_DIR", str(settings.data_dir))
    monkeypatch.setenv("HERON_PORT", str(settings.port))
    monkeypatch.setenv("HERON_ARTIFACT_DIR", str(tmp_path / "artifacts"))
    monkeypatch.delenv("HERON_DSN", raising=False)
    monkeypatch.delenv("HERON_SEEDS", raising=False)
    monkeypatch.setenv("HERON_CONFIG", str(tmp_path / "heron.toml"))
    (tmp_path / "heron.toml").write_text("")
    return tmp_path


def _one_line(capsys) -> str:
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and "Traceback" not in err, err
    return err


def test_a_dsn_that_is_no_connection_string_names_heron_dsn_and_the_fix(cli_env, monkeypatch, capsys) -> None:
    monkeypatch.setenv("HERON_DSN", "not a dsn")
    assert main(["db", "status"]) == 2
    line = _one_line(capsys)
    assert line.startswith("error: HERON_DSN: dsn is not a PostgreSQL connection string")
    assert "postgresql://" in line and "unset HERON_DSN" in line and "heron's own SQL" not in line


def test_a_dsn_in_the_file_names_the_file_line_and_key(cli_env, capsys) -> None:
    config = cli_env / "heron.toml"
    config.write_text('port = 24999\ndsn = "host=127.0.0.1 port"\n')
    assert main(["db", "status"]) == 2
    assert _one_line(capsys).startswith(f"error: {config}:2: dsn is not a PostgreSQL connection string")


def test_explain_on_a_run_file_that_is_not_utf8_names_the_file(cli_env, capsys) -> None:
    bad = cli_env / "run.json"
    bad.write_bytes(b"\xff\xfe{}")
    assert main(["explain", "--tool", "gold", "--question", "q001", "--run", str(bad)]) == 1
    line = _one_line(capsys)
    assert str(bad) in line and "not UTF-8" in line and "UnicodeDecodeError" not in line


@pytest.mark.timeout(1200)
def test_the_configured_seeds_are_the_ones_heron_bench_runs(cli_env, capsys) -> None:
    (cli_env / "heron.toml").write_text('seeds = "42"\n')
    assert main(["bench", "--scale", "tiny", "--tools", "gold"]) == 0
    err = capsys.readouterr().err
    assert "seeds 42 (the configured seeds; --seeds overrides)" in err
    (manifest,) = (cli_env / "artifacts" / "runs").glob("*.json")
    assert json.loads(manifest.read_text())["options"]["seeds"] == [42]
