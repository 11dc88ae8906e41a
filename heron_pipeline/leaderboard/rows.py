"""The standings flattened to one row per (scale, tool), conditions included: the one shape the
CSV, the Markdown table and the SVG chart are all drawn from, so they cannot disagree."""

from __future__ import annotations

from typing import Any, Iterable, Mapping

from heron_pipeline.metrics import flat_columns

#: The condition columns every flat row starts with; the metric columns follow (``metrics.flat_columns``).
CONDITION_FIELDS = ("scale", "seeds", "mode", "question_mode", "tool", "model", "temperature", "n", "questions")


def row_fields() -> list[str]:
    """The flat row's keys in order: the conditions, then every registered metric's columns."""
    return [*CONDITION_FIELDS, *(column.key for column in flat_columns())]


def leaderboard_rows(standings: Iterable[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """One flat row per (scale, tool) with its conditions; the shape of the CSV and the table."""
    rows = []
    columns = flat_columns()
    for board in standings:
        for tool in board["tools"]:
            c = tool["conditions"]
            k = c["n"]
            rows.append({
                "scale": board["scale"], "seeds": ",".join(str(s) for s in c["seeds"]), "mode": c["mode"],
                "question_mode": c.get("question_mode") or board.get("question_mode") or "full",
                "tool": tool["tool"], "model": c.get("model"), "temperature": c.get("temperature"), "n": k,
                "questions": tool["questions"],
                **{column.key: column.value(tool, k) for column in columns},
            })
    return rows
