"""The questions, their gold answers per state, and the audit that gates scoring per scale.

`questions` is an observable source (its data version is the digest of the question files);
`gold_results` runs every question on one (scale, seed) state through the bench core's gold step
and reports the per-state rules as blocking checks; `gold_audit` runs the core's audit step over
every state of the scale whose gold is materialized, and its blocking check stops predictions and
scores within the same run (the core refuses them on its own in every other run).
"""

from dagster import (AssetCheckResult, AssetCheckSeverity, AssetCheckSpec, AssetDep, AssetExecutionContext, AssetKey,
                     DataVersion, MaterializeResult, MetadataValue, MultiToSingleDimensionPartitionMapping,
                     ObserveResult, asset, observable_source_asset)

from heron_pipeline.defs.lineage import MissingUpstream, materialized_partitions, result_metadata, upstream_result
from heron_pipeline.defs.partitions import BadSeedPartition, scale_partitions, seed_of, state_key, state_of_run, \
    state_partitions
from heron_pipeline.defs.resources import BenchConfig, HeronServer
from heron_pipeline.defs.versions import gold_version, questions_version

QUESTIONS_GROUP = "questions"
BY_SCALE = MultiToSingleDimensionPartitionMapping(partition_dimension_name="scale")

#: The per-state checks of gold_results (the bench core's grouping of the per-state audit rules).
STATE_CHECKS = (
    ("gold_executes", "every gold and alt query runs without error on this state"),
    ("gold_non_empty", "non-empty, except empty probes, which are empty"),
    ("alt_agrees", "the alt SQL returns the gold's answer"),
    ("gold_deterministic", "two runs agree; ties only on output sort keys; no LIMIT cuts a tie"),
    ("gold_latency", "median gold latency <= 100 ms, every gold <= 2 s (tiny and small)"),
)


def _problems_md(problems: list[dict]) -> MetadataValue:
    return MetadataValue.md("\n".join(f"- `{p['question_id'] or '(set)'}` [{p['rule']}] {p['message']}"
                                      for p in problems[:200]) or "none")


@observable_source_asset(group_name=QUESTIONS_GROUP)
def questions() -> ObserveResult:
    """The 100 benchmark questions (English, gold SQL, alt SQL, tags) in `questions/*.yaml`, and the
    conventions note every tool receives. Its data version is the digest of the question files, so
    the gold answers and every prediction are stale exactly when a question changes."""
    from heron_pipeline.bench.inputs import question_set
    from heron_pipeline.bench.options import QUESTIONS_DIR
    from heron_pipeline.questions import audit as rules

    loaded, digest = question_set(QUESTIONS_DIR)
    balance = rules.balance_of(loaded)
    return ObserveResult(data_version=DataVersion(questions_version()), metadata={
        "questions": len(loaded), "digest": digest,
        "shapes": MetadataValue.json(balance.shapes), "retrieval": MetadataValue.json(balance.retrievals),
        "traps": MetadataValue.json(balance.traps), "empty_probes": balance.probes,
    })


@asset(
    partitions_def=state_partitions,
    deps=[AssetKey("questions"), AssetKey("database")],
    group_name=QUESTIONS_GROUP,
    code_version=gold_version(),
    check_specs=[AssetCheckSpec(name, asset="gold_results", description=text, blocking=True,
                                partitions_def=state_partitions) for name, text in STATE_CHECKS],
)
def gold_results(context: AssetExecutionContext, heron: HeronServer, bench: BenchConfig) -> MaterializeResult:
    """Every question's gold answer on one (scale, seed) state, stored as one immutable JSON
    artifact named by its sha256 (`gold/<scale>_<seed>/<sha256>.json` under the artifact folder):
    question id -> typed, lossless result and latency. The per-state audit rules are its checks."""
    from heron_pipeline.bench import StateResult, compute_gold, existing_state

    scale, seed = state_of_run(context.partition_key)
    server, settings = heron.server(), heron.settings()
    try:
        state = StateResult.from_json(upstream_result(context, "database", str(context.partition_key)))
    except MissingUpstream:  # built by `heron seed`, outside Dagster
        state = existing_state(server, settings.artifacts, scale, seed)
    loaded, digest = bench.question_set()
    gold = compute_gold(server, settings.artifacts, state, loaded, digest)
    return MaterializeResult(
        metadata={**result_metadata(gold), "path": MetadataValue.path(str(gold.gold.path)), "digest": gold.gold.digest,
                  "fingerprint": state.fingerprint, "generator_version": state.generator_version,
                  "questions_digest": digest, "dagster/row_count": len(loaded),
                  "latency": MetadataValue.json(gold.latency)},
        check_results=[AssetCheckResult(check_name=name, passed=not gold.problems.get(name),
                                        metadata={"problems": len(gold.problems.get(name, [])),
                                                  "details": _problems_md(gold.problems.get(name, []))})
                       for name, _ in STATE_CHECKS],
    )


def audited_golds(context: AssetExecutionContext, scale: str, questions_digest: str) -> list:
    """The gold results of every seed of ``scale`` materialized for the current questions."""
    from heron_pipeline.bench import GoldResult

    done = materialized_partitions(context, "gold_results")
    golds = []
    for name in sorted(context.instance.get_dynamic_partitions("seed")):
        try:
            seed = seed_of(name)
        except BadSeedPartition as err:
            context.log.warning(str(err))
            continue
        key = str(state_key(scale, seed))
        if key not in done:
            continue
        gold = GoldResult.from_json(upstream_result(context, "gold_results", key))
        if gold.questions_digest != questions_digest:
            context.log.warning(f"gold_results {key} is for other questions: left out of the audit (re-materialize it)")
            continue
        golds.append(gold)
    if not golds:
        raise MissingUpstream(f"no gold_results of scale {scale} for the current questions: materialize them first")
    return golds


@asset(
    partitions_def=scale_partitions,
    deps=[AssetDep("gold_results", partition_mapping=BY_SCALE)],
    group_name=QUESTIONS_GROUP,
    code_version=gold_version(),
    check_specs=[
        AssetCheckSpec("audit_passes", asset="gold_audit", blocking=True, partitions_def=scale_partitions,
                       description="every audit rule passes on these states and questions: the gate of scoring"),
        AssetCheckSpec("cross_seed_judged", asset="gold_audit", blocking=False, partitions_def=scale_partitions,
                       description="the cross-seed rules were judged (they need at least two seeds; a warning)"),
    ],
)
def gold_audit(context: AssetExecutionContext, heron: HeronServer, bench: BenchConfig) -> MaterializeResult:
    """The release gate for one scale: the rules over the whole question set and the cross-seed rules
    (answers vary across seeds, result shapes stay stable) over every state whose gold is materialized,
    plus the per-state rules its gold_results judged. The verdict is recorded by the states'
    fingerprints and the questions digest; predictions and scores refuse to run without a pass."""
    from heron_pipeline.bench import audit_states

    scale = context.partition_key
    loaded, digest = bench.question_set()
    audit = audit_states(heron.settings().artifacts, scale, audited_golds(context, scale, digest), loaded, digest,
                         server=heron.server())
    return MaterializeResult(
        metadata={**result_metadata(audit), "seeds": MetadataValue.json(audit.seeds), "problems": len(audit.problems),
                  "by_rule": MetadataValue.json(audit.by_rule), "not_judged": MetadataValue.json(audit.not_judged),
                  "trap_liveness": MetadataValue.json(audit.trap_liveness or {}),
                  "report": MetadataValue.md(f"```\n{audit.report}\n```")},
        check_results=[
            AssetCheckResult(check_name="audit_passes", passed=audit.passed,
                             metadata={"problems": len(audit.problems), "details": _problems_md(audit.problems)}),
            AssetCheckResult(check_name="cross_seed_judged", passed=not audit.not_judged,
                             severity=AssetCheckSeverity.WARN,
                             metadata={"not_judged": MetadataValue.json(audit.not_judged),
                                       "states": len(audit.seeds)}),
        ],
    )
