"""Slots: the constants a question's texts and SQL depend on, and what each may be drawn as.

A question of the public set names one tenant, one period, one N of a top-N… A *slot* declares such
a constant: its kind, its public value (the one the question files hold) and the values it may take
in another draw. The question files stay exactly as written — they are the public set, byte for
byte — and ``questions/slots/slots.yaml`` says which of their constants are slots:

    q007:
      tenant: {kind: tenant, public: Kestrel Foodservice}
    q002:
      period: {kind: years, values: [-2, -1]}      # a shift of every date and year, in whole years
    q005:
      days: {kind: days, public: 30, values: [14, 60, 90]}   # "last N days": SQL holds N - 1
    q010:
      top: {kind: number, public: 5, values: [3, 4, 6, 8, 10]}
    q002:
      outcome: {kind: choice, public: won, values: {won: won, lost: lost}}  # SQL label: text form

A draw never pastes a value into SQL text. The SQL is tokenized (sqlglot's PostgreSQL tokenizer), the
string and number tokens that carry the public value are found, and each is replaced, span for span,
by ``sql_literal`` of the drawn value — the one function that renders a value as a SQL literal. So a
comment or an identifier that looks like a value is never touched, and a value holding a quote or a
backslash is still one literal. Texts are rewritten by whole-word matches of the public value's text
forms. Every slot must change the gold, the alt SQL and both texts at its public value (checked when
the slots are loaded): a slot that moved the SQL but not the words would make a question whose English
no longer pins its answer.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable, Mapping

import yaml

from heron_pipeline import yaml_text
from heron_pipeline.questions.model import Question, QuestionError

SLOTS_FILE = Path("slots") / "slots.yaml"
KINDS = ("tenant", "years", "days", "number", "choice")
#: The first and the last day a drawn date may fall on: the generated data's window (the as-of date
#: is 2026-06-30, so 2026-07-01 is the exclusive end of every period that reaches it).
FIRST_DAY = dt.date(2023, 1, 1)
LAST_DAY = dt.date(2026, 7, 1)
AS_OF = dt.date(2026, 6, 30)
_DATE = re.compile(r"^(\d{4})-(\d{2})-(\d{2})(.*)$", re.S)
_TEXT_DATE_OR_YEAR = re.compile(r"(?<![\w-])(20\d\d)(-\d\d-\d\d)?(?!\w)")


def sql_literal(value: Any) -> str:
    """``value`` as one PostgreSQL literal: a string quoted with its quotes doubled (standard strings,
    so a backslash is itself), an int as digits, a date as ``'YYYY-MM-DD'``. The only place a drawn
    value becomes SQL; ValueError for anything else (a NUL, a bool, a float)."""
    if isinstance(value, bool) or value is None:
        raise ValueError(f"no SQL literal for {value!r}")
    if isinstance(value, int):
        return str(value)
    if isinstance(value, dt.date):
        return f"'{value.isoformat()}'"
    if isinstance(value, str):
        if "\x00" in value:
            raise ValueError("a SQL string literal cannot hold NUL")
        return "'" + value.replace("'", "''") + "'"
    raise ValueError(f"no SQL literal for {type(value).__name__} {value!r}")


@dataclass(frozen=True)
class Substitution:
    """What one slot value changes: SQL string tokens (unquoted text → new value), SQL number tokens
    (digits → new int) and text forms (public words → drawn words)."""

    strings: Mapping[str, str] = field(default_factory=dict)
    numbers: Mapping[str, int] = field(default_factory=dict)
    words: Mapping[str, str] = field(default_factory=dict)
    #: years only: shift every date literal / year word by this many years (fixed ones excepted)
    year_shift: int = 0
    fixed_dates: tuple[str, ...] = ()
    #: days only: a date string token starting with the key (a time suffix kept) → the new date
    dates: Mapping[str, str] = field(default_factory=dict)


def _anchors() -> dict[str, tuple[str, str, str, str]]:
    from heron_pipeline.seeding.special import ANCHOR_TENANTS

    return {a[0]: a for a in ANCHOR_TENANTS}


@dataclass(frozen=True)
class Slot:
    """One declared slot of one question."""

    question_id: str
    name: str
    kind: str
    public: Any
    values: tuple[Any, ...]  # the drawable values, the public one excluded
    fixed: tuple[str, ...] = ()  # years: date literals that stay (the as-of date)
    carry: tuple[str, ...] = ()  # tenant: also the anchor's "currency" / "country" codes
    forms: tuple[tuple[str, str], ...] = ()  # choice: (SQL label, text form) for every value

    def substitution(self, value: Any) -> Substitution:
        """What drawing ``value`` changes in the SQL and the texts."""
        if self.kind == "tenant":
            old, new = _anchors()[self.public], _anchors()[value]
            strings = {old[0]: new[0], old[1]: new[1]}
            words = {old[0]: new[0]}
            for extra, index in (("country", 2), ("currency", 3)):
                if extra in self.carry:
                    strings[old[index]] = new[index]
                    words[old[index]] = new[index]
            return Substitution(strings=strings, words=words)
        if self.kind == "years":
            return Substitution(year_shift=int(value), fixed_dates=self.fixed)
        if self.kind == "days":
            # "the last N days" is written four ways: DATE '<as-of>' - (N-1), DATE '<as-of + 1>' - N,
            # the first day's date literal, or an interval of N days back from the day after the as-of
            old_start, new_start = (AS_OF - dt.timedelta(days=n - 1) for n in (self.public, value))
            return Substitution(numbers={str(self.public - 1): value - 1, str(self.public): value},
                                strings={f"{self.public} days": f"{value} days"},
                                dates={old_start.isoformat(): new_start.isoformat()},
                                words={str(self.public): str(value), old_start.isoformat(): new_start.isoformat()})
        if self.kind == "number":
            return Substitution(numbers={str(self.public): int(value)}, words={str(self.public): str(value)})
        if self.kind == "choice":
            forms = dict(self.forms)
            old, new = forms[self.public].split("|"), forms[value].split("|")
            return Substitution(strings={self.public: value},
                                words={form: new[min(i, len(new) - 1)] for i, form in enumerate(old)})
        raise AssertionError(self.kind)


# ---------------------------------------------------------------------------------------------- rendering

def _shift_date(text: str, years: int) -> str:
    match = _DATE.match(text)
    if not match:
        return text
    year, month, day, rest = int(match[1]), match[2], match[3], match[4]
    return f"{year + years:04d}-{month}-{day}{rest}"


def render_sql(sql: str, sub: Substitution) -> str:
    """``sql`` with the slot's tokens replaced span for span (see the module docstring)."""
    from sqlglot.dialects.postgres import Postgres
    from sqlglot.tokens import TokenType

    out, last = [], 0
    for token in Postgres().tokenize(sql):
        new: str | None = None
        if token.token_type is TokenType.STRING:
            if token.text in sub.strings:
                new = sql_literal(sub.strings[token.text])
            elif token.text[:10] in sub.dates and _DATE.match(token.text):
                new = sql_literal(sub.dates[token.text[:10]] + token.text[10:])
            elif sub.year_shift and _DATE.match(token.text) and token.text not in sub.fixed_dates:
                new = sql_literal(_shift_date(token.text, sub.year_shift))
        elif token.token_type is TokenType.NUMBER and token.text in sub.numbers:
            new = sql_literal(sub.numbers[token.text])
        if new is not None:
            out.append(sql[last:token.start])
            out.append(new)
            last = token.end + 1
    out.append(sql[last:])
    return "".join(out)


def _match_case(found: str, replacement: str) -> str:
    if found[:1].isupper() and replacement[:1].islower():
        return replacement[:1].upper() + replacement[1:]
    return replacement


def render_text(text: str, sub: Substitution) -> str:
    """``text`` with the slot's words replaced (whole words; case of a capitalised first letter kept)."""
    if sub.year_shift:
        def shift(m: re.Match) -> str:
            whole = m[0]
            if whole in sub.fixed_dates:
                return whole
            return f"{int(m[1]) + sub.year_shift}{m[2] or ''}"
        text = _TEXT_DATE_OR_YEAR.sub(shift, text)
    if sub.words:
        keys = sorted(sub.words, key=len, reverse=True)
        pattern = re.compile(r"(?<![\w])(" + "|".join(re.escape(k) for k in keys) + r")(?![\w])", re.I)
        lower = {k.lower(): v for k, v in sub.words.items()}
        text = pattern.sub(lambda m: _match_case(m[0], lower[m[0].lower()]), text)
    return text


def sql_dates(sql: str) -> list[str]:
    """The date-shaped string literals of ``sql`` (unquoted), in order."""
    from sqlglot.dialects.postgres import Postgres
    from sqlglot.tokens import TokenType

    return [t.text for t in Postgres().tokenize(sql) if t.token_type is TokenType.STRING and _DATE.match(t.text)]


# ---------------------------------------------------------------------------------------------- loading

def slots_path(directory: Path) -> Path:
    return Path(directory) / SLOTS_FILE


def slots_digest(directory: Path) -> str:
    """sha256 of the slots file's bytes ('' hashed when there is none)."""
    path = slots_path(directory)
    return hashlib.sha256(path.read_bytes() if path.is_file() else b"").hexdigest()


def _years_domain(q: Question, slot_name: str, wanted: Iterable[Any], fixed: tuple[str, ...], where: str) -> tuple[int, ...]:
    dates = [d for sql in (q.gold_sql, q.alt_sql or "") for d in sql_dates(sql) if d not in fixed]
    if not dates:
        raise QuestionError(f"{where}: a years slot needs a date literal in gold_sql and alt_sql")
    days = [dt.date.fromisoformat(d[:10]) for d in dates]
    for d in days:
        last_of_month = (d + dt.timedelta(days=1)).day == 1 and d.month != 2
        if d.day != 1 and not last_of_month:
            raise QuestionError(f"{where}: date {d} is neither a month's first nor its last day; list it under "
                                f"fixed: if it is the as-of date, else a shift in whole years would move it off the "
                                f"month grid")
    allowed = []
    for shift in wanted:
        if not isinstance(shift, int) or isinstance(shift, bool) or shift == 0:
            raise QuestionError(f"{where}: years values must be non-zero integers (year shifts), got {shift!r}")
        if all(FIRST_DAY <= d.replace(year=d.year + shift) <= LAST_DAY for d in days):
            allowed.append(shift)
    if not allowed:
        raise QuestionError(f"{where}: no year shift in {list(wanted)} keeps every date within "
                            f"{FIRST_DAY}..{LAST_DAY}")
    return tuple(allowed)


def parse_slot(q: Question, name: str, raw: object, source: str) -> Slot:
    """One slot declaration of question ``q``, checked against its texts and SQL (QuestionError)."""
    where = f"{source} {q.id} slot {name}"
    if not isinstance(raw, dict) or raw.get("kind") not in KINDS:
        raise QuestionError(f"{where}: a slot is a mapping with kind one of {', '.join(KINDS)}")
    unknown = sorted(set(raw) - {"kind", "public", "values", "fixed", "carry"})
    if unknown:
        raise QuestionError(f"{where}: unknown key(s) {', '.join(unknown)}")
    kind = raw["kind"]
    fixed = tuple(str(f) for f in raw.get("fixed", ()))
    carry = tuple(str(c) for c in raw.get("carry", ()))
    forms: tuple[tuple[str, str], ...] = ()
    if kind == "tenant":
        anchors = _anchors()
        public = raw.get("public")
        if public not in anchors:
            raise QuestionError(f"{where}: public must be an anchor tenant ({', '.join(anchors)}), got {public!r}")
        wanted = raw.get("values", list(anchors))
        if any(v not in anchors for v in wanted):
            raise QuestionError(f"{where}: values must be anchor tenants")
        values = tuple(v for v in wanted if v != public)
    elif kind == "years":
        public = 0
        values = _years_domain(q, name, raw.get("values", (-3, -2, -1)), fixed, where)
    elif kind in ("days", "number"):
        public = raw.get("public")
        wanted = raw.get("values")
        if not isinstance(public, int) or not isinstance(wanted, list) or not all(isinstance(v, int) and v > 1 for v in wanted):
            raise QuestionError(f"{where}: {kind} needs an integer public and a list of integer values > 1")
        values = tuple(v for v in wanted if v != public)
    else:  # choice
        public = raw.get("public")
        wanted = raw.get("values")
        if not isinstance(wanted, dict) or public not in wanted or not all(
                isinstance(k, str) and (isinstance(v, str) or isinstance(v, list) and v and all(isinstance(f, str) for f in v))
                for k, v in wanted.items()):
            raise QuestionError(f"{where}: choice needs values {{sql label: text form or [text forms]}} holding the "
                                f"public label")
        # a label's text forms are kept as one "a|b" string: the i-th form of the public label becomes the
        # i-th form of the drawn one (its last form where it has fewer)
        forms = tuple((k, v if isinstance(v, str) else "|".join(v)) for k, v in wanted.items())
        values = tuple(k for k in wanted if k != public)
    if not values:
        raise QuestionError(f"{where}: no value to draw besides the public one")
    slot = Slot(q.id, name, kind, public, values, fixed, carry, forms)
    _check_public(q, slot, where)
    return slot


def _check_public(q: Question, slot: Slot, where: str) -> None:
    """The slot's public value must be where the slot says: in gold, alt and both texts."""
    texts = {"question": q.question, "natural": q.natural or ""}
    sqls = {"gold_sql": q.gold_sql, **({"alt_sql": q.alt_sql} if q.alt_sql else {})}
    probe = slot.substitution(slot.values[0])
    for label, sql in sqls.items():
        if render_sql(sql, probe) == sql:
            raise QuestionError(f"{where}: {label} holds no literal of the public value {slot.public!r}")
    for label, text in texts.items():
        rendered = render_text(text, probe)
        if rendered == text:
            raise QuestionError(f"{where}: the {label} text does not mention the public value {slot.public!r}; a slot "
                                f"must change the words with the SQL")
        if slot.kind == "choice":
            word = str(slot.public)
            stale = [w for w in {word, word.replace("_", " "), word.replace("_", "-")}
                     if re.search(r"(?<![\w])" + re.escape(w) + r"(?![\w])", rendered, re.I)
                     and w.lower() not in dict(probe.words).get(w, "").lower()]
            if stale:
                raise QuestionError(f"{where}: the {label} text still says {stale[0]!r} after a draw; list every text "
                                    f"form of {slot.public!r} (values: {{label: [form, …]}})")


def load_slots(directory: Path, questions: Iterable[Question]) -> dict[str, tuple[Slot, ...]]:
    """Question id → its slots, from ``<directory>/slots/slots.yaml`` (none when the file is absent).
    QuestionError naming the file, the question and the slot for anything malformed."""
    path = slots_path(directory)
    if not path.is_file():
        return {}
    source = str(SLOTS_FILE)
    try:
        document = yaml_text.safe_load(path.read_text(encoding="utf-8")) or {}
    except yaml.YAMLError as err:
        raise QuestionError(f"{source}: not valid YAML: {err}") from None
    if not isinstance(document, dict):
        raise QuestionError(f"{source}: a mapping of question id → slots")
    by_id = {q.id: q for q in questions}
    out: dict[str, tuple[Slot, ...]] = {}
    for qid, declared in document.items():
        if qid not in by_id:
            raise QuestionError(f"{source}: {qid} is not a question id")
        if not isinstance(declared, dict) or not declared:
            raise QuestionError(f"{source} {qid}: a mapping of slot name → slot")
        out[qid] = tuple(parse_slot(by_id[qid], str(name), raw, source) for name, raw in declared.items())
    return out
