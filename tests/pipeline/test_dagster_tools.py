"""The tools stage in Dagster: predictions/gold for tiny, then scores/gold for tiny|42."""

from __future__ import annotations

import json
import warnings

from dagster import AssetKey, DagsterInstance, MultiPartitionKey, materialize

from heron_pipeline.config import PROJECT_ROOT
from heron_pipeline.defs.resources import HeronServer
from heron_pipeline.harness.gold import build_gold_artifact
from heron_pipeline.predictions.artifact import read_jsonl
from heron_pipeline.questions.model import load_questions

warnings.filterwarnings("ignore", category=Warning, module="dagster")


def test_definitions_hold_the_tools_stage() -> None:
    from heron_pipeline.definitions import defs

    graph = defs.resolve_asset_graph()
    keys = {k.to_user_string() for k in graph.get_all_asset_keys()}
    assert {"predictions/gold", "predictions/alt", "scores/gold", "scores/alt", "standings", "leaderboard"} <= keys
    assert graph.get(AssetKey(["scores", "gold"])).parent_keys >= {AssetKey(["predictions", "gold"]),
                                                                     AssetKey("gold_results")}


def test_materialize_predictions_and_scores_of_gold_on_tiny_42(tiny42, settings) -> None:
    from heron_pipeline.defs.tools.assets import predictions_asset, scores_asset

    questions = load_questions(PROJECT_ROOT / "questions")
    build_gold_artifact(tiny42, settings.artifacts, "tiny", 42, questions)
    resource = HeronServer(dsn=settings.dsn or "", data_dir=str(settings.data_dir), port=settings.port)
    instance = DagsterInstance.ephemeral()
    instance.add_dynamic_partitions("seed", ["42"])
    predictions, scores = predictions_asset("gold"), scores_asset("gold")

    made = materialize([predictions], instance=instance, partition_key="tiny", resources={"heron": resource})
    assert made.success
    meta = made.asset_materializations_for_node("predictions__gold")[0].metadata
    path = meta["path"].value
    assert path.endswith(f"{meta['digest'].value}.jsonl") and meta["dagster/row_count"].value == len(questions)

    scored = materialize([predictions, scores], instance=instance, selection=[scores.key],
                         partition_key=MultiPartitionKey({"scale": "tiny", "seed": "42"}),
                         resources={"heron": resource})
    assert scored.success
    meta = scored.asset_materializations_for_node("scores__gold")[0].metadata
    assert meta["ex1"].value == 100.0 and meta["errors"].value == 0
    records = list(read_jsonl(__import__("pathlib").Path(meta["path"].value)))
    assert len(records) == len(questions) and all(r["correct"] and r["seed"] == 42 for r in records)
    assert json.dumps(records[0])  # plain JSON lines DuckDB can read


def test_materialize_standings_and_leaderboard_from_score_artifacts(tmp_path) -> None:
    from heron_pipeline.defs.tools.assets import leaderboard, standings
    from heron_pipeline.harness.store import store_scores

    from .test_standings import tool_a

    for seed, records in tool_a().items():  # synthetic scores of a tool called "gold"
        store_scores(tmp_path / "artifacts", "gold", "tiny", seed,
                     [r.__class__(**{**r.__dict__, "tool": "gold"}) for r in records])
    resource = HeronServer(data_dir=str(tmp_path), port=1025)  # no server needed: artifacts only
    instance = DagsterInstance.ephemeral()
    result = materialize([standings], instance=instance, partition_key="tiny", resources={"heron": resource})
    assert result.success
    meta = result.asset_materializations_for_node("standings")[0].metadata
    assert meta["seeds"].value == [42, 43] and abs(meta["multi_state_ex1"].value["gold"] - 100 / 3) < 1e-9
    result = materialize([leaderboard], instance=instance, resources={"heron": resource})
    assert result.success
    md = (tmp_path / "artifacts" / "results" / "leaderboard.md").read_text()
    assert "| gold | reference:gold |" in md and "42,43" in md and "multi-state" in md
