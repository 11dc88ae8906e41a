"""The submission schema: every problem located by file, line and field (no database needed)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from heron_pipeline.submissions import load_submission, read_hidden_seeds

META = {"tool": "t", "class": "sql", "version": "1", "approach": "a", "repository": "r", "model": "gpt-4o",
        "temperature": 0, "n": 1, "date": "2026-12-01", "scale": "tiny", "seeds": [42, 43], "question_mode": "full",
        "questions_digest": "0" * 64, "harness_version": "0.1.0", "command": "heron bench"}


def _folder(tmp_path: Path, meta=META, claims=None, lines=None) -> Path:
    (tmp_path / "meta.json").write_text(meta if isinstance(meta, str) else json.dumps(meta, indent=1))
    (tmp_path / "claims.json").write_text(json.dumps({"multi_state_ex1": 50.0} if claims is None else claims))
    lines = lines if lines is not None else [json.dumps({"question_id": "q001", "sample": 0, "sql": "SELECT 1"})]
    (tmp_path / "predictions.jsonl").write_text("\n".join(lines) + "\n")
    return tmp_path


def test_a_valid_folder_has_no_problems_and_keeps_unknown_optional_fields(tmp_path: Path) -> None:
    line = json.dumps({"question_id": "q001", "sample": 0, "sql": "SELECT 1", "cost_usd": 0.01, "error_class": None})
    sub = load_submission(_folder(tmp_path, lines=[line]))
    assert sub.well_formed, sub.problems
    assert sub.meta.class_ == "sql" and sub.claims == {"multi_state_ex1": 50.0}
    assert sub.predictions[0].model_extra["cost_usd"] == 0.01
    assert sub.predictions[0].record().sql == "SELECT 1"


@pytest.mark.parametrize("change, field", [
    ({"class": "other"}, "class"), ({"n": 0}, "n"), ({"seeds": []}, "seeds"), ({"seeds": [42, 42]}, "seeds"),
    ({"questions_digest": "abc"}, "questions_digest"), ({"date": "yesterday"}, "date")])
def test_a_bad_meta_field_is_named(tmp_path: Path, change, field) -> None:
    sub = load_submission(_folder(tmp_path, meta={**META, **change}))
    assert [p.field for p in sub.problems] == [field] and sub.problems[0].file == "meta.json"


def test_a_missing_meta_key_and_broken_json_are_located(tmp_path: Path) -> None:
    meta = {k: v for k, v in META.items() if k != "approach"}
    sub = load_submission(_folder(tmp_path, meta=meta))
    assert [(p.file, p.field) for p in sub.problems] == [("meta.json", "approach")]
    sub = load_submission(_folder(tmp_path, meta='{\n "tool": "t",\n "class": \n}'))
    assert sub.problems[0].file == "meta.json" and sub.problems[0].line == 4 and sub.meta is None


def test_bad_prediction_lines_are_located_by_line(tmp_path: Path) -> None:
    lines = [json.dumps({"question_id": "q001", "sample": 0, "sql": "SELECT 1"}), "{not json",
             json.dumps({"question_id": "q002", "sample": -1}), json.dumps(["a list"])]
    sub = load_submission(_folder(tmp_path, lines=lines))
    assert [(p.line, p.field) for p in sub.problems] == [(2, None), (3, "sample"), (4, None)]
    assert all(p.file == "predictions.jsonl" for p in sub.problems) and len(sub.predictions) == 1


@pytest.mark.parametrize("claims, field", [({"multi_state_ex1": 101}, "multi_state_ex1"),
                                           ({"multi_state_ex1": "high"}, "multi_state_ex1"),
                                           ({"grade": 50.0, "multi_state_ex1": 1}, "grade"),
                                           ({"soft_f1": 50.0}, "multi_state_ex1")])
def test_claims_are_percentages_of_claimable_figures(tmp_path: Path, claims, field) -> None:
    sub = load_submission(_folder(tmp_path, claims=claims))
    assert [(p.file, p.field) for p in sub.problems] == [("claims.json", field)]


def test_a_retriever_claims_set_recall(tmp_path: Path) -> None:
    meta = {**META, "class": "retrieval", "model": None, "temperature": None}
    assert load_submission(_folder(tmp_path, meta=meta, claims={"set_recall@10": 80.0})).well_formed
    sub = load_submission(_folder(tmp_path, meta=meta, claims={"multi_state_ex1": 80.0}))
    assert {p.field for p in sub.problems} == {"multi_state_ex1", "set_recall@10"}


def test_a_missing_file_is_named(tmp_path: Path) -> None:
    folder = _folder(tmp_path)
    (folder / "claims.json").unlink()
    assert [p.file for p in load_submission(folder).problems] == ["claims.json"]


def test_hidden_seeds_file(tmp_path: Path) -> None:
    path = tmp_path / "hidden"
    path.write_text("# hidden\n1234567891, 2000000000\n2147483647\n")
    assert read_hidden_seeds(path) == [1234567891, 2000000000, 2147483647]
    for bad in ("42\n", "2147483648\n", "abc\n", ""):
        path.write_text(bad)
        with pytest.raises(ValueError, match="--hidden-seeds-file"):
            read_hidden_seeds(path)
    path.write_text("5\n1234567891\n")
    with pytest.raises(ValueError) as err:
        read_hidden_seeds(path)
    assert "1234567891" not in str(err.value)  # a hidden seed never appears in a message
