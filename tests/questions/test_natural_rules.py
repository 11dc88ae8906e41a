"""The natural-text rules: a table of hand-checked texts, a property for the length rule, and the
real file (all 100 present, all passing, median within the issue's 15 words)."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from heron_pipeline.questions import QUESTIONS_DIR, load_questions
from heron_pipeline.questions.natural_rules import (MAX_WORDS, missing_ids, natural_problems, summarize, word_count)


def _rules(text: str) -> list[str]:
    return [p.rule for p in natural_problems(text)]


@pytest.mark.parametrize(("text", "rules"), [
    ("How many products are currently active?", []),
    ("Active subscriptions per currency: count and total MRR.", []),  # upper-case abbreviation, not SQL
    ("Top 5 customers by USD revenue, e.g. from paid invoices, i.e. not drafts.", []),  # e.g./i.e. are prose
    ("Orders by status and amount, most first.", []),  # table/column words are fine
    ("Open, pending or on-hold tickets per priority.", []),  # hyphen, not underscore
    ("Revenue in 2.5 % steps, Q2 2026.", []),  # a decimal number is not a qualified name
    ("Rows of order_lines per order.", ["snake-case"]),
    ("Orders with ordered_at in 2025.", ["snake-case"]),
    ("Tickets on_hold per queue.", ["snake-case"]),
    ("Count rows of crm.accounts per tier.", ["qualified"]),
    ("Sum t.amount per tenant.", ["qualified"]),
    ("Customers WHERE tier is key.", ["sql-keyword"]),
    ("SELECT the top 5 customers.", ["sql-keyword"]),
    ("Customers AND their orders.", ["sql-keyword"]),
    ("Customers with an empty NULL tier.", ["sql-keyword"]),
    ("Orders group by status.", ["sql-phrase"]),
    ("Orders, Order By date.", ["sql-phrase"]),
    ("Customers left  join orders.", ["sql-phrase"]),  # whitespace runs are folded
    ("Customers inner join orders.", ["sql-phrase"]),
    ("Customers where the grouping is by tier.", []),  # lower-case "where"/"by" are words
    ("", ["empty"]),
    ("   ", ["empty"]),
    (" ".join(["word"] * (MAX_WORDS + 1)), ["length"]),
    (" ".join(["word"] * MAX_WORDS), []),
    ("SELECT order_id FROM orders.orders GROUP BY 1", ["snake-case", "qualified", "sql-keyword", "sql-keyword",
                                                       "sql-keyword", "sql-keyword", "sql-phrase"]),
])
def test_natural_problems_table(text: str, rules: list[str]) -> None:
    assert sorted(_rules(text)) == sorted(rules)


@given(st.lists(st.sampled_from(["orders", "per", "month", "2025", "most", "first", "Q2", "USD"]),
                min_size=1, max_size=40))
def test_length_rule_matches_the_word_count(words: list[str]) -> None:
    text = " ".join(words)
    assert word_count(text) == len(words)
    assert ("length" in _rules(text)) == (len(words) > MAX_WORDS)


def test_summary_figures_and_problems() -> None:
    summary = summarize({"q001": "one two three", "q002": "one", "q003": "a b c d e", "q004": "rows of crm.accounts"})
    assert (summary.count, summary.median_words, summary.max_words) == (4, 3.0, 5)
    assert list(summary.problems) == ["q004"] and summary.problems["q004"][0].rule == "qualified"


def test_every_question_has_a_passing_natural_text() -> None:
    questions = load_questions(QUESTIONS_DIR)
    texts = {q.id: q.natural for q in questions if q.natural}
    ids = [q.id for q in questions]
    assert missing_ids(texts, ids) == [] and sorted(texts) == sorted(ids)
    summary = summarize(texts)
    assert summary.problems == {}
    assert summary.median_words <= 15 and summary.max_words <= MAX_WORDS
