"""Submissions that try to hurt the verifier: path names, parser bounds, unbounded reads, known-bad
folders that would build states, and verdicts inflated by repetition (issue "Hardening II").

Most cases need no database: ``verify`` is called with no server at all, which proves that a folder
the static checks reject never reaches a state (it would fail on the missing server otherwise).
Folders are copies of the committed ``submissions/gold`` (no database) or of the session's tiny
packaged gold run (``conftest.submissions``, where states are needed), each altered one way.
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

from heron_pipeline.leaderboard.publish import PUBLISHED_FILES, SUBMISSIONS_DIR, publish_leaderboard
from heron_pipeline.submissions import BoardRules, Verdict, load_expected_fingerprints, load_submission, verify
from heron_pipeline.submissions.files import (FILE_LIMITS, MAX_JSON_DEPTH, MAX_LINE_BYTES, json_depth, stays_inside,
                                              valid_name)
from heron_pipeline.submissions.schema import MAX_SAMPLES
from heron_pipeline.submissions.verify import MAX_REASONS_PER_CODE, static_checks, submission_digest

from .conftest import edit_json, edit_lines

GOLD = SUBMISSIONS_DIR / "gold"
#: The length of the over-long SQL that stopped the board (one prediction of a hostile folder).
OVERLONG = 120_177


def _gold(tmp_path: Path, name: str = "hostile") -> Path:
    return Path(shutil.copytree(GOLD, tmp_path / name))


def _overlong_sql(length: int = OVERLONG) -> str:
    head = "SELECT 1 AS x"
    body = "".join(f", {i} AS c{i}" for i in range(length))  # far more than needed; cut to length
    return (head + body)[:length - 1] + "0"


def _statically(folder: Path) -> Verdict:
    """The verdict of the checks needing no database (what `test_committed` runs on every folder)."""
    from heron_pipeline.bench.inputs import question_set
    from heron_pipeline.bench.options import QUESTIONS_DIR

    sub = load_submission(folder)
    assert sub.well_formed, [str(p) for p in sub.problems]
    questions, digest = question_set(QUESTIONS_DIR)
    verdict = Verdict(folder.name, sub.meta.tool, sub.meta.class_)
    static_checks(sub, verdict, questions, digest, load_expected_fingerprints(), BoardRules())
    return verdict


def _without_database(folder: Path, artifacts: Path) -> Verdict:
    """``verify`` with no server: only a folder judged before any state can come back from this."""
    return verify(folder, None, artifacts)


def _problems(folder: Path) -> list[tuple[str, str | None, str]]:
    return [(p.file, p.field, p.message) for p in load_submission(folder).problems]


# --- 1. names that reach a path --------------------------------------------------------------------

@pytest.mark.parametrize("name, ok", [
    ("gold", True), ("bm25-fk", True), ("raw-llm", True), ("a.b_c", True), ("x" * 64, True), ("GPT4o", True),
    ("../../../../tmp/x", False), ("/tmp/x", False), ("a/b", False), ("..", False), (".", False), ("", False),
    (".hidden", False), ("-flag", False), ("x" * 65, False), (" gold", False), ("gold\n", False), ("a\\b", False),
    ("gold\x00", False), ("naïve", False), (42, False)])
def test_the_name_pattern(name, ok) -> None:
    assert valid_name(name) is ok


@pytest.mark.parametrize("root, name, inside", [
    ("/a/scores", "gold", True), ("/a/scores", "../x", False), ("/a/scores", "/tmp/x", False),
    ("/a/scores", ".", False), ("/a/scores", "x/../../y", False), ("/a/scores", "x/../y", True)])
def test_a_resolved_path_must_stay_under_its_root(root, name, inside) -> None:
    assert stays_inside(Path(root), name) is inside


@pytest.mark.parametrize("field, value", [
    ("tool", "../../../../tmp/heron-escape"), ("tool", "/tmp/heron-escape"), ("tool", "a/../../b"),
    ("scale", "../../small"), ("question_mode", "/tmp/full")])
def test_a_submitted_name_that_is_a_path_is_malformed_and_nothing_is_written(tmp_path, field, value) -> None:
    folder = _gold(tmp_path)
    edit_json(folder / "meta.json", **{field: value})
    artifacts = tmp_path / "artifacts"
    verdict = _without_database(folder, artifacts)
    assert verdict.codes == ["malformed"] and [r["field"] for r in verdict.reasons] == [field], verdict.reasons
    line = verdict.reasons[0]["line"]
    assert (folder / "meta.json").read_text().splitlines()[line - 1].strip().startswith(f'"{field}"')
    assert not artifacts.exists() and not Path("/tmp/heron-escape").exists()


def test_an_absolute_tool_name_cannot_write_scores_outside_the_artifacts(submissions, tiny42, sub_artifacts,
                                                                         tmp_path) -> None:
    """The end-to-end case on real tiny states: before, this folder was accepted and its score files
    were written to ``<tmp>/escaped/tiny_42/full``."""
    folder = Path(shutil.copytree(submissions / "gold", tmp_path / "escape"))
    target = tmp_path / "escaped"
    edit_json(folder / "meta.json", tool=str(target))
    verdict = verify(folder, tiny42, sub_artifacts)
    assert verdict.codes == ["malformed"] and verdict.reasons[0]["field"] == "tool"
    assert not target.exists()


# --- 2. one folder cannot stop the board -------------------------------------------------------------

@pytest.mark.parametrize("sql", [_overlong_sql(), "SELECT " + "(" * 5000 + "1" + ")" * 5000,
                                 "SELECT " + " + ".join(["1"] * 20_000)], ids=["chars", "depth", "tokens"])
def test_sql_over_the_parser_bounds_is_not_an_exception_nor_a_rejection(tmp_path, sql) -> None:
    """It is counted as a failed prediction (``limit``) when scored, exactly as `heron bench` counts it."""
    folder = _gold(tmp_path)
    edit_lines(folder / "predictions.jsonl", lambda n, r: {**r, "sql": sql} if n == 5 else r)
    assert _statically(folder).reasons == []


def test_a_folder_with_an_overlong_sql_is_judged_and_the_board_is_published(submissions, tiny42, sub_artifacts,
                                                                            tmp_path) -> None:
    root = tmp_path / "subs"
    shutil.copytree(submissions / "gold", root / "gold")
    overlong = Path(shutil.copytree(submissions / "gold", root / "overlong"))
    edit_json(overlong / "meta.json", tool="overlong")
    edit_lines(overlong / "predictions.jsonl", lambda n, r: {**r, "sql": _overlong_sql()} if n == 1 else r)
    out = tmp_path / "out"
    doc = publish_leaderboard(tiny42, sub_artifacts, root, out)
    assert sorted(p.name for p in out.iterdir()) == sorted(PUBLISHED_FILES)
    [board] = doc["standings"]
    row = next(t for t in board["tools"] if t["tool"] == "overlong")
    assert row["multi_state_ex1"] == 99.0  # its one over-long SQL fails on both states; claims 100 within 2 points


def test_a_folder_heron_fails_on_is_kept_off_and_the_board_still_published(tmp_path, monkeypatch) -> None:
    import heron_pipeline.leaderboard.publish as publish

    root = tmp_path / "subs"
    shutil.copytree(GOLD, root / "boom")
    broken = _gold(root, "broken")
    (broken / "claims.json").write_text("{}\n")  # malformed: the required claim is missing
    judge = publish.cached_verdict

    def failing(folder, *args, **kwargs):
        if folder.name == "boom":
            raise RecursionError("maximum recursion depth exceeded")
        return judge(folder, *args, **kwargs)

    monkeypatch.setattr(publish, "cached_verdict", failing)
    out = tmp_path / "out"
    doc = publish_leaderboard(None, tmp_path / "artifacts", root, out)
    assert sorted(p.name for p in out.iterdir()) == sorted(PUBLISHED_FILES)
    by = {r["folder"]: r for r in doc["rejected"]}
    assert by["boom"]["reason_codes"] == ["verifier_error"] and "RecursionError" in by["boom"]["reasons"][0]["detail"]
    assert by["broken"]["reason_codes"] == ["malformed"]
    stored = [json.loads(p.read_text())["folder"] for p in (tmp_path / "artifacts").glob("verdicts/*.json")]
    assert stored == ["broken"]  # heron's own failure is not stored: a fixed heron judges the folder again


def test_heron_being_down_still_stops_the_board(tmp_path, monkeypatch) -> None:
    import heron_pipeline.leaderboard.publish as publish
    from heron_pipeline.submissions import HarnessUnavailable

    root = tmp_path / "subs"
    shutil.copytree(GOLD, root / "gold")

    def down(*_a, **_k):
        raise HarnessUnavailable("the server is down")

    monkeypatch.setattr(publish, "cached_verdict", down)
    with pytest.raises(HarnessUnavailable):
        publish_leaderboard(None, tmp_path / "artifacts", root, tmp_path / "out")
    assert not (tmp_path / "out").exists()


# --- 3. bounded reads ---------------------------------------------------------------------------------

def _link(folder: Path, name: str, target: str) -> None:
    (folder / name).unlink()
    os.symlink(target, folder / name)


@pytest.mark.timeout(30)
@pytest.mark.parametrize("case", ["dev-zero", "outside", "fifo", "folder", "brackets", "too-large", "sparse"])
def test_a_claims_file_that_is_not_a_small_regular_file_is_malformed_at_once(tmp_path, case) -> None:
    folder = _gold(tmp_path)
    claims = folder / "claims.json"
    if case == "dev-zero":
        _link(folder, "claims.json", "/dev/zero")
    elif case == "outside":
        (tmp_path / "elsewhere.json").write_text('{"multi_state_ex1": 100.0}')
        _link(folder, "claims.json", str(tmp_path / "elsewhere.json"))
    elif case == "fifo":
        claims.unlink()
        os.mkfifo(claims)
    elif case == "folder":
        claims.unlink()
        claims.mkdir()
    elif case == "brackets":
        claims.write_text("[" * 60_000)  # under the size limit: the nesting bound must refuse it
    elif case == "too-large":
        claims.write_text('{"multi_state_ex1": 100.0' + " " * FILE_LIMITS["claims.json"] + "}")
    else:
        with open(claims, "wb") as f:
            f.truncate(10 * 1024**3)  # 10 GiB that occupies no disk
    expected = {"dev-zero": "symbolic link", "outside": "symbolic link", "fifo": "not a regular file",
                "folder": "not a regular file", "brackets": "nests", "too-large": "at most", "sparse": "at most"}[case]
    problems = _problems(folder)
    assert [(f, field) for f, field, _m in problems] == [("claims.json", None)], problems
    assert expected in problems[0][2]
    verdict = _without_database(folder, tmp_path / "artifacts")
    assert verdict.codes == ["malformed"] and len(submission_digest(folder)) == 64


@pytest.mark.parametrize("depth, refused", [(MAX_JSON_DEPTH, False), (MAX_JSON_DEPTH + 1, True), (5000, True)])
def test_the_json_nesting_bound(tmp_path, depth, refused) -> None:
    folder = _gold(tmp_path)
    value = "1"
    for _ in range(depth - 1):
        value = f"[{value}]"
    (folder / "claims.json").write_text(f'{{"multi_state_ex1": {value}}}')
    messages = [m for _f, _field, m in _problems(folder)]
    assert any("nests" in m for m in messages) is refused, messages


@pytest.mark.parametrize("name", ["meta.json", "claims.json", "predictions.jsonl"])
def test_a_number_too_long_to_convert_is_malformed_not_an_exception(tmp_path, name) -> None:
    folder = _gold(tmp_path)
    (folder / name).write_text('{"n": ' + "1" * 5000 + "}\n")
    problems = _problems(folder)
    assert any(f == name and "number" in m for f, _field, m in problems), problems


def test_json_depth_counts_arrays_and_objects() -> None:
    assert [json_depth(v) for v in (1, [], {}, [[1]], {"a": [{"b": 1}]}, [1, [2, [3]]])] == [0, 1, 1, 2, 3, 3]


@pytest.mark.timeout(30)
def test_predictions_lines_and_files_are_bounded(tmp_path) -> None:
    folder = _gold(tmp_path)
    edit_lines(folder / "predictions.jsonl",
               lambda n, r: {**r, "sql": "SELECT " + "1" * MAX_LINE_BYTES} if n == 3 else r)
    lines = (folder / "predictions.jsonl").read_text().splitlines()
    lines[6] = "[" * 100_000
    (folder / "predictions.jsonl").write_text("\n".join(lines) + "\n")
    problems = [p for p in load_submission(folder).problems]
    assert [(p.file, p.line) for p in problems] == [("predictions.jsonl", 3), ("predictions.jsonl", 7)]
    assert "at most" in problems[0].message and "nests" in problems[1].message
    with open(folder / "predictions.jsonl", "ab") as f:
        f.truncate(FILE_LIMITS["predictions.jsonl"] + 1)
    [problem] = load_submission(folder).problems
    assert problem.file == "predictions.jsonl" and "at most" in problem.message


def test_a_symlinked_submission_folder_is_refused(tmp_path) -> None:
    folder = _gold(tmp_path)
    link = tmp_path / "linked"
    os.symlink(folder, link)
    problems = _problems(link)
    assert {f for f, _field, _m in problems} == {"meta.json", "predictions.jsonl", "claims.json"}
    assert all("symbolic link" in m for _f, _field, m in problems)


@pytest.mark.timeout(30)
def test_a_sample_count_beyond_the_bound_is_malformed_not_a_hang(tmp_path) -> None:
    folder = _gold(tmp_path)
    edit_json(folder / "meta.json", n=10**9)
    verdict = _without_database(folder, tmp_path / "artifacts")
    assert verdict.codes == ["malformed"] and verdict.reasons[0]["field"] == "n"
    edit_json(folder / "meta.json", n=MAX_SAMPLES)
    assert load_submission(folder).well_formed


# --- 4. known-bad folders are judged before any state is built ----------------------------------------

@pytest.mark.parametrize("change, code", [
    ("missing-line", "incomplete"), ("delete", "non_select"), ("model", "model"), ("claims", "malformed"),
    ("bad-line", "malformed")])
def test_a_known_bad_folder_is_judged_without_a_database(tmp_path, change, code) -> None:
    folder = _gold(tmp_path)
    if change == "missing-line":
        edit_lines(folder / "predictions.jsonl", lambda n, r: None if n == 10 else r)
    elif change == "delete":
        edit_lines(folder / "predictions.jsonl",
                   lambda n, r: {**r, "sql": "DELETE FROM auth.users WHERE id = 1"} if n == 4 else r)
    elif change == "model":
        edit_json(folder / "meta.json", model="gpt-3.5-turbo")
    elif change == "claims":
        (folder / "claims.json").write_text('{"soft_f1": 100.0}\n')  # the required claim is missing
    else:
        with open(folder / "predictions.jsonl", "a") as f:
            f.write("{not json\n")
    artifacts = tmp_path / "artifacts"
    verdict = _without_database(folder, artifacts)
    assert verdict.codes == [code], verdict.reasons
    assert verdict.reproduced == {} and verdict.states == [] and not artifacts.exists()


# --- 5. a verdict's size is bounded -------------------------------------------------------------------

def test_reasons_are_capped_per_code_with_the_count_of_the_rest() -> None:
    verdict = Verdict("f", "t", "sql")
    for i in range(MAX_REASONS_PER_CODE + 5):
        verdict.reject("incomplete", f"reason {i}", line=i)
    verdict.reject("non_select", "one")
    incomplete = [r for r in verdict.reasons if r["code"] == "incomplete"]
    assert len(incomplete) == MAX_REASONS_PER_CODE + 1
    assert incomplete[-1] == {"code": "incomplete", "detail": "5 more incomplete reason(s) not listed", "omitted": 5}
    assert verdict.codes == ["incomplete", "non_select"]
    assert Verdict.from_json(json.loads(json.dumps(verdict.to_json()))).reasons == verdict.reasons


def test_only_the_records_that_would_be_scored_are_parsed_each_text_once(tmp_path) -> None:
    folder = _gold(tmp_path)
    delete = "DELETE FROM auth.users WHERE id = 1"
    lines = [json.loads(x) for x in (folder / "predictions.jsonl").read_text().splitlines()]
    lines[3]["sql"] = lines[7]["sql"] = delete  # the same refused text on two questions: reported twice
    duplicate = {**lines[0], "sql": "DROP TABLE auth.users"}  # a second q001#0: incomplete, never scored
    unknown = {**lines[0], "question_id": "q999", "sql": "DROP TABLE auth.users"}
    (folder / "predictions.jsonl").write_text("".join(json.dumps(r) + "\n" for r in [*lines, duplicate, unknown]))
    verdict = _statically(folder)
    assert [(r["code"], r.get("line")) for r in verdict.reasons] == [
        ("incomplete", 101), ("incomplete", 102), ("non_select", 4), ("non_select", 8)]


def test_a_folder_of_repeated_lines_gives_a_small_verdict(tmp_path) -> None:
    folder = _gold(tmp_path)
    first = (folder / "predictions.jsonl").read_text().splitlines()[0]
    with open(folder / "predictions.jsonl", "a") as f:
        f.write((first + "\n") * 5000)
    verdict = _without_database(folder, tmp_path / "artifacts")
    assert verdict.codes == ["incomplete"]
    assert len(verdict.reasons) == MAX_REASONS_PER_CODE + 1 and verdict.reasons[-1]["omitted"] == 5000 - 20
    assert len(json.dumps(verdict.to_json())) < 20_000
