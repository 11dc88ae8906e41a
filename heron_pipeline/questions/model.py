"""The question files as typed records, and the loader that refuses anything malformed.

A question file is a YAML list of mappings (format in ``questions/README.md``). Loading is strict:
an unknown key, a bad enum value, a missing field or a duplicate id stops the load with a message
naming the file and the question, because a silently ignored typo in a tag would skew every
breakdown computed later. ``alt_sql`` may be absent at load time (it is merged in after the gold is
written); the audit reports it as a problem instead.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from enum import Enum
from pathlib import Path

import yaml

from heron_pipeline import yaml_text
from heron_pipeline.questions.conventions import conventions_path


class Shape(str, Enum):
    SINGLE = "single"
    JOIN = "join"
    MULTI_JOIN = "multi-join"
    ANALYTICAL = "analytical"


class Retrieval(str, Enum):
    NAMED = "named"
    ONE_HOP = "1-hop"
    TWO_HOP = "2-hop+"
    LEXICAL_GAP = "lexical-gap"


class Trap(str, Enum):
    TENANT_ISOLATION = "tenant-isolation"
    SOFT_DELETE = "soft-delete"
    NULLABLE_JOIN = "nullable-join"
    CURRENCY = "currency"
    TIME_BUCKET = "time-bucket"
    STATUS_SEMANTICS = "status-semantics"
    DUPLICATE_JOIN = "duplicate-join"
    NULL_AGGREGATE = "null-aggregate"


class QuestionError(ValueError):
    """A question file that cannot be loaded; the message names the file and the question."""


@dataclass(frozen=True)
class Question:
    """One benchmark question as authored."""

    id: str
    question: str
    gold_sql: str
    gold_tables: tuple[str, ...]
    shape: Shape
    retrieval: Retrieval
    traps: tuple[Trap, ...]
    source: str  # the file it came from (name only), for reports that go back to the authors
    alt_sql: str | None = None
    empty_probe: bool = False
    note: str | None = None
    natural: str | None = None  # how a business user would ask it (issue 12); ``question`` stays


REQUIRED = ("id", "question", "gold_sql", "gold_tables", "shape", "retrieval", "traps")
OPTIONAL = ("alt_sql", "empty_probe", "note", "natural")

#: The question texts a tool can be given: today's precise text, or the natural one.
QUESTION_MODES = ("full", "natural")


def question_text(question: Question, mode: str) -> str:
    """The text a tool sees for ``question`` in question mode ``mode`` ("full" or "natural")."""
    if mode == "full":
        return question.question
    if mode == "natural":
        natural = getattr(question, "natural", None)
        if not natural:
            raise ValueError(f"question {question.id} has no natural text (question mode 'natural')")
        return natural
    raise ValueError(f"unknown question mode {mode!r}; known: {', '.join(QUESTION_MODES)}")




def question_files(directory: Path) -> list[Path]:
    """The question files of a directory, in name order (the order ids and digests follow)."""
    return sorted(p for p in Path(directory).glob("*.yaml") if p.is_file())


def questions_digest(directory: Path) -> str:
    """sha256 over the question files' names and bytes in name order, then the conventions note's
    (when present): the `questions` asset's code version, so gold results are recomputed exactly
    when a question file or the conventions every question is read under change."""
    digest = hashlib.sha256()
    files = question_files(directory)
    note = conventions_path(directory)
    for path in [*files, *([note] if note.is_file() else [])]:
        digest.update(path.name.encode() + b"\0")
        digest.update(path.read_bytes())
        digest.update(b"\0")
    return digest.hexdigest()


def _enum(kind: type[Enum], value: object, where: str, field: str) -> Enum:
    try:
        return kind(value)
    except ValueError:
        allowed = ", ".join(m.value for m in kind)
        raise QuestionError(f"{where}: {field} {value!r} is not one of: {allowed}") from None


def text_field(value: object, where: str, field: str, *, optional: bool = False) -> str | None:
    """A non-empty string field of a question or training file, or QuestionError naming where."""
    if value is None and optional:
        return None
    if not isinstance(value, str) or not value.strip():
        raise QuestionError(f"{where}: {field} must be a non-empty string, got {value!r}")
    return value


def parse_question(raw: object, source: str, position: int) -> Question:
    """One mapping of a question file as a Question, or QuestionError naming file and id."""
    where = f"{source} item {position}"
    if not isinstance(raw, dict):
        raise QuestionError(f"{where}: a question must be a mapping, got {type(raw).__name__}")
    if isinstance(raw.get("id"), str):
        where = f"{source} {raw['id']}"
    unknown = sorted(set(map(str, raw)) - set(REQUIRED) - set(OPTIONAL))
    if unknown:
        raise QuestionError(f"{where}: unknown key(s) {', '.join(unknown)}")
    missing = [k for k in REQUIRED if k not in raw]
    if missing:
        raise QuestionError(f"{where}: missing field(s) {', '.join(missing)}")
    tables, traps = raw["gold_tables"], raw["traps"]
    if not isinstance(tables, list) or not all(isinstance(t, str) and "." in t for t in tables):
        raise QuestionError(f"{where}: gold_tables must be a list of schema-qualified table names")
    if not isinstance(traps, list):
        raise QuestionError(f"{where}: traps must be a list")
    probe = raw.get("empty_probe", False)
    if not isinstance(probe, bool):
        raise QuestionError(f"{where}: empty_probe must be true or false, got {probe!r}")
    return Question(
        id=text_field(raw["id"], where, "id"),
        question=text_field(raw["question"], where, "question"),
        gold_sql=text_field(raw["gold_sql"], where, "gold_sql"),
        alt_sql=text_field(raw.get("alt_sql"), where, "alt_sql", optional=True),
        gold_tables=tuple(t.lower() for t in tables),
        shape=_enum(Shape, raw["shape"], where, "shape"),
        retrieval=_enum(Retrieval, raw["retrieval"], where, "retrieval"),
        traps=tuple(_enum(Trap, t, where, "trap") for t in traps),
        empty_probe=probe,
        note=text_field(raw.get("note"), where, "note", optional=True),
        natural=text_field(raw.get("natural"), where, "natural", optional=True),
        source=source,
    )


def load_file(path: Path) -> list[Question]:
    """The questions of one file."""
    try:
        document = yaml_text.safe_load(Path(path).read_text(encoding="utf-8"))
    except yaml.YAMLError as err:
        raise QuestionError(f"{Path(path).name}: not valid YAML: {err}") from None
    if document is None:
        return []
    if not isinstance(document, list):
        raise QuestionError(f"{Path(path).name}: a question file must hold a YAML list of questions")
    return [parse_question(raw, Path(path).name, i + 1) for i, raw in enumerate(document)]


def load_questions(directory: Path) -> list[Question]:
    """Every question of every ``*.yaml`` file in `directory`, in file then list order.
    Raises QuestionError on the first malformed file or a duplicate id."""
    questions: list[Question] = []
    seen: dict[str, str] = {}
    for path in question_files(directory):
        for q in load_file(path):
            if q.id in seen:
                raise QuestionError(f"{path.name} {q.id}: duplicate id (also in {seen[q.id]})")
            seen[q.id] = path.name
            questions.append(q)
    return questions
