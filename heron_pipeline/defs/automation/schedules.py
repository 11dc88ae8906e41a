"""The nightly tool run: every tool's predictions for every configured scale, failed calls re-asked.

Everything else comes from the LLM response cache unless the questions, schema, model or tool
configuration changed; scores, standings and the leaderboard follow by automation conditions.
Stopped by default: an operator turns it on once an endpoint is configured.
"""

from dagster import DefaultScheduleStatus, RunRequest, ScheduleEvaluationContext, schedule

from heron_pipeline.defs.automation.jobs import predictions_job

NIGHTLY_CRON = "0 2 * * *"


@schedule(job=predictions_job, cron_schedule=NIGHTLY_CRON, execution_timezone="UTC",
          default_status=DefaultScheduleStatus.STOPPED, name="nightly_tool_runs")
def nightly_tool_runs(context: ScheduleEvaluationContext):
    """One run request per scale listed under `scales` in heron.toml (read when the schedule ticks)."""
    from heron_pipeline.config import load_settings

    day = context.scheduled_execution_time.strftime("%Y-%m-%d")
    for scale in load_settings().scales:
        yield RunRequest(run_key=f"nightly-{scale}-{day}", partition_key=scale,
                         run_config={"resources": {"bench": {"config": {"retry_failed": True}}}},
                         tags={"heron/nightly": day})
