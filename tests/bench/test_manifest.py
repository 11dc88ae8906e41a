"""A run manifest names only what its own run wrote: another publish of the local leaderboard (two
`heron bench` runs at once in one checkout) leaves every entry of the first manifest verifiable."""

from __future__ import annotations

import datetime as dt
import hashlib
import json
from pathlib import Path

from heron_pipeline.artifacts import ArtifactLayout, ArtifactRef, write_document
from heron_pipeline.bench import BenchOptions, BenchResult, StandingsResult
from heron_pipeline.bench.run import write_manifest
from heron_pipeline.bench.standings import write_local_leaderboard

STARTED = dt.datetime(2026, 12, 2, tzinfo=dt.timezone.utc)


def _standings(layout: ArtifactLayout, seeds: list[int]) -> StandingsResult:
    board = {"scale": "tiny", "seeds": seeds, "mode": "multi-state" if len(seeds) > 1 else "single-state",
             "question_mode": "full", "ci": {"resamples": 1000, "seed": 0}, "tools": []}
    return StandingsResult("tiny", "full", write_document(layout.standings("tiny", "full"), board))


def _run(artifacts: Path, seeds: list[int]) -> ArtifactRef:
    """The end of a bench run: its standings, the local leaderboard, its manifest."""
    result = BenchResult(BenchOptions(seeds=tuple(seeds), tools=("gold",)))
    result.standings = _standings(ArtifactLayout(artifacts), seeds)
    board = write_local_leaderboard(artifacts, [result.standings])
    result.leaderboard, result.leaderboard_written = board.files, board.written
    return write_manifest(artifacts, result, STARTED, "questions-digest")


def test_the_first_manifest_still_verifies_after_a_second_publish(tmp_path: Path) -> None:
    layout = ArtifactLayout(tmp_path)
    first = _run(tmp_path, [42])
    second = _run(tmp_path, [42, 43])  # same (scale, mode): its board replaces the first's
    entries = {}
    for manifest in (first, second):
        named = manifest.read_json()["leaderboard"]
        assert set(named) == {"json", "csv", "md", "svg"}
        entries[manifest] = {suffix: ArtifactRef.from_json(e) for suffix, e in named.items()}
        for ref in entries[manifest].values():
            ref.read_bytes()  # present, and its bytes hash to the recorded digest
            assert ref.path.parent == layout.leaderboard_copy()
    first_board = json.loads(entries[first]["json"].read_bytes())
    assert [b["seeds"] for b in first_board["standings"]] == [[42]]
    # leaderboard.json is the second run's now: a manifest naming it would no longer verify
    friendly = hashlib.sha256(layout.leaderboard("json").read_bytes()).hexdigest()
    assert friendly == entries[second]["json"].digest != entries[first]["json"].digest


def test_the_friendly_files_and_the_kept_copies_hold_the_same_bytes(tmp_path: Path) -> None:
    layout = ArtifactLayout(tmp_path)
    board = write_local_leaderboard(tmp_path, [_standings(layout, [42, 43])])
    assert set(board.files) == set(board.written)
    for suffix, path in board.files.items():
        assert path == layout.leaderboard(suffix)
        assert path.read_bytes() == board.written[suffix].read_bytes()
    index = json.loads(layout.boards_index().read_text())
    assert list(index) == ["tiny/full"]
