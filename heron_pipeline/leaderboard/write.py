"""The leaderboard files: the standings as ``.json``, ``.csv``, ``.md`` and ``.svg``, conditions on every row.

A number without its conditions is not comparable, so every row repeats the scale, the seeds, the
model, the temperature, n and whether the headline is single- or multi-state. Local runs write under
the local results folder (``ArtifactLayout.results()``); the published leaderboard under
``docs/leaderboard/`` is written only on purpose (``publish=True``) and never from a tiny run.
"""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path
from typing import Any, Iterable, Mapping

from heron_pipeline.artifacts.atomic import write_text_atomic
from heron_pipeline.config import PROJECT_ROOT
from heron_pipeline.leaderboard.boards import ROLE_TEXT, board_role, board_title
from heron_pipeline.leaderboard.rows import leaderboard_rows, row_fields
from heron_pipeline.leaderboard.svg import render_svg
from heron_pipeline.metrics import claimed, markdown_cells
from heron_pipeline.metrics.cells import md_text

#: The published leaderboard (``heron leaderboard``): outside ``submissions/``, whose watcher it would retrigger.
PUBLISHED_DIR = PROJECT_ROOT / "docs" / "leaderboard"
BASENAME = "leaderboard"


def render_markdown(standings: Iterable[Mapping[str, Any]]) -> str:
    """A Markdown table per scale; the conditions line above it and the condition columns in it."""
    parts = ["# heron leaderboard", ""]
    cells = markdown_cells()
    for board in standings:
        role = board_role(board.get("question_mode", "full"))
        parts += [f"## {board_title(board)}", "",
                  *([f"This board is {ROLE_TEXT[role]}.", ""] if role in ROLE_TEXT else []),
                  f"The figure to quote: multi-state EX@1 (correct on every one of {len(board['seeds'])} state(s)); "
                  f"95 % bootstrap CI, {board['ci']['resamples']} resamples, seed {board['ci']['seed']}. "
                  f"EX@k is the unbiased pass@k over n samples, a ceiling.", ""]
        claims = [t["tool"] for t in board["tools"]
                  if claimed(t, "tokens", "tokens_per_question") or claimed(t, "latency", "mean_latency_s")]
        if claims:
            parts += [f"Tokens/q and latency of {', '.join(claims)} are claimed by the tool (its reply or its "
                      f"submission's records), not measured by heron: shown, never in the Grade.", ""]
        header = ["tool", "model", "temp", "n", "scale", "seeds", "mode", *(cell.title(board) for cell in cells)]
        parts.append("| " + " | ".join(header) + " |")
        parts.append("|" + "---|" * len(header))
        for row in leaderboard_rows([board]):
            parts.append("| " + " | ".join(md_text(v) for v in [
                row["tool"], row["model"], row["temperature"], row["n"], row["scale"], row["seeds"], row["mode"],
                *(cell.render(row) for cell in cells)]) + " |")
        parts.append("")
    return "\n".join(parts)


def _pct(value: Any) -> str:
    return "—" if value is None else f"{value:.1f}"


def render_retrieval_markdown(retrieval: Iterable[Mapping[str, Any]]) -> str:
    """The retrieval board (``harness.retrieval_board``) as Markdown: Set-Recall per tool, then
    Set-Recall@10 per retrieval bucket. Tools here produce ranked tables, not SQL, and are never
    on the EX board."""
    rows = list(retrieval)
    buckets = sorted({b for row in rows for b in row["by_bucket"]})
    parts = ["## Retrieval board (ranked tables, no SQL)", "",
             "Set-Recall@k: mean over questions of |top-k retrieved ∩ gold tables| ÷ |gold tables|, in %; "
             "sample 0; a question without tables counts 0.", ""]
    header = ["tool", "question mode", "questions", "errors", "@5", "@10", "@20", "@all",
              *(f"@10 {b}" for b in buckets)]
    parts.append("| " + " | ".join(header) + " |")
    parts.append("|" + "---|" * len(header))
    for row in rows:
        recall = row["set_recall"]
        cells = [row["tool"], row.get("conditions", {}).get("question_mode", "full"), row["questions"], row["errors"],
                 *(_pct(recall[k]) for k in ("@5", "@10", "@20", "@all")),
                 *(f"{_pct(row['by_bucket'][b]['@10'])} (n={row['by_bucket'][b]['questions']})"
                   if b in row["by_bucket"] else "—" for b in buckets)]
        parts.append("| " + " | ".join(str(c) for c in cells) + " |")
    parts.append("")
    return "\n".join(parts)


def render_csv(standings: Iterable[Mapping[str, Any]]) -> str:
    buffer = io.StringIO()
    fields = row_fields()
    writer = csv.DictWriter(buffer, fieldnames=fields, lineterminator="\n")
    writer.writeheader()
    for row in leaderboard_rows(standings):
        writer.writerow({k: ("" if row[k] is None else row[k]) for k in fields})
    return buffer.getvalue()


def write_leaderboard(standings: list[Mapping[str, Any]], directory: Path, *, publish: bool = False,
                      retrieval: list[Mapping[str, Any]] | None = None) -> dict[str, Path]:
    """Write ``leaderboard.{json,csv,md,svg}`` into ``directory``; {suffix: path}.

    ``retrieval`` is the retrieval board (``harness.retrieval_board.retrieval_standings``): it goes
    into the JSON under the top-level key ``retrieval`` and into the Markdown as its own table; the
    CSV and SVG stay the EX board's.

    Refuses the published folder unless ``publish`` is set, and always for tiny-scale standings:
    a smoke run must never overwrite the numbers the project stands behind.
    """
    directory = Path(directory).resolve()
    if directory == PUBLISHED_DIR.resolve() or PUBLISHED_DIR.resolve() in directory.parents:
        if not publish:
            raise ValueError(f"refusing to write a local run over the published leaderboard in {directory}")
        if any(board["scale"] == "tiny" for board in standings):
            raise ValueError("a tiny-scale run is never published")
    return {suffix: write_text_atomic(directory / f"{BASENAME}.{suffix}", text)
            for suffix, text in render_leaderboard(standings, retrieval=retrieval).items()}


def render_leaderboard(standings: list[Mapping[str, Any]], *,
                       retrieval: list[Mapping[str, Any]] | None = None) -> dict[str, str]:
    """suffix -> text of every leaderboard file (see ``write_leaderboard``)."""
    document: dict[str, Any] = {"standings": standings}
    markdown = render_markdown(standings)
    if retrieval is not None:
        document["retrieval"] = retrieval
        markdown = markdown.rstrip("\n") + "\n\n" + render_retrieval_markdown(retrieval)
    return {
        "json": json.dumps(document, indent=1, sort_keys=True, ensure_ascii=False) + "\n",
        "csv": render_csv(standings),
        "md": markdown,
        "svg": render_svg(standings),
    }
