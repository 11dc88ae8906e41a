"""The question loader refuses malformed files with a message naming the file and the question."""

from __future__ import annotations

from pathlib import Path

import pytest

from heron_pipeline.questions import QUESTIONS_DIR
from heron_pipeline.questions.model import QuestionError, Shape, Trap, load_questions, questions_digest

GOOD = """
- id: q001
  question: How many tenants are there?
  gold_sql: SELECT count(*) FROM tenancy.tenants
  gold_tables: [tenancy.tenants]
  shape: single
  retrieval: named
  traps: []
"""


def _write(folder: Path, text: str, name: str = "01_test.yaml") -> Path:
    (folder / name).write_text(text, encoding="utf-8")
    return folder


def test_a_good_file_loads_with_typed_fields(tmp_path: Path) -> None:
    [q] = load_questions(_write(tmp_path, GOOD))
    assert q.id == "q001" and q.shape is Shape.SINGLE and q.alt_sql is None and not q.empty_probe
    assert q.gold_tables == ("tenancy.tenants",) and q.source == "01_test.yaml"


@pytest.mark.parametrize(("text", "expected"), [
    ("- id: [unclosed", "not valid YAML"),
    ("id: q001", "must hold a YAML list"),
    (GOOD.replace("shape: single", "shape: simple"), "q001: shape 'simple' is not one of"),
    (GOOD.replace("traps: []", "traps: [soft-deletes]"), "q001: trap 'soft-deletes' is not one of"),
    (GOOD.replace("traps: []", "traps: []\n  difficulty: hard"), "q001: unknown key(s) difficulty"),
    (GOOD.replace("  retrieval: named\n", ""), "q001: missing field(s) retrieval"),
    (GOOD.replace("[tenancy.tenants]", "[tenants]"), "q001: gold_tables must be a list of schema-qualified"),
    (GOOD.replace("traps: []", "traps: []\n  empty_probe: maybe"), "q001: empty_probe must be true or false"),
    (GOOD + GOOD.replace("How many", "Count"), "q001: duplicate id"),
])
def test_malformed_files_are_refused_naming_file_and_question(tmp_path: Path, text: str, expected: str) -> None:
    with pytest.raises(QuestionError) as raised:
        load_questions(_write(tmp_path, text))
    assert "01_test.yaml" in str(raised.value)
    assert expected in str(raised.value)


def test_a_duplicate_id_across_files_names_both(tmp_path: Path) -> None:
    _write(tmp_path, GOOD, "01_a.yaml")
    _write(tmp_path, GOOD.replace("How many", "Count"), "02_b.yaml")
    with pytest.raises(QuestionError, match=r"02_b.yaml q001: duplicate id \(also in 01_a.yaml\)"):
        load_questions(tmp_path)


def test_digest_follows_the_bytes_of_every_file(tmp_path: Path) -> None:
    _write(tmp_path, GOOD)
    before = questions_digest(tmp_path)
    assert questions_digest(tmp_path) == before
    _write(tmp_path, GOOD + "\n# a comment\n")
    assert questions_digest(tmp_path) != before


def test_the_real_question_files_load() -> None:
    loaded = load_questions(QUESTIONS_DIR)
    assert len({q.id for q in loaded}) == len(loaded)
    assert all(isinstance(t, Trap) for q in loaded for t in q.traps)
