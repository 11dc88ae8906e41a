"""Predictions, scores, standings and the leaderboard as assets, one predictions/scores pair per tool.

Thin: every computation is a call into the pure core (``predictions``, ``harness``, ``leaderboard``);
the assets only choose partitions, read and write artifacts by path, and publish digests and EX
figures as metadata so lineage ties every leaderboard number to the files it came from.
"""

from pathlib import Path

from dagster import (
    AssetDep,
    AssetExecutionContext,
    AssetKey,
    AssetsDefinition,
    MaterializeResult,
    MetadataValue,
    MultiToSingleDimensionPartitionMapping,
    asset,
)

from heron_pipeline.config import PROJECT_ROOT
from heron_pipeline.defs.partitions import scale_partitions, state_of, state_partitions
from heron_pipeline.defs.resources import HeronServer

QUESTIONS_DIR = PROJECT_ROOT / "questions"
PRIMARY_SEED = 42
SAMPLES = 1
TOOLS_GROUP = "tools"
_BY_SCALE = MultiToSingleDimensionPartitionMapping(partition_dimension_name="scale")


def configured_tools() -> list[str]:
    """gold and alt always; llm when its endpoint is configured (HERON_LLM_MODEL, HERON_LLM_BASE_URL)."""
    from heron_pipeline.adapters.llm import LLMSettings

    return ["gold", "alt", *(["llm"] if LLMSettings.from_environ().configured else [])]


def _questions():
    from heron_pipeline.questions.model import load_questions

    return load_questions(QUESTIONS_DIR)


def predictions_asset(tool: str) -> AssetsDefinition:
    @asset(
        name=tool,
        key_prefix=["predictions"],
        partitions_def=scale_partitions,
        deps=[AssetKey("questions"), AssetKey("catalog")],
        group_name=TOOLS_GROUP,
        description=f"The `{tool}` tool's predicted SQL for every question of one scale, made once against the "
                    f"primary state (seed {PRIMARY_SEED}) and stored as a content-hashed JSON-lines artifact; "
                    f"the same SQL is then executed on every seeded state.",
    )
    def _predictions(context: AssetExecutionContext, heron: HeronServer) -> MaterializeResult:
        from heron_pipeline.adapters import PredictionContext, create_adapter
        from heron_pipeline.catalog import load_catalog
        from heron_pipeline.database.server import Server
        from heron_pipeline.predictions.make import make_predictions, store_predictions

        scale = context.partition_key
        settings = heron.settings()
        adapter = create_adapter(tool, **({"cache_dir": settings.artifacts / "llm_cache"} if tool == "llm" else {}))
        questions = _questions()
        pctx = PredictionContext(scale=scale, n=SAMPLES, catalog=load_catalog(),
                                 primary_dsn=Server(settings).benchmark_dsn(scale, PRIMARY_SEED))
        records = make_predictions(adapter, questions, pctx)
        path, digest = store_predictions(settings.artifacts, tool, scale, records)
        return MaterializeResult(metadata={
            "path": MetadataValue.path(str(path)), "digest": digest, "dagster/row_count": len(records),
            "errors": sum(r.error is not None for r in records),
            "conditions": MetadataValue.json(adapter.conditions()),
        })

    return _predictions


def scores_asset(tool: str) -> AssetsDefinition:
    @asset(
        name=tool,
        key_prefix=["scores"],
        partitions_def=state_partitions,
        deps=[AssetDep(AssetKey(["predictions", tool]), partition_mapping=_BY_SCALE), AssetKey("gold_results")],
        group_name=TOOLS_GROUP,
        description=f"The `{tool}` tool's predictions executed in the read-only sandbox on one (scale, seed) "
                    f"state and compared with that state's gold results: one score record per question and "
                    f"sample (correct, Soft-F1, row F1, error class, EM, Set-Recall), content-hashed.",
    )
    def _scores(context: AssetExecutionContext, heron: HeronServer) -> MaterializeResult:
        from heron_pipeline.database.server import Server
        from heron_pipeline.harness.gold import gold_rows_from_artifact, latest_gold_path
        from heron_pipeline.harness.score import score_state
        from heron_pipeline.harness.state import state_run
        from heron_pipeline.harness.store import store_scores
        from heron_pipeline.predictions.make import latest_predictions, load_predictions

        scale, seed = state_of(context.partition_key)
        settings = heron.settings()
        predictions_path = latest_predictions(settings.artifacts, tool, scale)
        gold_path = latest_gold_path(settings.artifacts, scale, seed)
        if predictions_path is None or gold_path is None:
            raise FileNotFoundError(f"scores/{tool} {scale}|{seed} needs predictions/{tool} and gold_results first")
        questions = _questions()
        server = Server(settings)
        server.up()
        records = score_state(tool, questions, load_predictions(predictions_path),
                              gold_rows_from_artifact(gold_path, questions), state_run(server, scale, seed))
        path, digest = store_scores(settings.artifacts, tool, scale, seed, records)
        first = [r for r in records if r.sample == 0]
        return MaterializeResult(metadata={
            "path": MetadataValue.path(str(path)), "digest": digest, "dagster/row_count": len(records),
            "ex1": 100.0 * sum(r.correct for r in first) / len(first),
            "errors": sum(r.error_class is not None for r in first),
            "predictions_path": MetadataValue.path(str(predictions_path)),
            "gold_path": MetadataValue.path(str(gold_path)),
        })

    return _scores


def tool_assets() -> list[AssetsDefinition]:
    return [a for tool in configured_tools() for a in (predictions_asset(tool), scores_asset(tool))]


@asset(
    partitions_def=scale_partitions,
    deps=[AssetDep(AssetKey(["scores", t]), partition_mapping=_BY_SCALE) for t in configured_tools()],
    group_name=TOOLS_GROUP,
)
def standings(context: AssetExecutionContext, heron: HeronServer) -> MaterializeResult:
    """Every metric per tool on one scale, computed by DuckDB over the score artifacts of every seed
    present: multi-state EX@1 (the headline), EX@1 per state, EX@k, VES/R-VES when timed, Soft-F1,
    row F1, Set-Recall@k, EM, errors, tokens, cost, latency, Grade, bootstrap CIs and breakdowns."""
    from heron_pipeline.adapters import create_adapter
    from heron_pipeline.harness.standings import compute_standings, conditions_of, standings_json
    from heron_pipeline.harness.store import latest_score_paths, store_standings

    scale = context.partition_key
    settings = heron.settings()
    tools = configured_tools()
    paths = latest_score_paths(settings.artifacts, scale, tools)
    result = compute_standings(paths, scale, {t: conditions_of(create_adapter(t, **(
        {"cache_dir": settings.artifacts / "llm_cache"} if t == "llm" else {}))) for t in tools})
    path, digest = store_standings(settings.artifacts, scale, standings_json(result))
    return MaterializeResult(metadata={
        "path": MetadataValue.path(str(path)), "digest": digest, "seeds": MetadataValue.json(result["seeds"]),
        "multi_state_ex1": MetadataValue.json({t["tool"]: t["multi_state_ex1"] for t in result["tools"]}),
        "grade": MetadataValue.json({t["tool"]: round(t["grade"], 2) for t in result["tools"]}),
        "score_artifacts": MetadataValue.json([str(p) for p in paths]),
    })


@asset(deps=[standings], group_name=TOOLS_GROUP)
def leaderboard(context: AssetExecutionContext, heron: HeronServer) -> MaterializeResult:
    """leaderboard.json / .csv / .md / .svg in the local results folder, from the newest standings of every
    scale, with the conditions (scale, seeds, model, temperature, n, single- or multi-state) on every
    row. Never writes over the published leaderboard in submissions/."""
    import json

    from heron_pipeline.leaderboard import local_results_dir, write_leaderboard
    from heron_pipeline.predictions.artifact import latest_artifact

    settings = heron.settings()
    boards = []
    for scale in scale_partitions.get_partition_keys():
        newest = latest_artifact(Path(settings.artifacts) / "standings" / scale, suffix=".json")
        if newest is not None:
            boards.append(json.loads(newest.read_text(encoding="utf-8")))
    if not boards:
        raise FileNotFoundError("no standings to publish: materialize standings first")
    files = write_leaderboard(boards, local_results_dir(settings.artifacts))
    return MaterializeResult(metadata={
        **{suffix: MetadataValue.path(str(p)) for suffix, p in files.items()},
        "scales": MetadataValue.json([b["scale"] for b in boards]),
        "markdown": MetadataValue.md(files["md"].read_text(encoding="utf-8")),
    })
