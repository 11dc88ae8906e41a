"""The nightly hidden evaluation and the recomputation of a retired draw: one core for the CLI
(``heron hidden night|retire|recompute``) and the Dagster schedule.

A night is ``publish_leaderboard`` with the night's plan (``hidden.plan.night_plan``: the instance
seed and data seeds derived from the maintainer's secret and the date), so a night verifies the
submissions, runs every runnable one on the night's draw, writes the night's evaluation record by
identity (date, scale, draw digest) and regenerates the page with every night's history.
"""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path
from typing import Any, Callable

from heron_pipeline.hidden.evaluation import (EVALUATIONS_DIR, compare_records, evaluate, record_name, record_text,
                                              retire, retired_plan)
from heron_pipeline.hidden.plan import HiddenPlan, night_plan
from heron_pipeline.leaderboard.publish import (SUBMISSIONS_DIR, judged_verdict, publish_leaderboard, runnables,
                                                submission_folders)
from heron_pipeline.leaderboard.write import PUBLISHED_DIR

Say = Callable[[str], None]


def run_night(server: Any, artifacts: Path, plan_file: HiddenPlan, *, scale: str, date: dt.date, board: Any,
              submissions: Path = SUBMISSIONS_DIR, out: Path = PUBLISHED_DIR, evaluations: Path | None = None,
              llm: Any = None, say: Say = lambda _m: None) -> dict[str, Any]:
    """Run the night ``date`` at ``scale``; the night's evaluation summary (never its seeds)."""
    if not plan_file.secret:
        raise ValueError("the nightly draw needs `secret` in the hidden file (HERON_HIDDEN_SEEDS_FILE)")
    plan = night_plan(plan_file.secret, scale, date)
    doc = publish_leaderboard(server, artifacts, submissions, out, board=board, hidden_seeds=[], plan=plan,
                              evaluations=evaluations, llm=llm, today=date, kind="night", scale=scale, say=say)
    mine = [e for e in doc["evaluations"] if e["kind"] == "night" and e["date"] == date.isoformat()
            and e["scale"] == scale]
    if not mine:
        return {"label": plan.label, "scale": scale, "tools": 0, "draw_digest": None, "audit_passed": None}
    return mine[-1]


def load_record(path: Path) -> dict[str, Any]:
    try:
        return json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as err:
        raise ValueError(f"{path}: not an evaluation record ({err})") from None


def retire_record(path: Path, plan_file: HiddenPlan, *, today: dt.date, force: bool = False) -> dict[str, Any]:
    """Publish a record's seeds in it (checked against its draw digest); the retired record, written in place."""
    from heron_pipeline.artifacts.atomic import write_text_atomic

    record = load_record(path)
    if record["kind"] == "night":
        if not plan_file.secret:
            raise ValueError("retiring a night needs `secret` in the hidden file (HERON_HIDDEN_SEEDS_FILE)")
        plan = night_plan(plan_file.secret, record["scale"], dt.date.fromisoformat(record["date"]))
    else:
        plan = plan_file
    retired = retire(record, plan, today=today, force=force)
    write_text_atomic(Path(path), record_text(retired))
    return retired


def recompute_record(server: Any, artifacts: Path, path: Path, *, board: Any, submissions: Path = SUBMISSIONS_DIR,
                     llm: Any = None, say: Say = lambda _m: None) -> tuple[dict[str, Any], list[str]]:
    """A retired record recomputed from its published seeds and the runnable submissions it names:
    (the recomputed record, every difference — empty when the figures agree exactly)."""
    record = load_record(path)
    plan = retired_plan(record)
    names = {t["folder"] for t in record["tools"]}
    from heron_pipeline.submissions.verify import load_expected_fingerprints

    expected = load_expected_fingerprints()
    verdicts = [judged_verdict(f, server, artifacts, board=board, expected=expected, say=say)
                for f in submission_folders(submissions) if f.name in names]
    tools = [r for r in runnables(verdicts, submissions, board) if r.verdict.conditions["scale"] == record["scale"]]
    again = evaluate(server, artifacts, tools, plan, kind=record["kind"], date=dt.date.fromisoformat(record["date"]),
                     llm=llm, say=say)
    if not again:
        return record, [f"{record_name(record)}: no runnable submission of it is left to recompute"]
    return again[0], compare_records(record, again[0])


__all__ = ["EVALUATIONS_DIR", "load_record", "recompute_record", "retire_record", "run_night"]
