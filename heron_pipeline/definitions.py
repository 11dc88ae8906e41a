"""The Definitions object Dagster loads: it only gathers what `defs/` declares.

Importing it reads no environment and parses nothing (the domain graph comes from a cache keyed by
the DDL digest), so the graph is the same wherever it is loaded. By default steps run in the run's own
process (the in-process executor): each step of the multiprocess executor re-imported the definitions
in a fresh subprocess, which cost more than most steps' work. A run's configuration may send its steps
to Celery workers instead (``execution.config.celery``, ``defs/automation/executors.py``).
"""

from dagster import Definitions

from heron_pipeline.defs.automation.executors import heron_executor
from heron_pipeline.defs.automation.jobs import JOBS
from heron_pipeline.defs.automation.schedules import nightly_tool_runs
from heron_pipeline.defs.automation.sensors import automation_sensor, observe_sources_sensor, seed_partitions_sensor
from heron_pipeline.defs.catalog.assets import schema_catalog
from heron_pipeline.defs.questions.assets import gold_audit, gold_results, questions
from heron_pipeline.defs.resources import BenchConfig, HeronServer, LLMEndpoint
from heron_pipeline.defs.seeding.assets import database, seeded_domains
from heron_pipeline.defs.submissions import PublishConfig, published_leaderboard, published_leaderboard_job, \
    submissions_watch
from heron_pipeline.defs.submissions.hidden import hidden_night, hidden_night_job, hidden_nightly_schedule
from heron_pipeline.defs.tools.assets import leaderboard, standings, tool_assets

defs = Definitions(
    assets=[schema_catalog, seeded_domains, database, questions, gold_results, gold_audit, *tool_assets(),
            standings, leaderboard, published_leaderboard, hidden_night],
    jobs=[*JOBS, published_leaderboard_job, hidden_night_job],
    schedules=[nightly_tool_runs, hidden_nightly_schedule],
    sensors=[seed_partitions_sensor, observe_sources_sensor, automation_sensor, submissions_watch],
    resources={"heron": HeronServer(), "bench": BenchConfig(), "llm": LLMEndpoint(), "publish": PublishConfig()},
    executor=heron_executor,
)


def stage_job(name: str):
    """One of the jobs above by name: how ``bench_job`` reconstructs each stage in its own process."""
    return defs.resolve_job_def(name)
