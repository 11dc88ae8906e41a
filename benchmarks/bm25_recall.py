"""Recall@10 of a plain BM25 over the schema's own text, with a question text as the query.

How much schema linking a question text hands over: each table is one document (its qualified
name, comment, column names and column comments, lower-cased and split on non-alphanumerics, so
snake_case splits into words); each question's text is the query; a gold table is found when it
ranks in the top 10 (score ties by table name). Reported micro (over all gold tables) and macro
(mean per question), overall and per retrieval bucket, for the full and the natural texts in the
same run. k1 = 1.5, b = 0.75. The issue's 84.2 % came from another BM25 set-up; compare the two
modes within one run of this script, not across scripts.

Run: .venv/bin/python benchmarks/bm25_recall.py
"""

from __future__ import annotations

import math
import re
import statistics
import sys
from collections import Counter, defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from heron_pipeline.catalog.ddl import load_catalog  # noqa: E402
from heron_pipeline.questions import QUESTIONS_DIR, load_questions  # noqa: E402
from heron_pipeline.questions.natural_rules import load_natural_texts  # noqa: E402

K1, B, TOP = 1.5, 0.75, 10


def tokens(text: str | None) -> list[str]:
    return re.findall(r"[a-z0-9]+", (text or "").lower())


def table_documents() -> dict[str, list[str]]:
    docs = {}
    for name, table in load_catalog().tables.items():
        parts = [name.replace(".", " "), table.comment or ""]
        for column in table.columns:
            parts += [column.name, column.comment or ""]
        docs[name] = tokens(" ".join(parts))
    return docs


def ranker(docs: dict[str, list[str]]):
    count, avgdl = len(docs), sum(map(len, docs.values())) / len(docs)
    df = Counter(w for d in docs.values() for w in set(d))
    tf = {name: Counter(d) for name, d in docs.items()}

    def top(query: str) -> list[str]:
        words = tokens(query)
        scores = {}
        for name, freq in tf.items():
            norm = K1 * (1 - B + B * len(docs[name]) / avgdl)
            scores[name] = sum(math.log(1 + (count - df[w] + 0.5) / (df[w] + 0.5)) * freq[w] * (K1 + 1)
                               / (freq[w] + norm) for w in words if w in freq)
        return sorted(scores, key=lambda n: (-scores[n], n))[:TOP]
    return top


def main() -> int:
    top = ranker(table_documents())
    questions = load_questions(QUESTIONS_DIR)
    natural = load_natural_texts(QUESTIONS_DIR / "natural.yaml")
    for mode, text_of in (("full", lambda q: q.question), ("natural", lambda q: natural[q.id])):
        hits = defaultdict(lambda: [0, 0])
        shares = defaultdict(list)
        for q in questions:
            found = set(top(text_of(q)))
            share = sum(t in found for t in q.gold_tables)
            for bucket in ("all", q.retrieval.value):
                hits[bucket][0] += share
                hits[bucket][1] += len(q.gold_tables)
                shares[bucket].append(share / len(q.gold_tables))
        cells = [f"{b} {100 * h / n:.1f} / {100 * statistics.mean(shares[b]):.1f}" for b, (h, n) in hits.items()]
        print(f"{mode:8} Recall@{TOP} micro / macro: " + "; ".join(cells))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
