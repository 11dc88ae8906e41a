"""The literals a gold query may hard-code, and the rule that judges each one.

A question is asked of every seeded state, so its SQL may only name values that exist in every
seed: anything else (an id, a generated customer name, a date picked from one seed's data) makes
the question silently seed-specific. The exact rule, by the literal's role (see
``sql_facts.Literal``):

* **strings** (compared or computed with) must be one of: an anchor tenant's name, slug, country
  or currency (``seeding/special.py``); a string of the reference data in the generation profiles
  (``schema_ddl/profiles/*.yaml``: ``data`` and ``fixed_rows`` values, ``weights`` labels,
  ``values`` / ``value`` and the labels named by ``null_when`` / ``null_unless``); an enum label or
  a string literal of a CHECK constraint in the catalog; or a string without letters or digits
  (separators, ``''``). Matching ignores case.
* **dates** (a string cast to date/timestamp, or any date-shaped string) must be the as-of date
  2026-06-30, the day after it 2026-07-01, or the first day of a month between 2023-01-01 and
  2026-07-01; a timestamp form is allowed only at midnight UTC.
* **numbers** must be written in digits in the question text, or be 0, 1 or 100, or be n/100 for an
  ``n %`` of the question. Numbers added to or subtracted from a date literal (``DATE '2026-06-30'
  - 89`` for "the last 90 days"), LIMIT/ORDER BY positions... see ``EXEMPT_ROLES``.
* **LIKE patterns** are allowed when their text without ``%``/``_`` is an allowed string or occurs in
  the question text.
* intervals, to_char formats, date_trunc/extract fields, JSON keys, ``AT TIME ZONE 'UTC'`` and
  string_agg separators are allowed as they are.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass
from decimal import Decimal
from functools import lru_cache
from pathlib import Path

from sqlglot import exp

from heron_pipeline import yaml_text
from heron_pipeline.catalog import Catalog, load_catalog
from heron_pipeline.config import PROJECT_ROOT
from heron_pipeline.questions.sql_facts import Literal, number_value
from heron_pipeline.seeding.special import ANCHOR_TENANTS

PROFILE_DIR = PROJECT_ROOT / "schema_ddl" / "profiles"
AS_OF = dt.date(2026, 6, 30)
FIRST_DAY = dt.date(2023, 1, 1)
ALWAYS_ALLOWED_NUMBERS = frozenset({Decimal(0), Decimal(1), Decimal(100)})
EXEMPT_ROLES = frozenset({"interval", "format", "field", "json-key", "separator", "position", "type-param",
                          "date-offset"})

_DATE_SHAPED = re.compile(
    r"^(\d{4}-\d{2}-\d{2})(?:[ T](\d{2}):(\d{2})(?::(\d{2})(?:\.0+)?)?)?\s*(\+00(?::?00)?|Z|UTC|\+00:00)?$")
_NUMBER_IN_TEXT = re.compile(r"(?<![\w.])(\d{1,3}(?:,\d{3})+|\d+)(\.\d+)?(\s*%| percent)?")


@dataclass(frozen=True)
class Vocabulary:
    """The strings every seed shares (lower-cased for case-insensitive matching)."""

    strings: frozenset[str]

    def allows_string(self, text: str) -> bool:
        return text.lower() in self.strings or not any(ch.isalnum() for ch in text)


def _profile_strings(profile_dir: Path) -> set[str]:
    found: set[str] = set()

    def scalars(value: object) -> None:
        if isinstance(value, str):
            found.add(value)
        elif isinstance(value, list):
            for v in value:
                scalars(v)
        elif isinstance(value, dict):
            for v in value.values():
                scalars(v)

    for path in sorted(profile_dir.glob("*.yaml")):
        document = yaml_text.safe_load(path.read_text(encoding="utf-8")) or {}
        for entry in document.values():
            if not isinstance(entry, dict):
                continue
            for rows_key in ("data", "fixed_rows"):
                scalars(entry.get(rows_key, []))
            for rule in (entry.get("columns") or {}).values():
                if not isinstance(rule, dict):
                    continue
                found.update(str(k) for k in (rule.get("weights") or {}))
                scalars(rule.get("values", []))
                if isinstance(rule.get("value"), str):
                    found.add(rule["value"])
                for key in ("null_when", "null_unless"):
                    scalars(rule.get(key) or {})
    return found


def _catalog_strings(catalog: Catalog) -> set[str]:
    found = {label for labels in catalog.enums.values() for label in labels}
    for table in catalog.tables.values():
        for check in table.checks:
            found.update(str(node.this) for node in check.expression.find_all(exp.Literal) if node.is_string)
    return found


@lru_cache(maxsize=4)
def load_vocabulary(profile_dir: Path = PROFILE_DIR) -> Vocabulary:
    """The allowed strings, from the anchors, the profiles and the catalog."""
    strings = {s for anchor in ANCHOR_TENANTS for s in anchor}
    strings |= _profile_strings(profile_dir)
    strings |= _catalog_strings(load_catalog())
    strings.add("UTC")
    return Vocabulary(frozenset(s.lower() for s in strings))


def numbers_in_text(text: str) -> set[Decimal]:
    """Numbers written in digits in `text` ("1,000" is 1000); an "n %" also allows n/100."""
    found: set[Decimal] = set()
    for whole, fraction, percent in _NUMBER_IN_TEXT.findall(text):
        value = Decimal(whole.replace(",", "") + (fraction or ""))
        found.add(value)
        if percent:
            found.add(value / 100)
    return found


def date_allowed(text: str) -> bool | None:
    """Whether a date-shaped string is an allowed date; None when it is not date-shaped."""
    match = _DATE_SHAPED.match(text.strip())
    if not match:
        return None
    try:
        day = dt.date.fromisoformat(match.group(1))
    except ValueError:
        return False
    if any(part not in (None, "00") for part in match.group(2, 3, 4)):
        return False
    if day in (AS_OF, AS_OF + dt.timedelta(days=1)):
        return True
    return day.day == 1 and FIRST_DAY <= day <= AS_OF + dt.timedelta(days=1)


def literal_problem(literal: Literal, question_text: str, vocabulary: Vocabulary) -> str | None:
    """Why `literal` is not allowed in the gold of a question worded `question_text`, or None."""
    if literal.role in EXEMPT_ROLES or (literal.role == "timezone" and literal.text.upper() == "UTC"):
        return None
    if literal.is_string:
        dated = date_allowed(literal.text)
        if dated is not None or literal.role == "date":
            return None if dated else f"date {literal.text!r} is neither the as-of date, 2026-07-01 nor a month start in 2023-01..2026-07"
        if literal.role == "like":
            core = literal.text.replace("%", "").replace("_", " ").strip()
            if vocabulary.allows_string(core) or core.lower() in question_text.lower():
                return None
            return f"LIKE pattern {literal.text!r} is neither reference data nor words of the question"
        if vocabulary.allows_string(literal.text):
            return None
        value = number_value(literal.text)
        if value is None:
            return f"string {literal.text!r} is not an anchor, reference value, enum or CHECK label"
    value = number_value(literal.text)
    if value is None:
        return f"literal {literal.text!r} is not understood"
    if value in ALWAYS_ALLOWED_NUMBERS or value in numbers_in_text(question_text):
        return None
    return f"number {literal.text} ({literal.role}) is not written in digits in the question"
