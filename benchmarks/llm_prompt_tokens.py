"""Prompt tokens per question of every LLM adapter, counted by the scripted server, and a rerun's requests.

Runs raw-llm (full and compact schema), retrieval, rag, mac-sql and din-sql over all 100 questions
against the scripted OpenAI-compatible server of the tests (tests/llm/fake_openai.py) on
127.0.0.1, through the real client. The scripted model answers every step in the format the step
asks for, with the question's gold tables / SQL, so every step runs (no fallbacks). The server
counts tokens as ceil(characters of the messages / 4) — the usual ~4 characters per token of
OpenAI's tokenizers on English and SQL; real tokenizers differ by some per cent. No database:
mac-sql's refiner has no state to execute on and is skipped (with the gold SQL it would not be
called, the query runs and returns rows). Then the same run again: its request count must be 0.

Run: .venv/bin/python benchmarks/llm_prompt_tokens.py
"""

from __future__ import annotations

import json
import statistics
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests" / "pipeline"))

from fake_openai import FakeOpenAI, Reply, prompt_tokens_of  # noqa: E402

from heron_pipeline.adapters import PredictionContext  # noqa: E402
from heron_pipeline.adapters.din_sql import CLASSIFY, LINKING  # noqa: E402
from heron_pipeline.adapters.mac_sql import SELECTOR  # noqa: E402
from heron_pipeline.adapters.prompt import render_schema  # noqa: E402
from heron_pipeline.catalog import load_catalog  # noqa: E402
from heron_pipeline.llm import LLMSettings  # noqa: E402
from heron_pipeline.predictions.make import PredictOptions, predict_tool  # noqa: E402
from heron_pipeline.questions import QUESTIONS_DIR, load_questions  # noqa: E402
from heron_pipeline.questions.conventions import load_conventions  # noqa: E402

RUNS = [("raw-llm", "full"), ("raw-llm", "compact"), ("retrieval", "full"), ("rag", "full"), ("mac-sql", "full"),
        ("din-sql", "full")]


def gold_model(questions):
    by_text = {" ".join(q.question.split()): q for q in questions}

    def reply(body: dict) -> Reply:
        last, system = body["messages"][-1]["content"], body["messages"][0]["content"]
        q = next(q for text, q in by_text.items() if text in last)
        if system.startswith((LINKING, SELECTOR)):
            return Reply(content=json.dumps({"tables": list(q.gold_tables)}))
        if system.startswith(CLASSIFY):
            return Reply(content='{"class": "non-nested"}')
        return Reply(content=f"```sql\n{q.gold_sql}\n```")
    return reply


def main() -> None:
    questions = load_questions(QUESTIONS_DIR)
    catalog = load_catalog()
    context = PredictionContext(scale="tiny", catalog=catalog, conventions=load_conventions(QUESTIONS_DIR).text)
    for style in ("full", "compact"):
        text = render_schema(catalog, style)
        print(f"schema rendering {style}: {len(text):,} characters, {(len(text) + 3) // 4:,} tokens (chars/4)")
    print()
    header = f"{'tool':<22}{'req/q':>7}{'prompt tok/q mean':>19}{'median':>9}{'max':>9}{'compl tok/q':>13}" \
             f"{'rerun requests':>16}"
    print(header)
    print("-" * len(header))
    with tempfile.TemporaryDirectory() as cache, FakeOpenAI() as fake:
        fake.responder = gold_model(questions)
        llm = LLMSettings(model="bench-model", base_url=fake.url(), timeout_s=60, max_retries=0)
        for tool, schema in RUNS:
            options = PredictOptions(llm=llm, cache_dir=Path(cache) / f"{tool}-{schema}", schema=schema)
            fake.requests.clear()
            fake.served_usage.clear()
            try:
                first = predict_tool(tool, questions, context, options)
            except ValueError as err:
                print(f"{tool + ' (' + schema + ')':<22} not run: {err}")
                continue
            per_question: dict[str, int] = {}
            served = sum(u["prompt_tokens"] for u in fake.served_usage)
            assert served == sum(prompt_tokens_of(body) for _path, body in fake.requests)
            for r in first.records:
                per_question[r.question_id] = per_question.get(r.question_id, 0) + (r.prompt_tokens or 0)
            assert sum(per_question.values()) == served  # heron's records sum to the server's own count
            requests = len(fake.requests)
            again = predict_tool(tool, questions, context, options)
            rerun = len(fake.requests) - requests
            assert again.records == first.records
            values = list(per_question.values())
            completion = sum(r.completion_tokens or 0 for r in first.records) / len(questions)
            print(f"{tool + ' (' + schema + ')':<22}{requests / len(questions):>7.1f}{statistics.mean(values):>19,.0f}"
                  f"{statistics.median(values):>9,.0f}{max(values):>9,}{completion:>13,.0f}{rerun:>16}")


if __name__ == "__main__":
    main()
