"""The rules a question's ``natural`` text must obey, as one pure function.

The natural text is how a business user would ask the question. It must not hand the tool the
schema linking or the SQL (that is what the ``question`` text does and what natural mode exists to
stop), so a program checks the parts that can be checked: length, no schema identifiers, no SQL
syntax. Whether the text still *determines* the answer is proved by a second author, not here.

Word counting splits on whitespace, so "H1 2026" is two words and "on-hold" one: the limit is
about what a reader sees, not about tokens.
"""

from __future__ import annotations

import re
import statistics
from dataclasses import dataclass
from typing import Iterable, Mapping

MAX_WORDS = 25

# Upper-case SQL keywords. Business abbreviations (USD, SKU, MFA, API, SSO, CSAT, MRR, RMA, UTM,
# HTTP, ISO, PO) are not SQL keywords and stay allowed; so does an ordinary lower-case "and".
SQL_KEYWORDS = frozenset({
    "SELECT", "FROM", "WHERE", "JOIN", "LEFT", "RIGHT", "INNER", "OUTER", "FULL", "CROSS", "ON",
    "USING", "GROUP", "ORDER", "BY", "HAVING", "LIMIT", "OFFSET", "UNION", "INTERSECT", "EXCEPT",
    "DISTINCT", "AS", "AND", "OR", "NOT", "IN", "IS", "NULL", "BETWEEN", "LIKE", "ILIKE", "EXISTS",
    "CASE", "WHEN", "THEN", "ELSE", "END", "WITH", "OVER", "PARTITION", "ASC", "DESC", "NULLS",
    "COUNT", "SUM", "AVG", "MIN", "MAX", "COALESCE", "CAST", "INTERVAL", "FILTER", "RANK",
    "ROW_NUMBER", "LAG", "LEAD", "INSERT", "UPDATE", "DELETE", "VALUES", "TRUE", "FALSE",
})
SQL_PHRASES = ("group by", "order by", "left join", "inner join")

# "e.g." and "i.e." are prose, not qualified identifiers.
_ABBREVIATIONS = frozenset({"e.g", "i.e", "a.m", "p.m", "u.s", "u.k"})
_SNAKE = re.compile(r"\w*[A-Za-z0-9]_\w*|_[A-Za-z0-9]\w*")
_QUALIFIED = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\.[A-Za-z_][A-Za-z0-9_]*")
_WORD_CHARS = re.compile(r"[A-Za-z_]+")


@dataclass(frozen=True)
class NaturalProblem:
    """One broken rule of a natural text: the rule's name and what was found."""

    rule: str
    detail: str


def word_count(text: str) -> int:
    """Number of whitespace-separated words."""
    return len(text.split())


def natural_problems(text: str) -> list[NaturalProblem]:
    """Every rule ``text`` breaks (empty list when it passes).

    Rules: ``empty``, ``length`` (at most ``MAX_WORDS`` words), ``snake-case`` (an identifier with
    an underscore), ``qualified`` (``schema.table`` or ``alias.column``), ``sql-keyword`` (an
    upper-case SQL keyword as a whole word), ``sql-phrase`` (one of ``SQL_PHRASES`` in any case).
    """
    if not text or not text.strip():
        return [NaturalProblem("empty", "the natural text is empty")]
    problems = []
    words = word_count(text)
    if words > MAX_WORDS:
        problems.append(NaturalProblem("length", f"{words} words, at most {MAX_WORDS}"))
    for match in _SNAKE.finditer(text):
        problems.append(NaturalProblem("snake-case", match.group(0)))
    for match in _QUALIFIED.finditer(text):
        if match.group(0).lower() not in _ABBREVIATIONS:
            problems.append(NaturalProblem("qualified", match.group(0)))
    for match in _WORD_CHARS.finditer(text):
        token = match.group(0)
        if token in SQL_KEYWORDS:
            problems.append(NaturalProblem("sql-keyword", token))
    folded = " ".join(text.lower().split())
    for phrase in SQL_PHRASES:
        if phrase in folded:
            problems.append(NaturalProblem("sql-phrase", phrase))
    return problems


@dataclass(frozen=True)
class NaturalSummary:
    """Length figures over a set of natural texts, and the texts that break a rule."""

    count: int
    median_words: float
    max_words: int
    problems: Mapping[str, list[NaturalProblem]]


def summarize(texts: Mapping[str, str]) -> NaturalSummary:
    """Median and max word counts of ``texts`` (question id -> text) and every text's problems."""
    counts = [word_count(t) for t in texts.values()]
    found = {qid: p for qid, t in texts.items() if (p := natural_problems(t))}
    return NaturalSummary(len(counts), statistics.median(counts) if counts else 0.0,
                          max(counts, default=0), found)


def missing_ids(texts: Mapping[str, str], question_ids: Iterable[str]) -> list[str]:
    """Question ids without a natural text, in the given order."""
    return [qid for qid in question_ids if qid not in texts]


def problem_lines(summary: NaturalSummary) -> Iterable[str]:
    """One line per problem, ``<id>: <rule>: <detail>``."""
    for qid, problems in sorted(summary.problems.items()):
        for problem in problems:
            yield f"{qid}: {problem.rule}: {problem.detail}"
