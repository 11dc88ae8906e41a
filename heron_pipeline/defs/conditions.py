"""The automation conditions of the downstream stages: one control plane with ``bench_job`` (issue 34).

``bench_job`` runs every stage itself, each as a run tagged ``heron/bench_job``. Dagster's ``eager()``
reacted to those runs' materializations too: during a ``bench_job`` the automation sensor started a
scores run as soon as the job's gold changed, before the job's own predictions (it scored stale ones),
then standings and the leaderboard again — five extra runs. Here an asset follows its dependencies
eagerly, as before, except that

* an update made by a ``bench_job`` stage run does not trigger it (the job runs the next stage itself), and
* a missing partition whose dependencies were made by a ``bench_job`` stage run is the job's to build (a
  seed the job added is not "newly missing" for the sensor to fill in behind the job's back).

A dependency re-made outside the job (a materialization from the UI, a backfill, the nightly schedule,
the sensor's own runs) is followed as before, also after a ``bench_job``. Built from Dagster's own operands, so the daemon evaluates it without user code.
"""

from dagster import AutomationCondition

#: The run tag of every stage run ``bench_job`` starts (its value: the ``bench_job`` run's id).
BENCH_JOB_TAG = "heron/bench_job"

#: A dependency whose latest materialization came from a ``bench_job`` stage run.
MADE_BY_BENCH_JOB = AutomationCondition.executed_with_tags(tag_keys={BENCH_JOB_TAG}).with_label("made by bench_job")


def follow(*, wait_for_missing: bool = True) -> AutomationCondition:
    """``eager()`` without ``bench_job``'s updates: requested when a dependency changed (outside
    ``bench_job``) or the partition newly went missing, never while a dependency or the target is in
    progress, nor to fill a missing partition whose dependency ``bench_job`` made; with ``wait_for_missing``, never while a
    dependency is missing (the leaderboard does not wait for scales never built)."""
    updated_outside = AutomationCondition.any_deps_match(
        (AutomationCondition.newly_updated() & ~AutomationCondition.executed_with_root_target()
         & ~MADE_BY_BENCH_JOB).with_label("newly updated outside bench_job")
        | AutomationCondition.will_be_requested()).with_label("any deps updated outside bench_job")
    condition = (AutomationCondition.in_latest_time_window()
                 & (AutomationCondition.newly_missing() | updated_outside).since_last_handled()
                 & ~AutomationCondition.any_deps_in_progress()
                 & ~AutomationCondition.in_progress()
                 & ~(AutomationCondition.missing() & AutomationCondition.any_deps_match(MADE_BY_BENCH_JOB)
                     ).with_label("missing, for bench_job to build"))
    if wait_for_missing:
        condition = condition & ~AutomationCondition.any_deps_missing()
    return condition.with_label("eager, yielding to bench_job")
