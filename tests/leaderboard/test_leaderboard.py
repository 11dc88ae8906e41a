"""Leaderboard files carry their conditions and never overwrite the published leaderboard."""

from __future__ import annotations

import csv
import copy
import json
import xml.etree.ElementTree as ET

import pytest

from heron_pipeline.artifacts import ArtifactLayout
from heron_pipeline.harness.aggregate import ToolConditions, compute_standings
from heron_pipeline.harness.store import store_scores_in
from heron_pipeline.leaderboard import render_svg, write_leaderboard
from heron_pipeline.leaderboard.svg import LABEL_WIDTH, PLOT_WIDTH
from heron_pipeline.leaderboard.write import PUBLISHED_DIR

from tests.harness.test_standings import tool_a


@pytest.fixture
def board(tmp_path):
    paths = [store_scores_in(tmp_path / str(seed), records)[0] for seed, records in tool_a().items()]
    return compute_standings(paths, "tiny",
                             {"a": ToolConditions(model="gpt-test", temperature=0.3)})


def test_files_hold_every_condition_next_to_the_numbers(board, tmp_path) -> None:
    files = write_leaderboard([board], ArtifactLayout(tmp_path).results())
    assert set(files) == {"json", "csv", "md", "svg"} and files["md"].parent == tmp_path / "results"
    [row] = list(csv.DictReader(files["csv"].open()))
    assert row["scale"] == "tiny" and row["seeds"] == "42,43" and row["mode"] == "multi-state"
    assert row["model"] == "gpt-test" and row["temperature"] == "0.3" and row["n"] == "1"
    assert float(row["multi_state_ex1"]) == pytest.approx(33.33, abs=0.05)
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


SVG = "{http://www.w3.org/2000/svg}"


def test_svg_chart_draws_each_tool_at_its_headline_with_its_interval_and_conditions(board) -> None:
    """Bar length is the multi-state EX@1 on a 0–100 axis, the whisker spans the CI, the label
    carries the conditions, and a hostile tool name is escaped rather than breaking the XML."""
    second = copy.deepcopy(board["tools"][0])
    second.update(tool='b<"&>', multi_state_ex1=80.0, multi_state_ex1_ci=[70.0, 90.0])
    board = {**board, "tools": [board["tools"][0], second]}
    root = ET.fromstring(render_svg([board]))
    groups = root.findall(f"{SVG}g")
    assert [g.get("data-tool") for g in groups] == ["a", 'b<"&>']
    for group, tool in zip(groups, board["tools"]):
        bar = group.find(f"{SVG}rect")
        assert float(bar.get("width")) == pytest.approx(PLOT_WIDTH * tool["multi_state_ex1"] / 100, abs=0.05)
        low, high = tool["multi_state_ex1_ci"]
        whisker = group.find(f"{SVG}line")
        assert float(whisker.get("x1")) == pytest.approx(LABEL_WIDTH + PLOT_WIDTH * low / 100, abs=0.05)
        assert float(whisker.get("x2")) == pytest.approx(LABEL_WIDTH + PLOT_WIDTH * high / 100, abs=0.05)
        labels = " ".join(t.text for t in group.findall(f"{SVG}text"))
        for condition in ("gpt-test", "T=0.3", "n=1", "tiny", "42,43", "multi-state"):
            assert condition in labels
    assert render_svg([board]) == render_svg([copy.deepcopy(board)])  # bytes depend on the numbers only
