"""Two runnable tools on a test board (issue 29), built through the real steps: `run_bench` on tiny,
then `package(..., runnable=True)` — a copycat `cli` tool (benchmarks/attack_tools/copycat.py: the
public gold SQL of the most similar public text) and an honest `raw-llm` tool whose scripted
OpenAI-compatible server answers each text it is asked with that text's own gold SQL (public or drawn).
Shared by tests/hidden/test_hidden_board.py and benchmarks/hidden_board.py."""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path
from typing import Any

from heron_pipeline.bench.inputs import instance_set
from heron_pipeline.bench.options import QUESTIONS_DIR, BenchOptions
from heron_pipeline.bench.run import run_bench
from heron_pipeline.questions.instances import REDRAW_BUDGET
from heron_pipeline.submissions import package

ROOT = Path(__file__).resolve().parents[2]
COPYCAT = ROOT / "benchmarks" / "attack_tools" / "copycat.py"
BOARD_MODEL = "scripted-board-model"


def answers_of(instance_seeds: list[int]) -> dict[str, str]:
    """Every text (natural and full) of the public set and of each draw, every redraw counter → gold SQL."""
    table: dict[str, str] = {}
    draws = [instance_set(QUESTIONS_DIR, 0)]
    for seed in instance_seeds:
        probe = instance_set(QUESTIONS_DIR, seed)
        for k in range(REDRAW_BUDGET + 1):
            draws.append(instance_set(QUESTIONS_DIR, seed, {q: k for q in probe.varying}))
    for drawn in draws:
        for q in drawn.questions:
            for text in (q.natural, q.question):
                if text:
                    table[" ".join(text.split())] = q.gold_sql
    return table


def honest_responder(table: dict[str, str]):
    """The scripted model: the gold SQL of the longest known text found in the prompt's last message."""
    from tests.llm.fake_openai import Reply

    ordered = sorted(table, key=len, reverse=True)

    def reply(body: dict) -> Any:
        last = " ".join((body["messages"][-1].get("content") or "").split())
        for text in ordered:
            if text in last:
                return Reply(content=f"```sql\n{table[text]}\n```")
        return Reply(content="SELECT 1 AS unknown")
    return reply


def make_submissions(server: Any, artifacts: Path, submissions: Path, llm: Any, *, scale: str = "tiny",
                     seeds: tuple[int, ...] = (42, 43, 44)) -> dict[str, Path]:
    """`submissions/{copycat,honest}` made by `heron bench` + `heron submit --runnable` on the public draw."""
    from heron_pipeline.questions import load_questions

    tool_dir = submissions.parent / "copycat-tool"
    tool_dir.mkdir(parents=True, exist_ok=True)
    shutil.copy(COPYCAT, tool_dir / "copycat.py")
    sys.path.insert(0, str(COPYCAT.parent))
    try:
        from copycat import write_public_answers
    finally:
        sys.path.remove(str(COPYCAT.parent))
    write_public_answers(tool_dir, load_questions(QUESTIONS_DIR))
    out = {}
    copy = BenchOptions(scale=scale, seeds=seeds, tools=("cli",), cli_command="python3 copycat.py",
                        cli_name="copycat", cli_cwd=str(tool_dir))
    result = run_bench(server, artifacts, copy)
    out["copycat"] = package(artifacts, "copycat", scale, list(seeds), submissions / "copycat",
                             manifest=result.manifest.path, runnable=True, tool_path=tool_dir, model=BOARD_MODEL)
    honest = BenchOptions(scale=scale, seeds=seeds, tools=("raw-llm",))
    result = run_bench(server, artifacts, honest, llm=llm, cache_dir=artifacts / "llm-cache")
    out["honest"] = package(artifacts, "raw-llm", scale, list(seeds), submissions / "honest",
                            manifest=result.manifest.path, runnable=True)
    for folder in out.values():  # the scripted submissions carry their own date and command
        meta = json.loads((folder / "meta.json").read_text())
        assert meta["class"] == "sql", meta
    return out
