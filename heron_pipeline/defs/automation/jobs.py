"""Jobs, one per partitions definition (Dagster requires a job's assets to share one; each job's
partitioning is inferred from the assets it selects), the observation of the sources, and `bench_job`,
which runs them all in order for one scale (``pipeline.py``)."""

from dagster import AssetSelection, define_asset_job

from heron_pipeline.defs.automation.pipeline import bench_job
from heron_pipeline.defs.tools.assets import ALL_TOOLS, SCORED_TOOLS, predictions_key, scores_key

#: Build, gold and per-state audit of one (scale, seed) state.
state_job = define_asset_job(
    "state_job", selection=AssetSelection.groups("seeding") | AssetSelection.assets("gold_results"), description="Build one (scale, seed) state and compute its gold.")
#: The release gate of one scale over its materialized states.
audit_job = define_asset_job("audit_job", selection=AssetSelection.assets("gold_audit"), description="Audit one scale's states.")
#: Every tool's predictions for one scale (what the nightly schedule runs).
predictions_job = define_asset_job(
    "predictions_job", selection=AssetSelection.assets(*(predictions_key(t) for t in ALL_TOOLS)), description="Every tool's predictions for one scale.")
#: Every tool's scores on one state.
scores_job = define_asset_job(
    "scores_job", selection=AssetSelection.assets(*(scores_key(t) for t in SCORED_TOOLS)), description="Every tool's scores on one (scale, seed) state.")
standings_job = define_asset_job("standings_job", selection=AssetSelection.assets("standings"), description="One scale's standings.")
leaderboard_job = define_asset_job("leaderboard_job", selection=AssetSelection.assets("leaderboard"),
                                   description="The local leaderboard files of every scale.")

#: Observes the two observable sources (what the `observe_sources` sensor starts).
observe_sources_job = define_asset_job("observe_sources_job", selection=AssetSelection.assets("schema_catalog", "questions"),
                                       description="Observe schema_catalog and questions (their files' digests).")

JOBS = [state_job, audit_job, predictions_job, scores_job, standings_job, leaderboard_job, observe_sources_job,
        bench_job]
