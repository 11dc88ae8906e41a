"""``hidden_night``: the nightly hidden evaluation as a daily-partitioned asset, and its schedule.

One partition per night; materializing it calls the core ``leaderboard.nightly.run_night`` (the
draw derived from the maintainer's secret and the partition's date, every runnable submission run
on it, the night's record written, the page regenerated). The metadata beside each run is the
night's draw digest and audit verdict — never a seed: the hidden file is read when the run starts.
Stopped by default, like the other schedule: the maintainer turns it on with a hidden file in place.
"""

import datetime as dt
import os
from pathlib import Path

from dagster import (AssetExecutionContext, AssetKey, DailyPartitionsDefinition, DefaultScheduleStatus,
                     MaterializeResult, MetadataValue, asset, build_schedule_from_partitioned_job, define_asset_job)

from heron_pipeline.defs.resources import HeronServer
from heron_pipeline.defs.submissions.assets import PublishConfig
from heron_pipeline.defs.versions import leaderboard_version

NIGHTS = DailyPartitionsDefinition(start_date="2026-12-01", timezone="UTC", end_offset=1)


@asset(group_name="published", name="hidden_night", partitions_def=NIGHTS, code_version=leaderboard_version(),
       deps=[AssetKey("questions"), AssetKey("schema_catalog")])
def hidden_night(context: AssetExecutionContext, heron: HeronServer, publish: PublishConfig) -> MaterializeResult:
    """The night's hidden evaluation: every runnable submission on the night's draw (instance seed and
    data seeds from HMAC(secret, date)), its record under evaluations/ and the page with its history."""
    from heron_pipeline.hidden.plan import read_hidden_plan
    from heron_pipeline.leaderboard.nightly import run_night
    from heron_pipeline.leaderboard.publish import SUBMISSIONS_DIR
    from heron_pipeline.leaderboard.write import PUBLISHED_DIR
    from heron_pipeline.llm.settings import LLMSettings
    from heron_pipeline.submissions import BoardRules

    path = publish.hidden_seeds_file or os.environ.get("HERON_HIDDEN_SEEDS_FILE", "")
    if not path:
        raise ValueError("hidden_night needs the maintainer's hidden file: set the `publish` resource's "
                         "hidden_seeds_file, or HERON_HIDDEN_SEEDS_FILE for the Dagster process")
    date = dt.date.fromisoformat(context.partition_key)
    night = run_night(heron.server(), heron.settings().artifacts, read_hidden_plan(Path(path)),
                      scale=publish.night_scale, date=date, board=BoardRules(model=publish.board_model),
                      submissions=Path(publish.submissions_dir) if publish.submissions_dir else SUBMISSIONS_DIR,
                      out=Path(publish.out_dir) if publish.out_dir else PUBLISHED_DIR,
                      evaluations=Path(publish.evaluations_dir) if publish.evaluations_dir else None,
                      llm=LLMSettings.from_environ(), say=context.log.info)
    audit = night.get("audit_passed")
    return MaterializeResult(metadata={
        "night": night["label"],
        "scale": night["scale"],
        "draw_digest": night.get("draw_digest") or "no runnable submission at this scale",
        "audit": "passed" if audit else "not run" if audit is None else "FAILED",
        "tools_evaluated": night.get("tools", 0),
        "hidden_states": night.get("hidden_states", 0),
        "retired": MetadataValue.json(None),
    })


hidden_night_job = define_asset_job("hidden_night_job", selection=[hidden_night], partitions_def=NIGHTS)
hidden_nightly_schedule = build_schedule_from_partitioned_job(
    hidden_night_job, hour_of_day=3, name="hidden_nightly", default_status=DefaultScheduleStatus.STOPPED)
