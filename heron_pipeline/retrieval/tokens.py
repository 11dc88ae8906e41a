"""Identifier-aware tokenisation shared by the table documents and the queries.

Schema text and questions spell the same words differently: ``purchase_orders``, ``PurchaseOrder``,
``inventory.purchase_orders`` and "purchase orders" must meet on the same tokens. So a token is a
run of letters or digits after splitting on every non-alphanumeric character (``_``, ``.``, ``-``)
and at lower→upper case changes; tokens are lower-cased, English function words are dropped, and
each is reduced by a light plural stemmer (Harman's "S" stemmer, 1991: ``-ies → -y``, ``-es → -e``,
``-s → ''`` with its exceptions), so "orders" meets "order" and "categories" meets "category"
without the over-stemming of Porter/Snowball ("organisation" and "organ" stay apart). The choice
was measured on the benchmark's questions (docs/DECISIONS.md, issue 9).

Both sides go through the same function: a query is tokenised exactly like a document.
"""

from __future__ import annotations

import re
from typing import Iterable

#: Words that carry no table-finding signal. bm25s's English list, plus the question-template words
#: every question shares ("return", "each", ...), which would otherwise only add noise to scores.
STOPWORDS = frozenset("""
a an and are as at be but by for if in into is it no not of on or such that the their then there
these they this to was will with
all any each every from has have how its per than what when where which who whose
""".split())

_SPLIT = re.compile(r"[^0-9A-Za-z]+")
_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])")


def s_stem(word: str) -> str:
    """Harman's S stemmer: strip an English plural ending, nothing else."""
    if len(word) > 3 and word.endswith("ies") and not word.endswith(("eies", "aies")):
        return word[:-3] + "y"
    if len(word) > 3 and word.endswith("es") and not word.endswith(("aes", "ees", "oes")):
        return word[:-1]
    if len(word) > 2 and word.endswith("s") and not word.endswith(("us", "ss")):
        return word[:-1]
    return word


def split_identifier(text: str) -> list[str]:
    """The lower-case words of ``text``: ``inventory.purchase_orders`` → inventory, purchase, orders;
    ``PurchaseOrderID`` → purchase, order, id."""
    words = []
    for chunk in _SPLIT.split(text):
        if chunk:
            words.extend(w.lower() for w in _CAMEL.split(chunk) if w)
    return words


def tokenize(text: str, *, stem: bool = True, stopwords: Iterable[str] = STOPWORDS) -> list[str]:
    """Tokens of ``text`` for BM25 (see the module docstring); order and repeats are kept."""
    stop = stopwords if isinstance(stopwords, frozenset) else frozenset(stopwords)
    words = [w for w in split_identifier(text) if w not in stop]
    return [s_stem(w) for w in words] if stem else words
