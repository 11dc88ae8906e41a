"""The Dagster face of publishing: the sensor fires on a new or changed folder only, and the
`published_leaderboard` asset writes exactly what `heron leaderboard` writes."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from dagster import Definitions, SkipReason, build_sensor_context, materialize

from heron_pipeline.defs.resources import HeronServer
from heron_pipeline.defs.submissions import (PublishConfig, published_leaderboard, published_leaderboard_job,
                                             submissions_watch)
from heron_pipeline.leaderboard.publish import PUBLISHED_FILES


def _evaluate(root: Path, cursor: str | None):
    defs = Definitions(assets=[published_leaderboard], jobs=[published_leaderboard_job], sensors=[submissions_watch],
                       resources={"publish": PublishConfig(submissions_dir=str(root)), "heron": HeronServer()})
    context = build_sensor_context(cursor=cursor, definitions=defs, resources={"publish": PublishConfig(submissions_dir=str(root))})
    return submissions_watch(context)


def test_the_sensor_runs_for_new_and_changed_folders_only(submissions, tmp_path) -> None:
    root = tmp_path / "subs"
    shutil.copytree(submissions / "gold", root / "gold")
    first = _evaluate(root, None)
    assert len(first.run_requests) == 1 and first.run_requests[0].tags["heron/changed"] == "gold"
    assert isinstance(_evaluate(root, first.cursor), SkipReason)  # nothing changed
    claims = root / "gold" / "claims.json"
    claims.write_text(json.dumps({"multi_state_ex1": 99.0}))
    changed = _evaluate(root, first.cursor)
    assert changed.run_requests[0].tags["heron/changed"] == "gold"
    assert changed.run_requests[0].run_key != first.run_requests[0].run_key
    (root / "elsewhere").mkdir()  # a folder without submission files is not a submission
    assert isinstance(_evaluate(root, changed.cursor), SkipReason)


def test_the_asset_writes_what_heron_leaderboard_writes(published, submissions, settings, sub_artifacts, tmp_path) -> None:
    out, _doc = published
    result = materialize([published_leaderboard], resources={
        "heron": HeronServer(dsn=settings.dsn or "", data_dir=str(settings.data_dir), port=settings.port,
                             artifact_dir=str(sub_artifacts)),
        "publish": PublishConfig(submissions_dir=str(submissions), out_dir=str(tmp_path))})
    assert result.success
    metadata = result.asset_materializations_for_node("published_leaderboard")[0].metadata
    assert metadata["accepted"].value == 2 and len(metadata["rejected"].value) == 6
    for name in PUBLISHED_FILES:
        assert (tmp_path / name).read_bytes() == (out / name).read_bytes(), name
