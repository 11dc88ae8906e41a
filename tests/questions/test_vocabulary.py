"""The literal rule: which values a gold query may hard-code."""

from __future__ import annotations

from decimal import Decimal

import pytest

from heron_pipeline.questions.sql_facts import Literal
from heron_pipeline.questions.vocabulary import date_allowed, literal_problem, load_vocabulary, numbers_in_text

QUESTION = "Which 5 customers of Halyard Outfitters spent more than 1,000 USD, over 20 % of the total, in 2025?"


@pytest.mark.parametrize(("literal", "allowed"), [
    (Literal("Halyard Outfitters", True, "value"), True),  # anchor name
    (Literal("orchard-vine", True, "value"), True),  # anchor slug
    (Literal("USD", True, "value"), True),  # reference data (currencies)
    (Literal("Sales Rep", True, "value"), True),  # fixed_rows of auth.roles
    (Literal("paid", True, "value"), True),  # enum label
    (Literal("PAID", True, "value"), True),  # case-insensitive
    (Literal(", ", True, "value"), True),  # no letters or digits
    (Literal("Acme Corp", True, "value"), False),  # a generated name exists in one seed only
    (Literal("2026-06-30", True, "date"), True),
    (Literal("2026-07-01 00:00:00+00", True, "date"), True),
    (Literal("2025-04-01", True, "date"), True),  # a month start
    (Literal("2026-04-02", True, "date"), False),  # as-of minus 89, computed by hand
    (Literal("2025-01-01 12:00:00", True, "date"), False),  # not midnight
    (Literal("2022-12-01", True, "date"), False),  # before the window
    (Literal("2025-03-17", True, "value"), False),  # date-shaped strings follow the date rule
    (Literal("5", False, "limit"), True),
    (Literal("1000", False, "value"), True),  # "1,000"
    (Literal("0.2", False, "value"), True),  # "20 %"
    (Literal("2025", False, "value"), True),
    (Literal("100", False, "value"), True),
    (Literal("100.0", False, "value"), True),
    (Literal("7", False, "value"), False),
    (Literal("10", False, "limit"), False),
    (Literal("89", False, "date-offset"), True),
    (Literal("90", True, "interval"), True),
    (Literal("1", False, "position"), True),
    (Literal("%Halyard%", True, "like"), True),
    (Literal("%customers%", True, "like"), True),  # words of the question
    (Literal("%zebra%", True, "like"), False),
    (Literal("Europe/Berlin", True, "timezone"), True),  # reference data (time zones)
    (Literal("Mars/Olympus", True, "timezone"), False),
])
def test_literal_rule(literal: Literal, allowed: bool) -> None:
    assert (literal_problem(literal, QUESTION, load_vocabulary()) is None) is allowed


def test_numbers_in_text() -> None:
    assert numbers_in_text(QUESTION) == {Decimal(5), Decimal(1000), Decimal(20), Decimal("0.2"), Decimal(2025)}


def test_date_rule_ignores_non_dates() -> None:
    assert date_allowed("paid") is None
