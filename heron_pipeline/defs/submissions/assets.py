"""``published_leaderboard``: docs/leaderboard/ regenerated from the verified submissions.

One call of the core function ``heron leaderboard`` makes; the asset computes nothing itself. The
hidden-seeds file is read when the run starts (``HERON_HIDDEN_SEEDS_FILE`` or the resource field),
never at import, and its seeds never reach the metadata.
"""


import os
from pathlib import Path

from dagster import (AssetExecutionContext, AssetKey, ConfigurableResource, MaterializeResult, MetadataValue, asset,
                     define_asset_job)

from heron_pipeline.defs.resources import HeronServer
from heron_pipeline.defs.versions import leaderboard_version


class PublishConfig(ConfigurableResource):
    """Where submissions are read and the published folder written; empty fields: the repository's."""

    submissions_dir: str = ""
    out_dir: str = ""
    board_model: str = "gpt-4o"
    hidden_seeds_file: str = ""  # empty: HERON_HIDDEN_SEEDS_FILE at run time, else no hidden states
    evaluations_dir: str = ""  # empty: the repository's evaluations/ (the committed hidden evaluation records)
    night_scale: str = "tiny"  # the scale of the nightly hidden evaluation (hidden_night)

    def hidden_plan(self):
        """The maintainer's hidden plan (seeds, draw, secret), or None; read when the run starts."""
        from heron_pipeline.hidden.plan import read_hidden_plan

        path = self.hidden_seeds_file or os.environ.get("HERON_HIDDEN_SEEDS_FILE", "")
        return read_hidden_plan(Path(path)) if path else None


@asset(group_name="published", name="published_leaderboard", code_version=leaderboard_version(),
       deps=[AssetKey("questions"), AssetKey("schema_catalog")])
def published_leaderboard(context: AssetExecutionContext, heron: HeronServer, publish: PublishConfig) -> MaterializeResult:
    """The published leaderboard (docs/leaderboard/: leaderboard.json/.csv, LEADERBOARD.md, the headline and
    breakdown charts, the retrieval board and index.html), generated only from the submission folders:
    each is verified on the public states (verdicts reused when its inputs are unchanged) and rejected
    ones are listed in public with their reason codes. Separate from this instance's own `leaderboard`."""
    from heron_pipeline.leaderboard.publish import SUBMISSIONS_DIR, publish_leaderboard
    from heron_pipeline.leaderboard.write import PUBLISHED_DIR
    from heron_pipeline.submissions import BoardRules

    out = Path(publish.out_dir) if publish.out_dir else PUBLISHED_DIR
    from heron_pipeline.llm.settings import LLMSettings

    plan = publish.hidden_plan()
    doc = publish_leaderboard(heron.server(), heron.settings().artifacts,
                              Path(publish.submissions_dir) if publish.submissions_dir else SUBMISSIONS_DIR, out,
                              board=BoardRules(model=publish.board_model),
                              hidden_seeds=list(plan.seeds) if plan is not None else None, plan=plan,
                              evaluations=Path(publish.evaluations_dir) if publish.evaluations_dir else None,
                              llm=LLMSettings.from_environ(), say=context.log.info)
    return MaterializeResult(metadata={
        "out": MetadataValue.path(str(out)),
        "accepted": sum(s["status"] == "accepted" for s in doc["submissions"]),
        "rejected": MetadataValue.json([{"folder": r["folder"], "reasons": r["reason_codes"]} for r in doc["rejected"]]),
        "hidden_states": doc["hidden_states"],
        "hidden_evaluations": MetadataValue.json([{k: e[k] for k in ("date", "kind", "scale", "draw_digest",
                                                                      "audit_passed", "tools")}
                                                   for e in doc["evaluations"]]),
        "submissions": MetadataValue.json({s["folder"]: s["digest"] for s in doc["submissions"]}),
    })


published_leaderboard_job = define_asset_job("published_leaderboard_job", selection=[published_leaderboard])
