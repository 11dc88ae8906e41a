"""Tokenisation: a table of hand-checked cases (identifiers, stemming, stop words)."""

from __future__ import annotations

import pytest
from hypothesis import given, strategies as st

from heron_pipeline.retrieval.tokens import s_stem, split_identifier, tokenize

SPLITS = [
    ("inventory.purchase_orders", ["inventory", "purchase", "orders"]),
    ("PurchaseOrderID", ["purchase", "order", "id"]),
    ("order_lines.unit_price", ["order", "lines", "unit", "price"]),
    ("HTTPStatus", ["http", "status"]),
    ("sku-123 / 2025", ["sku", "123", "2025"]),
    ("  ", []),
]


@pytest.mark.parametrize("text, words", SPLITS)
def test_split_identifier(text: str, words: list[str]) -> None:
    assert split_identifier(text) == words


STEMS = [
    ("orders", "order"), ("categories", "category"), ("statuses", "statuse"), ("status", "status"),
    ("address", "address"), ("boxes", "boxe"), ("shoes", "shoe"), ("keys", "key"), ("series", "sery"),
    ("gas", "ga"), ("is", "is"), ("us", "us"), ("days", "day"), ("agreees", "agreee"),
]


@pytest.mark.parametrize("word, stem", STEMS)
def test_s_stemmer(word: str, stem: str) -> None:
    assert s_stem(word) == stem


def test_tokenize_drops_function_words_and_stems_both_sides_alike() -> None:
    assert tokenize("How many purchase orders were raised for each supplier?") == [
        "many", "purchase", "order", "were", "raised", "supplier"]
    assert tokenize("inventory.purchase_orders") == ["inventory", "purchase", "order"]
    assert tokenize("Orders", stem=False) == ["orders"]


@given(st.lists(st.sampled_from(["order", "lines", "Unit", "price", "_", ".", " ", "ID"]), max_size=12))
def test_tokens_are_lower_case_alphanumeric(parts: list[str]) -> None:
    for token in tokenize("".join(parts)):
        assert token and token.isalnum() and token == token.lower()
