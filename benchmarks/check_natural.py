"""Check every question's natural text against the natural rules and print its length figures.

Thin face over ``heron_pipeline.questions.natural_rules``: loads the questions (questions/ or the
folder given), checks that every question has a `natural` text, prints one line per broken rule and
the median / max word counts. Exit code 0 when every text passes, 1 otherwise.

Run: .venv/bin/python benchmarks/check_natural.py [questions folder]
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from heron_pipeline.questions import QUESTIONS_DIR, load_questions  # noqa: E402
from heron_pipeline.questions.natural_rules import MAX_WORDS, missing_ids, problem_lines, summarize  # noqa: E402


def main(argv: list[str]) -> int:
    questions = load_questions(Path(argv[0]) if argv else QUESTIONS_DIR)
    texts = {q.id: q.natural for q in questions if q.natural}
    missing = missing_ids(texts, [q.id for q in questions])
    summary = summarize(texts)
    lines = [*(f"{qid}: missing: no natural text" for qid in missing), *problem_lines(summary)]
    for line in lines:
        print(line)
    print(f"{summary.count} natural texts, median {summary.median_words:g} words, max {summary.max_words} "
          f"(limit {MAX_WORDS}); {len(lines)} problem(s)")
    return 1 if lines else 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
