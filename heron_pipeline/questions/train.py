"""The training set: example question → SQL pairs for retrieval-augmented tools, never evaluated.

A Vanna-style ``rag`` tool retrieves worked examples by similarity and shows them to the model. The
examples must be on heron's schema and follow heron's conventions (soft deletes, tenant-safe
joins, the as-of date), or they teach the wrong thing; and they must share nothing with the
evaluation questions, or the tool is shown the answers. So they live in their own folder,
``questions/train/`` — which ``load_questions`` never reads, since it reads only
``questions/*.yaml`` — and the audit (``audit.check_training_set``) executes each one on the states
and proves the two sets disjoint.

File format (``questions/train/NN_<area>.yaml``, a YAML list)::

    - id: t001                 # t + three digits, unique over the training set
      question: >-             # the English, following questions/README.md
        ...
      sql: |                   # one PostgreSQL SELECT answering it
        ...
      tables: [schema.table]   # exactly the tables the SQL reads
      note: ...                # optional

Loading is strict like the question loader: an unknown key, a missing field, a malformed id or a
duplicate id stops the load with a message naming the file and the pair.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterable

import yaml

from heron_pipeline import yaml_text
from heron_pipeline.config import PROJECT_ROOT
from heron_pipeline.questions.model import QuestionError, text_field

TRAIN_DIR = PROJECT_ROOT / "questions" / "train"
REQUIRED = ("id", "question", "sql", "tables")
OPTIONAL = ("note",)
_ID = re.compile(r"^t\d{3}$")


@dataclass(frozen=True)
class TrainingPair:
    """One worked example: a question, the SQL that answers it, and the tables that SQL reads."""

    id: str
    question: str
    sql: str
    tables: tuple[str, ...]
    source: str  # the file it came from (name only)
    note: str | None = None


def training_files(directory: Path = TRAIN_DIR) -> list[Path]:
    """The training files of ``directory``, in name order."""
    return sorted(p for p in Path(directory).glob("*.yaml") if p.is_file())


def training_digest(directory: Path = TRAIN_DIR) -> str:
    """sha256 over the training files' names and bytes: changes exactly when an example changes
    (a tool that embeds the examples in its prompt records it in its conditions)."""
    digest = hashlib.sha256()
    for path in training_files(directory):
        digest.update(path.name.encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()


def parse_pair(raw: object, source: str, position: int) -> TrainingPair:
    """One mapping of a training file, or QuestionError naming the file and the pair."""
    where = f"{source} item {position}"
    if not isinstance(raw, dict):
        raise QuestionError(f"{where}: a training pair must be a mapping, got {type(raw).__name__}")
    if isinstance(raw.get("id"), str):
        where = f"{source} {raw['id']}"
    unknown = sorted(set(map(str, raw)) - set(REQUIRED) - set(OPTIONAL))
    if unknown:
        raise QuestionError(f"{where}: unknown key(s) {', '.join(unknown)}")
    missing = [k for k in REQUIRED if k not in raw]
    if missing:
        raise QuestionError(f"{where}: missing field(s) {', '.join(missing)}")
    pair_id = text_field(raw["id"], where, "id")
    if not _ID.match(pair_id):
        raise QuestionError(f"{where}: a training id is t followed by three digits (t001), got {pair_id!r}")
    tables = raw["tables"]
    if not isinstance(tables, list) or not tables or not all(isinstance(t, str) and "." in t for t in tables):
        raise QuestionError(f"{where}: tables must be a non-empty list of schema-qualified table names")
    note = raw.get("note")
    return TrainingPair(id=pair_id, question=text_field(raw["question"], where, "question"),
                        sql=text_field(raw["sql"], where, "sql"), tables=tuple(t.lower() for t in tables),
                        source=source, note=text_field(note, where, "note") if note is not None else None)


def load_training_file(path: Path) -> list[TrainingPair]:
    """The pairs of one training file."""
    try:
        document = yaml_text.safe_load(Path(path).read_text(encoding="utf-8"))
    except yaml.YAMLError as err:
        raise QuestionError(f"{Path(path).name}: not valid YAML: {err}") from None
    if document is None:
        return []
    if not isinstance(document, list):
        raise QuestionError(f"{Path(path).name}: a training file must hold a YAML list of pairs")
    return [parse_pair(raw, Path(path).name, i + 1) for i, raw in enumerate(document)]


def load_training_pairs(directory: Path = TRAIN_DIR) -> list[TrainingPair]:
    """Every pair of every ``*.yaml`` file in ``directory`` (default ``questions/train/``), in file
    then list order; QuestionError on a malformed file or a duplicate id."""
    pairs: list[TrainingPair] = []
    seen: dict[str, str] = {}
    for path in training_files(directory):
        for pair in load_training_file(path):
            if pair.id in seen:
                raise QuestionError(f"{path.name} {pair.id}: duplicate id (also in {seen[pair.id]})")
            seen[pair.id] = path.name
            pairs.append(pair)
    return pairs


def run_training_pairs(conn: Any, pairs: Iterable[TrainingPair]) -> dict[str, Any]:
    """pair id → ``gold.Execution`` of its SQL on the state behind ``conn`` (read-only, rolled back),
    for ``audit.check_training_runs``."""
    from heron_pipeline.questions.gold import execute_timed

    return {pair.id: execute_timed(conn, pair.sql) for pair in pairs}
