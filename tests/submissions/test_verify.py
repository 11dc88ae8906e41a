"""heron verify / heron leaderboard on real tiny states: accepted claims reproduce exactly, each
tampered copy is rejected in public with its own reason code, hidden seeds never leak."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from heron_pipeline.leaderboard.publish import PUBLISHED_FILES, cached_verdict, publish_leaderboard
from heron_pipeline.submissions import BoardRules, load_expected_fingerprints

from .conftest import SEEDS

EXPECTED_CODES = {"weak-claim5": ["claim_gap"], "weak-model": ["model"], "gold-delete": ["non_select"],
                  "gold-missing": ["incomplete"], "gold-scale": ["scale"], "gold-broken": ["malformed"]}


def _verdict(folder: Path, server, artifacts: Path):
    return cached_verdict(folder, server, artifacts, board=BoardRules(), expected=load_expected_fingerprints())


def test_packaged_run_is_accepted_and_reproduces_its_claims_exactly(published, submissions, tiny42, sub_artifacts,
                                                                    gold_run) -> None:
    verdict = _verdict(submissions / "gold", tiny42, sub_artifacts)
    assert verdict.accepted, verdict.reasons
    claims = json.loads((submissions / "gold" / "claims.json").read_text())
    row = next(t for t in gold_run.standings.load()["tools"] if t["tool"] == "gold")
    assert claims == {k: row[k] for k in ("multi_state_ex1", "soft_f1", "row_f1", "exact_match", "table_recall",
                                          "table_precision")}
    assert {k: verdict.reproduced[k] for k in claims} == claims
    assert [s["seed"] for s in verdict.states] == list(SEEDS) and all(s["expected"] for s in verdict.states)
    meta = json.loads((submissions / "gold" / "meta.json").read_text())
    assert meta["class"] == "reference" and meta["model"] is None and meta["run"]["manifest_digest"] == \
        gold_run.manifest.digest


def test_an_honest_sql_submission_is_recomputed(published, submissions, tiny42, sub_artifacts) -> None:
    verdict = _verdict(submissions / "weak-sql", tiny42, sub_artifacts)
    assert verdict.accepted, verdict.reasons
    assert verdict.reproduced["multi_state_ex1"] == 80.0  # 20 of 100 answers replaced by a wrong one


@pytest.mark.parametrize("folder", sorted(EXPECTED_CODES))
def test_each_tampered_copy_is_rejected_in_public_with_its_code(published, folder) -> None:
    _out, doc = published
    entry = next(r for r in doc["rejected"] if r["folder"] == folder)
    assert entry["reason_codes"] == EXPECTED_CODES[folder], entry["reasons"]
    assert set(entry) >= {"tool", "folder", "claimed", "reproduced", "reasons"}


def test_rejections_are_located(published, submissions) -> None:
    _out, doc = published
    by = {r["folder"]: r for r in doc["rejected"]}
    delete = by["gold-delete"]["reasons"][0]
    assert (delete["file"], delete["line"], delete["field"]) == ("predictions.jsonl", 4, "sql")
    broken = {(x["file"], x["field"]) for x in by["gold-broken"]["reasons"]}
    assert broken == {("meta.json", "n"), ("meta.json", "approach")}
    n_line = next(x["line"] for x in by["gold-broken"]["reasons"] if x["field"] == "n")
    meta_lines = (submissions / "gold-broken" / "meta.json").read_text().splitlines()
    assert meta_lines[n_line - 1].strip().startswith('"n":')
    gap = by["weak-claim5"]
    assert gap["claimed"]["multi_state_ex1"] == 85.0 and gap["reproduced"]["multi_state_ex1"] == 80.0
    # judged by the static checks alone: no state is built for a known-bad folder, so nothing is reproduced
    assert by["gold-missing"]["reproduced"] == {} and by["weak-model"]["reproduced"] == {}


def test_the_board_ranks_accepted_rows_only(published) -> None:
    out, doc = published
    [board] = doc["standings"]
    assert sorted(t["tool"] for t in board["tools"]) == ["gold", "weak-sql"]
    assert board["tools"][0]["tool"] == "gold" and board["provenance"]["states"][0]["seed"] == 42
    assert sorted(p.name for p in out.iterdir()) == sorted(PUBLISHED_FILES)
    assert doc["hidden_states"] == 0 and all("hidden" not in t for t in board["tools"])


def test_regenerating_gives_the_same_bytes(published, tiny42, sub_artifacts, submissions, tmp_path) -> None:
    out, _doc = published
    publish_leaderboard(tiny42, sub_artifacts, submissions, tmp_path)  # verdicts reused by digest
    for name in PUBLISHED_FILES:
        assert (tmp_path / name).read_bytes() == (out / name).read_bytes(), name


def test_hidden_seed_scores_publicly_as_a_count_only(tiny42, sub_artifacts, submissions, tmp_path) -> None:
    from heron_pipeline.bench.states import existing_state

    hidden_seed = 1234567891
    subs = tmp_path / "subs"
    for name in ("gold", "gold-delete"):
        shutil.copytree(submissions / name, subs / name)
    out = tmp_path / "out"
    doc = publish_leaderboard(tiny42, sub_artifacts, subs, out, hidden_seeds=[hidden_seed])
    row = doc["standings"][0]["tools"][0]
    assert row["hidden"] == {"hidden_states": 1, "multi_state_ex1_public_hidden": 100.0}
    assert doc["hidden_states"] == 1
    fingerprint = existing_state(tiny42, sub_artifacts, "tiny", hidden_seed).fingerprint
    for path in out.iterdir():
        text = path.read_text()
        assert str(hidden_seed) not in text and fingerprint not in text and fingerprint[:16] not in text, path.name
    assert "public + 1 hidden" in (out / "index.html").read_text()
    # without the file: hidden figures carried over verbatim, everything else byte-equal
    again = tmp_path / "again"
    again.mkdir()
    shutil.copy(out / "leaderboard.json", again / "leaderboard.json")
    publish_leaderboard(tiny42, sub_artifacts, subs, again)
    for name in PUBLISHED_FILES:
        assert (again / name).read_bytes() == (out / name).read_bytes(), name
    # a changed submission loses its carried figures (they were about other bytes)
    shutil.rmtree(subs / "gold-delete")
    fresh = tmp_path / "fresh"
    assert all("hidden" not in t for t in publish_leaderboard(tiny42, sub_artifacts, subs, fresh)["standings"][0]["tools"])


def test_the_published_folder_is_outside_submissions(tiny42, sub_artifacts, submissions) -> None:
    with pytest.raises(ValueError, match="inside --submissions"):
        publish_leaderboard(tiny42, sub_artifacts, submissions, submissions / "board")
