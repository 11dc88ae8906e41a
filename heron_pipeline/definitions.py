"""The Definitions object Dagster loads: it only gathers what `defs/` declares."""

from dagster import Definitions

from heron_pipeline.defs.catalog.assets import catalog
from heron_pipeline.defs.questions.assets import gold_audit, gold_results, questions
from heron_pipeline.defs.resources import HeronServer
from heron_pipeline.defs.seeding.assets import database, domain_assets
from heron_pipeline.defs.tools.assets import leaderboard, standings, tool_assets

defs = Definitions(
    assets=[catalog, *domain_assets(), database, questions, gold_results, gold_audit, *tool_assets(), standings, leaderboard],
    resources={"heron": HeronServer()},
)
