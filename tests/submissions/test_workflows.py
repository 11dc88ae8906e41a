"""The two submission workflows: their structure, and that every heron / make command they run exists."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]
WORKFLOWS = ROOT / ".github" / "workflows"


def _load(name: str) -> dict:
    doc = yaml.safe_load((WORKFLOWS / name).read_text())
    doc["on"] = doc.pop(True, doc.get("on"))  # YAML 1.1 reads the key `on` as true
    return doc


def _runs(doc: dict) -> list[str]:
    return [step["run"] for job in doc["jobs"].values() for step in job["steps"] if "run" in step]


def _subcommands() -> set[str]:
    from heron_pipeline.cli import build_parser

    parser = build_parser()
    action = next(a for a in parser._actions if a.__class__.__name__ == "_SubParsersAction")
    return set(action.choices)


def _make_targets() -> set[str]:
    return set(re.findall(r"^([A-Za-z][\w-]*):", (ROOT / "Makefile").read_text(), flags=re.M))


@pytest.mark.parametrize("name", ["verify-submission.yml", "update-leaderboard.yml"])
def test_every_command_run_exists(name: str) -> None:
    commands, targets = _subcommands(), _make_targets()
    found = 0
    for script in _runs(_load(name)):
        for sub in re.findall(r"(?:^|[\s/])heron\s+([a-z][\w-]*)", script):
            assert sub in commands, f"{name}: `heron {sub}` is not a heron command"
            found += 1
        for target in re.findall(r"(?:^|\s)make\s+([a-z][\w-]*)", script):
            assert target in targets, f"{name}: `make {target}` is not a Makefile target"
            found += 1
    assert found >= 3


def test_the_pull_request_workflow_verifies_and_needs_no_secrets() -> None:
    doc = _load("verify-submission.yml")
    assert set(doc["on"]) == {"pull_request"}
    assert "submissions/**" in doc["on"]["pull_request"]["paths"]
    assert "heron_pipeline/**" in doc["on"]["pull_request"]["paths"] and "questions/**" in doc["on"]["pull_request"]["paths"]
    assert doc["permissions"] == {"contents": "read"}
    text = (WORKFLOWS / "verify-submission.yml").read_text()
    assert "secrets." not in text and "HIDDEN" not in text  # fork pull requests see no secret
    scripts = "\n".join(_runs(doc))
    assert "heron verify" in scripts and "GITHUB_STEP_SUMMARY" in scripts and "exit $status" in scripts
    assert "heron audit" in scripts


def test_the_main_workflow_publishes_with_hidden_seeds_and_commits() -> None:
    doc = _load("update-leaderboard.yml")
    assert doc["on"]["push"]["branches"] == ["main"] and "workflow_dispatch" in doc["on"]
    assert doc["permissions"] == {"contents": "write"}
    steps = [s for job in doc["jobs"].values() for s in job["steps"]]
    secret_steps = [s for s in steps if "secrets.HERON_HIDDEN_SEEDS" in str(s.get("env", {}))]
    assert len(secret_steps) == 1 and "HERON_HIDDEN_SEEDS_FILE" in secret_steps[0]["run"]
    assert "RUNNER_TEMP" in secret_steps[0]["run"]  # the seeds file lives outside the repository
    scripts = "\n".join(_runs(doc))
    assert "heron leaderboard" in scripts and "git add docs/leaderboard" in scripts
    assert "submissions/**" in doc["on"]["push"]["paths"] and "docs/**" not in doc["on"]["push"]["paths"]
