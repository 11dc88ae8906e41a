"""Claimed telemetry is shown as claimed and never graded (issue 33): the published board, the cli
tool's conditions and the faces."""

from __future__ import annotations

import pytest

from heron_pipeline.adapters.command import CommandAdapter
from heron_pipeline.leaderboard.publish import _regrade
from heron_pipeline.leaderboard.write import render_markdown
from heron_pipeline.metrics import cli_cells, html_cells, telemetry_of
from heron_pipeline.scoring.grade import CLAIMED, MEASURED


def _row(tool: str, ex: float, tokens: float, latency: float) -> dict:
    return {"tool": tool, "questions": 100, "multi_state_ex1": ex, "ex1_per_state": {"42": ex, "43": ex, "44": ex},
            "ves": None, "errors": 0, "tokens_per_question": tokens, "mean_latency_s": latency,
            "conditions": {"states": 3, "seeds": [42, 43, 44], "mode": "multi-state", "n": 1}}


def test_a_published_row_is_graded_without_its_claimed_telemetry() -> None:
    """Every published row is a submission: its tokens and latency are the submitter's word."""
    honest, faker = _row("honest", 60.0, 15000.0, 3.0), _row("faker", 3.0, 0.01, 1e-9)
    board = _regrade([honest, faker])
    grades = {r["tool"]: r["grade"] for r in board}
    assert grades == pytest.approx({"honest": 60.0, "faker": 3.0})  # EX, reliability 100 earned by EX
    assert all(telemetry_of(r) == {"tokens": CLAIMED, "latency": CLAIMED} for r in board)
    assert [r["tool"] for r in board] == ["honest", "faker"]


def test_the_cli_tool_claims_tokens_and_heron_measures_its_latency() -> None:
    conditions = CommandAdapter("true", environ={}).conditions()
    assert conditions["telemetry"] == {"tokens": CLAIMED, "latency": MEASURED}


def test_claimed_figures_are_marked_on_the_faces() -> None:
    row = {**_row("cli", 60.0, 12.0, 0.5), "grade": 60.0}
    row["conditions"]["telemetry"] = {"tokens": CLAIMED, "latency": MEASURED}
    tokens_cli = next(c for c in cli_cells() if c.title({}) == "tok/q")
    latency_cli = next(c for c in cli_cells() if c.title({}) == "lat s")
    assert tokens_cli.render(row) == "12.0 (claimed)" and latency_cli.render(row) == "0.500"
    tokens_html = next(c for c in html_cells() if c.title({"seeds": [42]}) == "tokens/q")
    assert "claimed, not graded" in tokens_html.render(row, {})
    measured = {**row, "conditions": {**row["conditions"], "telemetry": {"tokens": MEASURED, "latency": MEASURED}}}
    assert "claimed" not in tokens_html.render(measured, {}) and tokens_cli.render(measured) == "12.0"
