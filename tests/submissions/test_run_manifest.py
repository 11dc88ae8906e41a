"""A real `heron bench` run's manifest names the leaderboard bytes that run wrote, which another
publish of the local leaderboard cannot change."""

from __future__ import annotations

import json

from heron_pipeline.artifacts import ArtifactLayout, ArtifactRef, write_document
from heron_pipeline.bench import StandingsResult
from heron_pipeline.bench.standings import write_local_leaderboard


def test_the_manifest_of_a_run_verifies_after_another_publish(gold_run, sub_artifacts) -> None:
    layout = ArtifactLayout(sub_artifacts)
    named = gold_run.manifest.read_json()["leaderboard"]
    assert set(named) == {"json", "csv", "md", "svg"} == set(gold_run.leaderboard_written)
    board = gold_run.standings.load()
    other = {**board, "tools": board["tools"][:0]}  # another run's board for the same scale and mode
    ref = write_document(layout.standings(board["scale"], board["question_mode"]), other)
    write_local_leaderboard(sub_artifacts, [StandingsResult(board["scale"], board["question_mode"], ref)])
    for entry in named.values():
        ArtifactRef.from_json(entry).read_bytes()
    def tools(payload: bytes) -> list[str]:
        return [t["tool"] for b in json.loads(payload)["standings"] for t in b["tools"]]

    assert tools(ArtifactRef.from_json(named["json"]).read_bytes()) == ["gold"]
    assert tools(layout.leaderboard("json").read_bytes()) == []
    # the friendly board is restored for the other tests of the session
    write_local_leaderboard(sub_artifacts, [gold_run.standings])
