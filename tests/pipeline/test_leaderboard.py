"""Leaderboard files carry their conditions and never overwrite the published leaderboard."""

from __future__ import annotations

import csv
import json

import pytest

from heron_pipeline.harness.standings import ToolConditions, compute_standings
from heron_pipeline.harness.store import latest_score_paths, store_scores
from heron_pipeline.leaderboard import local_results_dir, write_leaderboard
from heron_pipeline.leaderboard.write import PUBLISHED_DIR

from .test_standings import tool_a


@pytest.fixture
def board(tmp_path):
    for seed, records in tool_a().items():
        store_scores(tmp_path, "a", "tiny", seed, records)
    return compute_standings(latest_score_paths(tmp_path, "tiny"), "tiny",
                             {"a": ToolConditions(model="gpt-test", temperature=0.3)})


def test_files_hold_every_condition_next_to_the_numbers(board, tmp_path) -> None:
    files = write_leaderboard([board], local_results_dir(tmp_path))
    assert set(files) == {"json", "csv", "md"} and files["md"].parent == tmp_path / "results"
    [row] = list(csv.DictReader(files["csv"].open()))
    assert row["scale"] == "tiny" and row["seeds"] == "42,43" and row["mode"] == "multi-state"
    assert row["model"] == "gpt-test" and row["temperature"] == "0.3" and row["n"] == "1"
    assert float(row["multi_state_ex1"]) == pytest.approx(33.33, abs=0.01)
    md = files["md"].read_text()
    line = next(l for l in md.splitlines() if l.startswith("| a |"))
    for condition in ("gpt-test", "0.3", "tiny", "42,43", "multi-state", "33.33"):
        assert condition in line
    doc = json.loads(files["json"].read_text())
    tool = doc["standings"][0]["tools"][0]
    assert tool["conditions"]["model"] == "gpt-test" and tool["conditions"]["seeds"] == [42, 43]


def test_published_leaderboard_is_never_overwritten_by_a_local_run(board) -> None:
    with pytest.raises(ValueError, match="published leaderboard"):
        write_leaderboard([board], PUBLISHED_DIR)
    with pytest.raises(ValueError, match="tiny-scale run is never published"):
        write_leaderboard([board], PUBLISHED_DIR, publish=True)
    assert not (PUBLISHED_DIR / "leaderboard.json").exists() or "tiny" not in (
        PUBLISHED_DIR / "leaderboard.json").read_text()
