"""The standings table `heron bench` prints (issue 30): the headline figures by default, in a 120-column
terminal without a wrapped line; every metric's column with ``--all-columns``, none squeezed."""

from __future__ import annotations

import io
from contextlib import redirect_stdout

import pytest

from heron_pipeline.cli_bench import print_standings
from heron_pipeline.harness.aggregate import compute_standings
from heron_pipeline.harness.records import ScoreRecord
from heron_pipeline.harness.store import store_scores_in
from heron_pipeline.metrics import cli_cells

SEEDS = (42, 43, 44)
TERMINAL = 120  # the terminal the issue measured in


def _record(tool: str, seed: int, qid: str, correct: bool) -> ScoreRecord:
    value = 1.0 if correct else 0.0
    return ScoreRecord(tool=tool, scale="tiny", seed=seed, question_id=qid, sample=0, correct=correct,
                       soft_f1=value, row_f1=value, error_class=None if correct else "error",
                       error=None if correct else "boom", pred_row_count=1, gold_row_count=1, exact_match=correct,
                       recall_5=None, recall_10=None, recall_20=None, recall_all=None, shape="single",
                       retrieval="named", traps=())


@pytest.fixture(scope="module")
def standings(tmp_path_factory):
    """Three tools on three states: gold, bm25-fk and a tool with a long name (its conditions, a model
    name as long as some are, set on its row as a run with a model records them)."""
    root = tmp_path_factory.mktemp("table")
    paths = []
    for tool, wrong in (("gold", set()), ("bm25-fk", {"q2"}), ("a-tool-with-a-long-name", {"q1", "q3"})):
        for seed in SEEDS:
            records = [_record(tool, seed, q, q not in wrong or seed == 44) for q in ("q1", "q2", "q3", "q4")]
            paths.append(store_scores_in(root / f"{tool}-{seed}", records)[0])
    board = compute_standings(paths, "tiny")
    long = next(t for t in board["tools"] if t["tool"] == "a-tool-with-a-long-name")
    long["conditions"] = {**long["conditions"], "model": "qwen2.5-coder-32b-instruct-q4_k_m", "temperature": 0.0}
    return board


def _printed(standings, monkeypatch, columns: int, **kw) -> list[str]:
    monkeypatch.setenv("COLUMNS", str(columns))  # what rich reads as the terminal's width
    out = io.StringIO()
    with redirect_stdout(out):
        print_standings(standings, **kw)
    return out.getvalue().splitlines()


def _header(lines: list[str]) -> list[str]:
    line = next(line for line in lines if "Grade" in line)
    return [cell.strip() for cell in line.strip("│┃ ").replace("┃", "│").split("│")]


def test_the_default_table_fits_a_120_column_terminal(standings, monkeypatch, capsys) -> None:
    """Before issue 30 the table had every column (20) and was printed 200 wide."""
    for columns in (TERMINAL, 80):  # a 120-column terminal; a pipe (rich assumes 80)
        lines = _printed(standings, monkeypatch, columns)
        assert max(len(line) for line in lines) <= TERMINAL, "\n".join(lines)
        header = _header(lines)
        assert header == ["tool", "model", "temp", "n", "Grade", "multi-state EX@1", "95 % CI", "EX@1 per state",
                          "errors"]
        row = next(line for line in lines if "bm25-fk" in line)
        assert "42:75 43:75 44:100" in row and "75.0" in row  # per state; multi-state: q2 wrong on 42 and 43
        # a long name folds onto more lines; the numbers on its first line stay whole
        first = next(line for line in lines if "a-tool-with" in line)
        assert "42:50 43:50 44:100" in first and "[0.0, 100.0]" in first
    assert "more columns with `heron bench --all-columns`" in capsys.readouterr().err


def test_all_columns_prints_every_metric_unsqueezed(standings, monkeypatch) -> None:
    lines = _printed(standings, monkeypatch, TERMINAL, all_columns=True)
    header = _header(lines)
    assert header == ["tool", "model", "temp", "n", *(c.title(standings) for c in cli_cells())]
    assert len(header) > 15 and max(len(line) for line in lines) > TERMINAL
    long_row = [line for line in lines if "a-tool-with-a-long-name" in line]
    assert len(long_row) == 1 and "qwen2.5-coder-32b-instruct-q4_k_m" in long_row[0]  # nothing folded


def test_the_headline_columns_are_declared_by_the_registry() -> None:
    headline = {c.title({"seeds": SEEDS}) for c in cli_cells(headline_only=True)}
    assert headline == {"Grade", "multi-state EX@1", "95 % CI", "EX@1 per state", "errors"}
    assert headline < {c.title({"seeds": SEEDS}) for c in cli_cells()}
