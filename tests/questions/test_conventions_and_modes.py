"""The conventions note (versioned, part of the questions digest) and the question modes."""

from __future__ import annotations

import shutil

import pytest

from heron_pipeline.questions import QUESTIONS_DIR, questions_digest
from heron_pipeline.questions.conventions import ConventionsError, load_conventions, parse_conventions
from heron_pipeline.questions.model import load_questions, parse_question, question_text

RAW = {"id": "q1", "question": "Full text?", "gold_sql": "SELECT 1", "gold_tables": ["tenancy.tenants"],
       "shape": "single", "retrieval": "named", "traps": []}


def test_the_note_keeps_the_meaning_it_had_in_the_prompt() -> None:
    """Version 2 (issue 12) extends version 1 and keeps each of its three rules."""
    note = load_conventions(QUESTIONS_DIR)
    assert note.version == "2"
    assert "The data ends on the as-of date 2026-06-30; never use now() or current_date." in note.text
    assert "Rows with deleted_at set are deleted." in note.text
    assert "Joins between tenant tables must also match tenant_id." in note.text


def test_paragraphs_are_kept_and_lines_joined() -> None:
    assert parse_conventions("version: 2\n\na\nb\n\n\nc\n").text == "a b\n\nc"
    with pytest.raises(ConventionsError, match="first line must be 'version: <n>'"):
        parse_conventions("The data ends…")
    with pytest.raises(ConventionsError, match="no text"):
        parse_conventions("version: 1\n\n")


def test_the_note_is_part_of_the_questions_digest(tmp_path) -> None:
    for path in QUESTIONS_DIR.glob("*.yaml"):
        shutil.copy(path, tmp_path / path.name)
    without = questions_digest(tmp_path)
    shutil.copy(QUESTIONS_DIR / "conventions.txt", tmp_path / "conventions.txt")
    with_note = questions_digest(tmp_path)
    assert with_note != without and with_note == questions_digest(QUESTIONS_DIR)
    (tmp_path / "conventions.txt").write_text("version: 2\n\nSomething else.\n")
    assert questions_digest(tmp_path) != with_note


def test_question_text_by_mode() -> None:
    q = parse_question({**RAW, "natural": "How many?"}, "f.yaml", 1)
    assert question_text(q, "full") == "Full text?" and question_text(q, "natural") == "How many?"
    bare = parse_question(RAW, "f.yaml", 1)
    with pytest.raises(ValueError, match="question q1 has no natural text"):
        question_text(bare, "natural")
    with pytest.raises(ValueError, match="unknown question mode 'short'"):
        question_text(q, "short")


def test_question_files_still_load() -> None:
    assert len(load_questions(QUESTIONS_DIR)) == 100
