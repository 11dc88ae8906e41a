"""Per-cause tables of raw-llm and retrieval run against the scripted OpenAI-compatible server.

The tests' scripted server (tests/llm/fake_openai.py, real HTTP) plays the model. For each question
it recognises in the prompt (full or natural text) it answers one of six ways, by the question's
position plus an offset per tool (raw-llm 0, retrieval 3, recognised by the retrieval adapter's
system note), so the two tools get different wrong answers:

0 the gold SQL; 1 the gold's first trap mutant not set aside as equivalent (``mutants.answers``:
"forgot the trap"); 2 the gold without its last output column; 3 the gold with a table swapped for
a look-alike (tests/diagnosis/wrong_tool.py); 4 a syntax error (the gold with ``FROM FROM``); 5 the
gold's first flipped comparison (a plain near miss, no trap).

The causes below therefore reflect this script, not a real model's mistakes; what the run shows is
that every wrong answer gets one cause through the real bench (``heron bench``: predictions over
HTTP, sandbox, stored mutant answers, standings) and that ``heron explain`` shows it.

Run: HERON_PORT=… HERON_DATA_DIR=… PYTHONPATH=. .venv/bin/python benchmarks/cause_tables_scripted.py OUT.md
     [scale] [seeds]
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import sqlglot  # noqa: E402

from heron_pipeline.adapters.retrieval_llm import SUBSET_NOTE  # noqa: E402
from heron_pipeline.catalog import load_catalog  # noqa: E402
from heron_pipeline.cli import main as heron  # noqa: E402
from heron_pipeline.config import load_settings  # noqa: E402
from heron_pipeline.mutants.answers import trap_mutants  # noqa: E402
from heron_pipeline.mutants.generate import mutants  # noqa: E402
from heron_pipeline.questions import QUESTIONS_DIR, load_questions  # noqa: E402
from tests.diagnosis.wrong_tool import with_look_alike, without_last_column  # noqa: E402
from tests.llm.fake_openai import FakeOpenAI, Reply  # noqa: E402

TOOLS = {"raw-llm": 0, "retrieval": 3}
WAYS = ("gold", "first trap mutant", "last column dropped", "look-alike table", "syntax error",
        "flipped comparison")


def scripted_sql(way: int, gold_sql: str, catalog) -> str:
    """The scripted model's SQL for one question (see the module docstring)."""
    if way == 1:
        found = trap_mutants(gold_sql, catalog)
        return found[0].sql if found else gold_sql
    if way in (2, 3):
        tree = sqlglot.parse_one(gold_sql, read="postgres")
        return (without_last_column if way == 2 else with_look_alike)(tree).sql(dialect="postgres")
    if way == 4:
        return gold_sql.replace("FROM", "FROM FROM", 1)
    if way == 5:
        flipped = [m for m in mutants(gold_sql) if m.operator == "flip-comparison"]
        return flipped[0].sql if flipped else gold_sql
    return gold_sql


def main(out: str, scale: str = "tiny", seeds: str = "42,43,44") -> int:
    questions = load_questions(QUESTIONS_DIR)
    catalog = load_catalog()
    texts = [(" ".join(q.question.split()), " ".join((q.natural or q.question).split()), i, q)
             for i, q in enumerate(questions)]
    ways: dict[tuple[str, str], str] = {}

    def reply(body: dict) -> Reply:
        prompt = " ".join(body["messages"][-1]["content"].split())
        tool = "retrieval" if SUBSET_NOTE in body["messages"][0]["content"] else "raw-llm"
        # the longest text found wins (one question's text may contain a shorter one's)
        _, i, q = max(((len(full), i, q) for full, natural, i, q in texts if full in prompt or natural in prompt),
                      key=lambda t: t[0])
        way = (i + TOOLS[tool]) % len(WAYS)
        ways[(tool, q.id)] = WAYS[way]
        return Reply(content=f"```sql\n{scripted_sql(way, q.gold_sql, catalog)}\n```")

    with FakeOpenAI() as fake:
        fake.responder = reply
        os.environ.update(HERON_LLM_BASE_URL=fake.url(), HERON_LLM_MODEL="scripted", HERON_LLM_API_KEY="none",
                          HERON_LLM_MAX_RETRIES="0")
        code = heron(["bench", "--scale", scale, "--seeds", seeds, "--tools", ",".join(TOOLS)])
    if code != 0:
        print(f"heron bench exited {code}", file=sys.stderr)
        return code
    settings = load_settings()
    from heron_pipeline.bench.run import recorded_runs

    _path, run = max(recorded_runs(settings.artifacts), key=lambda r: (r[1].get("finished_at") or "", r[0].name))
    board = json.loads(Path(run["standings"]["standings"]["path"]).read_text())
    lines = [f"# Causes of raw-llm and retrieval on the scripted server ({scale} {seeds})", "",
             "Made by `benchmarks/cause_tables_scripted.py` (its docstring says how the scripted model answers:",
             "the causes follow from that script, not from a real model). Run manifest "
             f"`{_path.name}`, question mode `{run['options'].get('question_mode')}`.", ""]
    for entry in run["scores"]:
        if entry["status"] == "scored":
            lines.append(f"- {entry['tool']} seed {entry['seed']}: EX@1 {entry['ex1']:.1f}, wrong by cause on this "
                         f"state {entry.get('wrong_by_cause')}, mutant answers "
                         f"`{(entry.get('mutant_answers') or {}).get('digest', '')[:12]}`")
    lines.append("")
    for tool in board["tools"]:
        if tool["tool"] not in TOOLS:
            continue
        lines += [f"## {tool['tool']}: multi-state EX@1 {tool['multi_state_ex1']:.1f}, {tool['questions']} questions",
                  "", "| cause | questions |", "|---|---|",
                  *(f"| {c} | {n} |" for c, n in tool["wrong_by_cause"].items()),
                  f"| **total wrong** | {sum(tool['wrong_by_cause'].values())} |", ""]
        scripted = {}
        for (t, qid), way in ways.items():
            if t == tool["tool"]:
                scripted[way] = scripted.get(way, 0) + 1
        lines += ["scripted answers: " + ", ".join(f"{w} {scripted.get(w, 0)}" for w in WAYS), ""]
        lines += explain_each_cause(tool["tool"], run, scale)
    Path(out).write_text("\n".join(lines) + "\n", encoding="utf-8")
    print(f"wrote {out}")
    return 0


def explain_each_cause(tool: str, run: dict, scale: str) -> list[str]:
    """``heron explain`` output for the first question (by id) of each cause the tool's records have."""
    from heron_pipeline.artifacts import ArtifactRef, read_jsonl

    first: dict[str, tuple[str, int]] = {}
    for entry in sorted((s for s in run["scores"] if s["tool"] == tool and s["status"] == "scored"),
                        key=lambda s: s["seed"]):
        ref = ArtifactRef.from_json(entry["scores"])
        ref.read_bytes()
        for r in sorted(read_jsonl(ref.path), key=lambda r: r["question_id"]):
            if r["sample"] == 0 and not r["correct"]:
                first.setdefault(r["cause"] or r["error_class"], (r["question_id"], entry["seed"]))
    lines = []
    for cause, (qid, seed) in sorted(first.items()):
        buffer = io.StringIO()
        with contextlib.redirect_stdout(buffer):
            heron(["explain", "--tool", tool, "--question", qid, "--scale", scale, "--seed", str(seed),
                   "--question-mode", run["options"].get("question_mode", "full"), "--rows", "3"])
        lines += [f"### {tool} · {cause} · `heron explain --tool {tool} --question {qid} --seed {seed}`", "",
                  "```", buffer.getvalue().rstrip(), "```", ""]
    return lines


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:]))
