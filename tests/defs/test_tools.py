"""What the standings and leaderboard assets show (no server needed): the retrieval board's rows, and the
check that tells a skipped tool from one that ran."""

from __future__ import annotations

import pytest

from heron_pipeline.defs.tools.assets import retrieval_rows, runs_here_result, standings_markdown, standings_rows

BOARD = {
    "scale": "tiny", "seeds": [42, 43], "mode": "multi-state", "question_mode": "full",
    "tools": [{"tool": "gold", "ex1_per_state": {"42": 100.0, "43": 100.0}, "multi_state_ex1": 100.0, "grade": 100.0,
               "conditions": {"model": None}, "soft_f1": 100.0, "errors": 0}],
    "retrieval": [
        {"tool": "bm25-fk", "questions": 100, "errors": 0,
         "set_recall": {"@5": 61.25, "@10": 74.5, "@20": 88.0, "@all": 100.0}},
        {"tool": "bm25", "questions": 100, "errors": 2,
         "set_recall": {"@5": 50.0, "@10": 66.0, "@20": None, "@all": 97.04}},
    ],
    "excluded": [{"tool": "raw-llm", "status": "skipped", "reason": "no endpoint"}],
    "provenance": {"questions_digest": "q" * 64, "harness_version": "h", "states": [], "tools": {}},
}


def test_the_retrieval_board_is_in_the_standings_rows() -> None:
    assert retrieval_rows(BOARD) == {
        "tiny/full/retrieval/bm25-fk": "Set-Recall @5 61.2 @10 74.5 @20 88.0 @all 100.0 | errors 0 | questions 100",
        "tiny/full/retrieval/bm25": "Set-Recall @5 50.0 @10 66.0 @20 — @all 97.0 | errors 2 | questions 100",
    }
    rows = standings_rows(BOARD)
    assert set(rows) == {"tiny/full/gold", "tiny/full/retrieval/bm25-fk", "tiny/full/retrieval/bm25"}


def test_why_a_tool_is_wrong_is_in_its_standings_row() -> None:
    board = {**BOARD, "tools": [{**BOARD["tools"][0], "tool": "wrong", "wrong_by_cause": {"values": 2, "shape": 1},
                                 "table_recall": 93.25, "table_precision": 90.0}]}
    row = standings_rows(board)["tiny/full/wrong"]
    assert row.endswith(" | wrong by cause: values 2, shape 1 | tables recall 93.2 precision 90.0")
    assert standings_rows(BOARD)["tiny/full/gold"].endswith("questions " + "q" * 12)  # a board from before


def test_the_retrieval_board_is_a_table_of_the_standings_markdown() -> None:
    text = standings_markdown(BOARD)
    assert "| bm25-fk | 61.2 | 74.5 | 88.0 | 100.0 | 0 |" in text
    assert "| bm25 | 50.0 | 66.0 | — | 97.0 | 2 |" in text
    # the excluded line is its own paragraph, not a row of the table above it
    assert "|\n\nExcluded: raw-llm (skipped: no endpoint)" in text


def test_a_board_without_retrievers_has_no_retrieval_rows() -> None:
    assert retrieval_rows({**BOARD, "retrieval": []}) == {}
    assert "Retrieval board" not in standings_markdown({**BOARD, "retrieval": []})


@pytest.mark.parametrize("status, reason, ran, passed", [
    ("complete", None, ("complete",), True),
    ("skipped", "no LLM endpoint configured", ("complete",), False),
    ("incomplete", "3 of 100 failed", ("complete",), False),
    ("scored", None, ("scored",), True),
    ("skipped", "predictions skipped: no command", ("scored",), False),
])
def test_runs_here_warns_with_the_reason_when_a_tool_did_not_run(status, reason, ran, passed) -> None:
    result = runs_here_result(status, reason, ran)
    assert result.passed is passed and result.check_name == "runs_here"
    assert result.severity.value == "WARN"  # a warning: never blocks scores or standings
    assert result.metadata["status"].value == status
    assert result.description == (None if passed else f"{status}: {reason}")


def test_the_cutoffs_read_in_order_whatever_the_stored_key_order() -> None:
    stored = {**BOARD, "retrieval": [{**BOARD["retrieval"][0], "set_recall": dict(sorted(
        BOARD["retrieval"][0]["set_recall"].items()))}]}  # as a canonical JSON document stores it: @10, @20, @5, @all
    assert retrieval_rows(stored)["tiny/full/retrieval/bm25-fk"].startswith("Set-Recall @5 61.2 @10 74.5 @20 88.0 @all")


def test_a_skip_reason_in_the_ui_names_the_launchpad_fields_not_cli_flags() -> None:
    """Issue 34: the UI's skip reasons said `--cli-command`, a flag the UI has no place for."""
    from heron_pipeline.predictions.make import NO_COMMAND, NO_ENDPOINT

    cli = runs_here_result("skipped", NO_COMMAND, ("complete",))
    assert "--cli-command" not in cli.description and "resources.bench.config.cli_command" in cli.description
    scores = runs_here_result("skipped", f"predictions skipped: {NO_ENDPOINT}", ("scored",))
    assert scores.description.startswith("skipped: predictions skipped: needs an LLM endpoint: set "
                                          "resources.llm.config.base_url and model")
    assert scores.metadata["reason"].value == scores.description.removeprefix("skipped: ")
