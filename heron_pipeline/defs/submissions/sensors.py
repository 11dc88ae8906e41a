"""``submissions_watch``: a new, changed or removed submission folder starts the publish job.

The sensor compares the digest of every folder (its three files' bytes) with the cursor of its
last run; the published folder lives outside ``submissions/``, so a publish never retriggers it.
"""


import hashlib
import json
from pathlib import Path

from dagster import DefaultSensorStatus, RunRequest, SensorEvaluationContext, SensorResult, SkipReason, sensor

from heron_pipeline.defs.submissions.assets import PublishConfig, published_leaderboard_job


def submissions_state(root: Path) -> dict[str, str]:
    """folder name -> submission digest of every submission folder under ``root``."""
    from heron_pipeline.leaderboard.publish import submission_folders
    from heron_pipeline.submissions import submission_digest

    return {f.name: submission_digest(f) for f in submission_folders(root)} if Path(root).is_dir() else {}


@sensor(name="submissions_watch", job=published_leaderboard_job, default_status=DefaultSensorStatus.STOPPED,
        minimum_interval_seconds=60)
def submissions_watch(context: SensorEvaluationContext, publish: PublishConfig):
    """Starts `published_leaderboard_job` when a folder under submissions/ is added, changed or removed
    (compared by digest with the last evaluation). Stopped by default: its first tick verifies every
    committed submission, which builds the small states — an operator's decision, not a side effect of
    opening the UI."""
    from heron_pipeline.leaderboard.publish import SUBMISSIONS_DIR

    state = submissions_state(Path(publish.submissions_dir) if publish.submissions_dir else SUBMISSIONS_DIR)
    cursor = json.dumps(state, sort_keys=True)
    previous = json.loads(context.cursor) if context.cursor else None
    if previous == state:
        return SkipReason(f"{len(state)} submission folder(s), none changed")
    changed = sorted(k for k in set(state) | set(previous or {}) if (previous or {}).get(k) != state.get(k))
    key = hashlib.sha256(cursor.encode()).hexdigest()
    return SensorResult(run_requests=[RunRequest(run_key=key, tags={"heron/changed": ",".join(changed)[:200]})],
                        cursor=cursor)
