"""Set-Recall of the offline retrievers (bm25, bm25-fk) and of the ablations that explain them.

Prints Set-Recall@5/10/20/all overall and Set-Recall@10 per retrieval bucket, computed by the
retrieval board (``heron_pipeline.harness.retrieval_board``) from the tools' own prediction
records, for:

* ``baseline``: one BM25 over table name + column names + comments, no stemming, no field
  weights, no enum labels, no value links (the issue's 84.2 % reference point; tokenisation here
  splits snake_case, so the figure differs slightly);
* ablations of the default retriever, one component off at a time;
* the registered tools ``bm25`` and ``bm25-fk`` exactly as ``heron bench`` runs them.

No database is needed. ``--natural`` asks the questions' ``natural`` texts instead (issue 12);
questions without one are counted as misses and reported. ``--first-sentence`` asks only each
text's first sentence (up to its first "?"): a rough stand-in for shorter questions, labelled as
such, until the natural texts exist.

Run: .venv/bin/python benchmarks/bench_retrieval.py [--natural] [--first-sentence] [--questions DIR]
"""

from __future__ import annotations

import argparse
import re
import sys
from dataclasses import dataclass, replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from heron_pipeline.adapters import PredictionContext, create_adapter  # noqa: E402
from heron_pipeline.adapters.bm25 import BM25Adapter  # noqa: E402
from heron_pipeline.catalog import load_catalog  # noqa: E402
from heron_pipeline.config import PROJECT_ROOT  # noqa: E402
from heron_pipeline.harness.retrieval_board import retrieval_standings  # noqa: E402
from heron_pipeline.predictions.make import make_predictions  # noqa: E402
from heron_pipeline.questions.model import QuestionError, load_questions  # noqa: E402
from heron_pipeline.retrieval import DEFAULT_WEIGHTS, RetrieverConfig  # noqa: E402

BASELINE = RetrieverConfig(weights={"name": 1.0, "columns": 1.0, "comments": 1.0}, stem=False, link_values=False)
DEFAULT = RetrieverConfig()


def variants() -> dict[str, BM25Adapter]:
    """Label → adapter: the baseline, one-off ablations of the default, and the two tools."""
    off = {
        "baseline": BASELINE,
        "default -value links": replace(DEFAULT, link_values=False),
        "default -stemming": replace(DEFAULT, stem=False),
        "default -enum labels": replace(DEFAULT, weights={**DEFAULT_WEIGHTS, "enums": 0.0}),
        "default -comments": replace(DEFAULT, weights={**DEFAULT_WEIGHTS, "comments": 0.0}),
        "default -name weight (1)": replace(DEFAULT, weights={**DEFAULT_WEIGHTS, "name": 1.0}),
    }
    tools: dict[str, BM25Adapter] = {}
    for label, config in off.items():
        tools[label] = BM25Adapter(config=config)
        tools[f"{label} +fk"] = BM25Adapter(config=config, expand=True)
    tools["bm25"] = create_adapter("bm25")  # type: ignore[assignment]
    tools["bm25-fk"] = create_adapter("bm25-fk")  # type: ignore[assignment]
    return tools


@dataclass(frozen=True)
class _Shortened:
    """A question seen through its first sentence only (``--first-sentence``)."""

    id: str
    question: str
    natural: str | None


def first_sentence(text: str) -> str:
    """``text`` up to and including its first question mark (all of it when there is none)."""
    flat = " ".join(text.split())
    match = re.match(r"(.+?\?)", flat)
    return match.group(1) if match else flat


def _fmt(value: float | None) -> str:
    return "   —" if value is None else f"{value:5.1f}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--natural", action="store_true", help="ask the questions' natural texts (issue 12)")
    parser.add_argument("--first-sentence", action="store_true",
                        help="ask only each text's first sentence (a proxy for shorter questions)")
    parser.add_argument("--questions", type=Path, default=PROJECT_ROOT / "questions",
                        help="folder of question files (default: questions/)")
    args = parser.parse_args(argv)
    try:
        questions = load_questions(args.questions)
    except QuestionError as err:
        print(f"--questions {args.questions}: {err}", file=sys.stderr)
        return 2
    if not questions:
        print(f"--questions {args.questions}: no question files found", file=sys.stderr)
        return 2
    mode = "natural" if args.natural else "full"
    if mode == "natural":
        missing = [q.id for q in questions if not getattr(q, "natural", None)]
        if len(missing) == len(questions):
            print("--natural: no question has a natural text yet (issue 12); nothing to measure", file=sys.stderr)
            return 2
        if missing:
            print(f"note: {len(missing)} question(s) without a natural text count as misses: {', '.join(missing)}")
    context = PredictionContext(scale="tiny", n=1, catalog=load_catalog(), options={"question_mode": mode})
    tools = variants()
    asked = questions
    if args.first_sentence:
        asked = [_Shortened(q.id, first_sentence(q.question),
                            first_sentence(q.natural) if getattr(q, "natural", None) else None) for q in questions]
    predictions = {label: make_predictions(adapter, asked, context) for label, adapter in tools.items()}
    board = retrieval_standings(predictions, questions, question_mode=mode)
    by_tool = {row["tool"]: row for row in board}
    buckets = sorted({b for row in board for b in row["by_bucket"]})
    if args.first_sentence:
        print("PROXY: first sentence of each text only (not the benchmark's question texts)")
    print(f"Set-Recall (%) of {len(questions)} questions, question mode {mode}; "
          f"per bucket: @10 (n questions)")
    header = f"{'retriever':32s} {'@5':>5} {'@10':>5} {'@20':>5} {'@all':>5}  " + "  ".join(
        f"{b}({by_tool['bm25']['by_bucket'][b]['questions']})".rjust(16) for b in buckets)
    print(header)
    print("-" * len(header))
    for label in tools:
        row = by_tool[label]
        recall = row["set_recall"]
        print(f"{label:32s} " + " ".join(_fmt(recall[k]) for k in ("@5", "@10", "@20", "@all")) + "  "
              + "  ".join(_fmt(row["by_bucket"][b]["@10"]).rjust(16) for b in buckets))
    best = max(("bm25", "bm25-fk"), key=lambda t: by_tool[t]["set_recall"]["@10"])
    print(f"\nbest offline tool: {best} at {by_tool[best]['set_recall']['@10']:.1f} % @10 "
          f"(baseline {by_tool['baseline']['set_recall']['@10']:.1f} %)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
