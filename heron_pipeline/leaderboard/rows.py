"""The standings flattened to one row per (scale, tool), conditions included: the one shape the
CSV, the Markdown table and the SVG chart are all drawn from, so they cannot disagree."""

from __future__ import annotations

from typing import Any, Iterable, Mapping


def _round(value: Any, digits: int = 2) -> Any:
    return round(value, digits) if isinstance(value, float) else value


def leaderboard_rows(standings: Iterable[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """One flat row per (scale, tool) with its conditions; the shape of the CSV and the table."""
    rows = []
    for board in standings:
        for tool in board["tools"]:
            c = tool["conditions"]
            k = c["n"]
            recall = tool["set_recall"]
            rows.append({
                "scale": board["scale"], "seeds": ",".join(str(s) for s in c["seeds"]), "mode": c["mode"],
                "question_mode": c.get("question_mode") or board.get("question_mode") or "full",
                "tool": tool["tool"], "model": c.get("model"), "temperature": c.get("temperature"), "n": k,
                "questions": tool["questions"], "grade": _round(tool["grade"]),
                "multi_state_ex1": _round(tool["multi_state_ex1"]),
                "multi_state_ex1_ci_low": _round(tool["multi_state_ex1_ci"][0]),
                "multi_state_ex1_ci_high": _round(tool["multi_state_ex1_ci"][1]),
                "ex1_per_state": ";".join(f"{s}:{_round(v)}" for s, v in tool["ex1_per_state"].items()),
                "ex_at_k": f"@{k}:{_round(tool[f'ex_at_{k}'])}",
                "ves": _round(tool["ves"]), "r_ves": _round(tool["r_ves"]),
                "soft_f1": _round(tool["soft_f1"]), "row_f1": _round(tool["row_f1"]),
                "set_recall_at_5": _round(recall["@5"]), "set_recall_at_10": _round(recall["@10"]),
                "set_recall_at_20": _round(recall["@20"]), "set_recall_at_all": _round(recall["@all"]),
                "exact_match": _round(tool["exact_match"]), "errors": tool["errors"],
                "tokens_per_question": _round(tool["tokens_per_question"], 1), "cost_usd": _round(tool["cost_usd"], 4),
                "mean_latency_s": _round(tool["mean_latency_s"], 3),
            })
    return rows
