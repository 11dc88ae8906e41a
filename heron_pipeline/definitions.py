"""The Definitions object Dagster loads: it only gathers what `defs/` declares."""

from dagster import Definitions

from heron_pipeline.defs.catalog.assets import catalog
from heron_pipeline.defs.resources import HeronServer
from heron_pipeline.defs.seeding.assets import database, domain_assets

defs = Definitions(
    assets=[catalog, *domain_assets(), database],
    resources={"heron": HeronServer()},
)
