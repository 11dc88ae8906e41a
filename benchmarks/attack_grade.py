"""Issue 33's scoring attacks on the Grade and on EM, before → after.

Rows of the issue reproduced:

- **A tool that answers nothing** (``SELECT 1 WHERE false`` everywhere): EX and Grade.
- **A tool whose every prediction fails** (the gold SQL with a literal replaced by
  ``DATE '2025-99-01'``, else ``SELECT 1/0``): EM, table recall and precision.
- **Self-reported telemetry in Grade**: an EX-60 row's Grade alone and with a row that claims
  0.01 tokens/question and 1e-9 s latency joining the board.

Two ways to run it:

``python benchmarks/attack_grade.py``
    From the metric functions directly, on standings rows with the issue's figures: the Grade
    before (the formula of bcb335d, reimplemented below as ``grade_before``) and after
    (``scoring.grade`` through the registry), and EM / table linking of a failed prediction
    through the scorer (``harness.scorer.score_prediction`` on a state whose execution fails) for
    every public question's gold SQL — the "before" EM there is ``exact_set_match`` on the text,
    which is what the EM metric computed for a prediction that never ran.

``python benchmarks/attack_grade.py --bench``
    Through ``heron bench --scale tiny --seeds 42,43,44 --tools cli`` (natural mode) with this
    script as the cli tool (``--tool nothing`` / ``--tool fail``), reading the standings it wrote.
    Needs ``heron db up``; a few minutes on a quiet machine.

``python benchmarks/attack_grade.py --tool nothing|fail`` is the cli tool itself (one JSON request
on stdin, the SQL on stdout; heron_pipeline/adapters/command.py).
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace
from typing import Any, Iterable

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

NOTHING = "SELECT 1 WHERE false"
DATE_LITERAL = re.compile(r"(?:DATE\s+)?'\d{4}-\d{2}-\d{2}'", re.IGNORECASE)
NUMBER_LITERAL = re.compile(r"(?<![\w.])\d+(?:\.\d+)?(?![\w.])")


def failing_sql(gold_sql: str) -> str:
    """Gold's text with one literal made a date PostgreSQL refuses at run time (EM ignores literal
    values, so the text still matches gold's clauses), else ``SELECT 1/0``."""
    for pattern in (DATE_LITERAL,):
        if pattern.search(gold_sql):
            return pattern.sub("DATE '2025-99-01'", gold_sql, count=1)
    return "SELECT 1/0"


# --- the cli tool ------------------------------------------------------------------------------------

def run_tool(mode: str) -> None:
    request = json.loads(sys.stdin.read())
    if mode == "nothing":
        print(NOTHING)
        return
    from heron_pipeline.bench.inputs import question_set
    from heron_pipeline.bench.options import QUESTIONS_DIR

    questions, _digest = question_set(Path(QUESTIONS_DIR))
    gold = next(q.gold_sql for q in questions if q.id == request["id"])
    print(failing_sql(gold))


# --- the Grade before (bcb335d: token economy and latency relative to the board's minimum) -------------

WEIGHTS = {"ex": 0.45, "efficiency": 0.20, "reliability": 0.10, "tokens": 0.15, "latency": 0.10}


def grade_before(tool: dict[str, Any], field: Iterable[dict[str, Any]]) -> float:
    """The Grade as bcb335d computed it, on ToolDims-like dicts (ex, ves, errors, n, tokens, latency)."""
    def positive(x: float | None) -> float | None:
        return x if x is not None and x > 0 else None

    field = [*field, tool]
    scores = {"ex": float(tool["ex"])}
    if tool.get("ves") is not None:
        scores["efficiency"] = min(100.0, tool["ves"])
    if tool.get("errors") is not None and tool.get("n"):
        scores["reliability"] = 100.0 * (1 - tool["errors"] / tool["n"])
    for key, dim in (("tokens", "tokens"), ("latency", "latency")):
        mine = positive(tool.get(key))
        exposed = [v for v in (positive(t.get(key)) for t in field) if v is not None]
        if mine is not None:
            scores[dim] = min(100.0, 100.0 * min(exposed) / mine)
    return sum(WEIGHTS[d] * v for d, v in scores.items()) / sum(WEIGHTS[d] for d in scores)


def grade_after(rows: list[dict[str, Any]]) -> dict[str, float]:
    """Today's Grade through the registry (``metrics.field_figures``) on standings-shaped rows."""
    from heron_pipeline.metrics import field_figures
    from heron_pipeline.scoring.grade import telemetry

    board = []
    for t in rows:
        board.append({"tool": t["tool"], "questions": t["n"], "multi_state_ex1": t["ex"],
                      "ex1_per_state": {"42": t.get("ex_timed", t["ex"])}, "ves": t.get("ves"),
                      "errors": t["errors"], "tokens_per_question": t.get("tokens") or 0.0,
                      "mean_latency_s": t.get("latency"),
                      "conditions": {"states": 3, "telemetry": telemetry(*t.get("telemetry", ("measured", "measured")))}})
    field_figures(board)
    return {r["tool"]: r["grade"] for r in board}


def grade_rows() -> list[tuple[str, str, str]]:
    """(row, before, after) of the two Grade attacks, on the issue's figures."""
    # answers nothing: EX 3.0 (the empty probes), no errors, latency heron's own clock (alone on its
    # board, so the field minimum before); no tokens (a cli tool that claims none), VES not timed
    nothing = {"tool": "nothing", "ex": 3.0, "errors": 0, "n": 100, "latency": 0.12}
    out = [("answers nothing: EX / Grade", f"3.0 / {grade_before(nothing, []):.1f}",
            f"3.0 / {grade_after([nothing])['nothing']:.1f}")]
    # EX-60 row with measured tokens and latency; the faker claims 0.01 tokens/q and 1e-9 s
    # (VES 43 timed: the 70.6 → 45.6; the faker's empty answers are fast, its VES at the cap)
    ex60 = {"tool": "ex60", "ex": 60.0, "ves": 43.0, "errors": 0, "n": 100, "tokens": 4689.0, "latency": 1.6}
    fake = {"tool": "fake", "ex": 3.0, "ves": 100.0, "errors": 0, "n": 100, "tokens": 0.01, "latency": 1e-9,
            "telemetry": ("claimed", "claimed")}
    out.append(("EX-60 row's Grade, alone → with the fake-telemetry row",
                f"{grade_before(ex60, []):.1f} → {grade_before(ex60, [fake]):.1f}",
                f"{grade_after([ex60])['ex60']:.1f} → {grade_after([ex60, fake])['ex60']:.1f}"))
    out.append(("fake-telemetry row's own Grade (EX 3)", f"{grade_before(fake, [ex60]):.1f}",
                f"{grade_after([ex60, fake])['fake']:.1f}"))
    return out


def em_rows() -> list[tuple[str, str, str]]:
    """EM and table linking of 'every prediction fails' over the public questions, through the scorer."""
    from heron_pipeline.bench.inputs import question_set
    from heron_pipeline.bench.options import QUESTIONS_DIR
    from heron_pipeline.diagnosis import table_linking
    from heron_pipeline.harness.scorer import StateRun, score_prediction
    from heron_pipeline.metrics.builtin import _em_schema
    from heron_pipeline.predictions.record import PredictionRecord
    from heron_pipeline.scoring import exact_set_match

    questions, _digest = question_set(Path(QUESTIONS_DIR))

    def fail(_sql: str) -> Any:
        raise RuntimeError("date/time field value out of range")

    state = StateRun(scale="tiny", seed=42, execute=fail, classify=lambda _e: "error")
    before_em = before_recall = after_em = after_recall = 0.0
    recalls_before = []
    for q in questions:
        sql = failing_sql(q.gold_sql)
        before_em += exact_set_match(q.gold_sql, sql, schema=_em_schema())
        recall, _precision = table_linking(sql, q.gold_tables)
        if recall is not None:
            recalls_before.append(recall)
        record = score_prediction("fail", q, PredictionRecord(q.id, 0, sql), [(1,)], state)
        after_em += record.exact_match
        after_recall += record.table_recall or 0.0
    n = len(questions)
    before_recall = 100 * sum(recalls_before) / len(recalls_before)
    return [("every prediction fails: EM", f"{100 * before_em / n:.1f}", f"{100 * after_em / n:.1f}"),
            ("every prediction fails: table recall", f"{before_recall:.1f}", f"{100 * after_recall / n:.1f}")]


# --- through heron bench -------------------------------------------------------------------------

def bench(mode: str) -> dict[str, Any]:
    """Run ``heron bench`` on tiny 42/43/44 (natural) with this script as the cli tool; its standings row."""
    name = f"attack-{mode}"
    command = f"{sys.executable} {Path(__file__).resolve()} --tool {mode}"
    done = subprocess.run([str(Path(sys.executable).with_name("heron")), "bench", "--scale", "tiny", "--seeds",
                           "42,43,44", "--tools", "cli", "--cli-command", command, "--cli-name", name,
                           "--question-mode", "natural"], cwd=ROOT, capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(f"heron bench failed ({done.returncode}):\n{done.stdout[-2000:]}\n{done.stderr[-2000:]}")
    from heron_pipeline.artifacts import ArtifactLayout
    from heron_pipeline.config import load_settings

    # the local leaderboard the bench just published: one board per (scale, question mode)
    doc = json.loads((ArtifactLayout.of(load_settings().artifacts).results() / "leaderboard.json").read_text())
    board = next(b for b in doc["standings"] if b["scale"] == "tiny" and b.get("question_mode") == "natural")
    return next(t for t in board["tools"] if t["tool"] == name)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tool", choices=("nothing", "fail"), help="act as the cli tool")
    parser.add_argument("--bench", action="store_true", help="measure through heron bench (tiny 42/43/44)")
    args = parser.parse_args()
    if args.tool:
        run_tool(args.tool)
        return
    rows = [*grade_rows(), *em_rows()]
    print("| attack | before (bcb335d) | after |\n|---|---|---|")
    for label, before, after in rows:
        print(f"| {label} | {before} | {after} |")
    if args.bench:
        for mode in ("nothing", "fail"):
            t = bench(mode)
            print(f"bench {mode}: multi-state EX@1 {t['multi_state_ex1']:.1f}, Grade {t['grade']:.1f}, "
                  f"EM {t['exact_match']:.1f}, table recall {t['table_recall']}, errors {t['errors']}, "
                  f"latency {t['mean_latency_s']:.3f} s")


if __name__ == "__main__":
    main()
