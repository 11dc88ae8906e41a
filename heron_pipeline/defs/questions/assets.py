"""The questions, their gold answers per state, and the audit that gates scoring per scale.

`questions` is an observable source (its data version is the digest of the question files);
`gold_results` runs every question on one (scale, seed) state through the bench core's gold step;
`gold_audit` runs the core's audit step over every state of the scale whose gold is materialized.
Their asset checks are generated from the audit table (``questions.audit.RULES``): one check per
rule, named after it, on the asset whose step judges it (per-state rules on `gold_results`, the
others on `gold_audit`), plus one blocking gate per asset (`state_passes`, `audit_passes`). A rule
check fails only for its own rule: failed with ERROR severity when the rule blocks, WARN when it
does not; a rule that is not judged here (trap-live below small) yields no result, so its check shows
Skipped, never Failed, and the asset's ``not_judged`` metadata says why. The rule checks never block; the
gates do, and `audit_passes` stops predictions and scores within the same run (the core refuses
them on its own in every other run).
"""

import inspect
from collections.abc import Iterator

from dagster import (AssetCheckResult, AssetCheckSeverity, AssetCheckSpec, AssetDep, AssetExecutionContext, AssetKey,
                     DataVersion, MaterializeResult, MetadataValue, MultiToSingleDimensionPartitionMapping,
                     ObserveResult, asset, observable_source_asset)

from heron_pipeline.defs.lineage import MissingUpstream, materialized_partitions, result_metadata, upstream_result
from heron_pipeline.defs.partitions import BadSeedPartition, scale_partitions, seed_of, state_key, state_of_run, \
    state_partitions
from heron_pipeline.defs.resources import BenchConfig, HeronServer
from heron_pipeline.defs.versions import gold_version, questions_version
from heron_pipeline.questions.audit import RULES, Rule, Scope

QUESTIONS_GROUP = "questions"
BY_SCALE = MultiToSingleDimensionPartitionMapping(partition_dimension_name="scale")

#: The rules each asset's step judges: the per-state ones on gold_results, every other on gold_audit.
STATE_RULES = tuple(rule for rule in RULES if rule.scope is Scope.STATE)
AUDIT_RULES = tuple(rule for rule in RULES if rule.scope is not Scope.STATE)


def _problems_md(problems: list[dict]) -> MetadataValue:
    return MetadataValue.md("\n".join(f"- `{p['question_id'] or '(set)'}` [{p['rule']}] {p['message']}"
                                      for p in problems[:200]) or "none")


def rule_check_specs(asset_name: str, rules: tuple[Rule, ...], partitions_def) -> list[AssetCheckSpec]:
    """One non-blocking check per rule of ``rules`` (the asset's gate check is the blocking one)."""
    return [AssetCheckSpec(rule.check_name, asset=asset_name, description=rule.summary, blocking=False,
                           partitions_def=partitions_def) for rule in rules]


def rule_check_results(rules: tuple[Rule, ...], outcomes: dict[str, dict]) -> list[AssetCheckResult]:
    """Each judged rule's outcome as its check's result: passed, or failed (ERROR when the rule blocks,
    WARN when it does not) with its problems. A rule not judged here yields no result, so Dagster shows
    its check as Skipped (the run succeeded, the check did not execute), never as Failed; the reason is
    in the asset's ``not_judged`` metadata (``not_judged_metadata``)."""
    results = []
    for rule in rules:
        outcome = outcomes[rule.name]
        problems = outcome.get("problems", [])
        if outcome["status"] == "not judged":
            continue
        failed = outcome["status"] == "failed"
        severity = AssetCheckSeverity.ERROR if rule.blocking else AssetCheckSeverity.WARN
        results.append(AssetCheckResult(check_name=rule.check_name, passed=not failed, severity=severity,
                                        description=f"{len(problems)} problem(s)" if failed else "passed",
                                        metadata={"judged": True, "problems": len(problems),
                                                  "details": _problems_md(problems)}))
    return results


def not_judged_metadata(rules: tuple[Rule, ...], outcomes: dict[str, dict]) -> MetadataValue:
    """rule name -> why it was not judged here (its check shows Skipped), for the asset's metadata."""
    return MetadataValue.json({rule.name: outcomes[rule.name].get("reason") or "" for rule in rules
                               if outcomes[rule.name]["status"] == "not judged"})


def audited_asset(name: str, *, partitions_def, deps, group_name: str, code_version: str, check_specs):
    """``@asset`` for an asset whose rule checks may go unevaluated: a ``multi_asset`` of one asset with
    ``can_subset=True``, the one way Dagster 1.13 lets a step omit a check's result (an ``@asset``'s
    check outputs are required). A rule not judged at this scale then yields nothing and shows as
    Skipped, never Failed. The function's docstring is the asset's description, as with ``@asset``."""
    from dagster import AssetSpec, multi_asset

    def wrap(fn):
        spec = AssetSpec(name, deps=deps, group_name=group_name, code_version=code_version,
                         partitions_def=partitions_def, description=inspect.cleandoc(fn.__doc__ or ""))
        return multi_asset(name=name, specs=[spec], check_specs=check_specs, can_subset=True)(fn)

    return wrap


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


@audited_asset(
    "gold_results",
    partitions_def=state_partitions,
    deps=[AssetKey("questions"), AssetKey("database")],
    group_name=QUESTIONS_GROUP,
    code_version=gold_version(),
    check_specs=[AssetCheckSpec("state_passes", asset="gold_results", blocking=True, partitions_def=state_partitions,
                                description="every blocking per-state audit rule passes on this state (a rule not "
                                            "judged here is not a failure)"),
                 *rule_check_specs("gold_results", STATE_RULES, state_partitions)],
)
def gold_results(context: AssetExecutionContext, heron: HeronServer, bench: BenchConfig) -> Iterator[MaterializeResult]:
    """Every question's gold answer on one (scale, seed) state, stored as one immutable JSON
    artifact named by its sha256 (`gold/<scale>_<seed>/<sha256>.json` under the artifact folder):
    question id -> typed, lossless result (rows in canonical order where the query leaves it open; no
    timing, so two runs of one state store the same digest). The per-state audit rules are its checks.
    Beside it, the answers of every question's trap mutants on this state (`mutant_answers/`), which
    scoring reads to name `trap:<tag>` causes."""
    from heron_pipeline.bench import StateResult, compute_gold, existing_state

    scale, seed = state_of_run(context.partition_key)
    server, settings = heron.server(), heron.settings()
    try:
        state = StateResult.from_json(upstream_result(context, "database", str(context.partition_key)))
    except MissingUpstream:  # built by `heron seed`, outside Dagster
        state = existing_state(server, settings.artifacts, scale, seed)
    loaded, digest = bench.question_set()
    gold = compute_gold(server, settings.artifacts, state, loaded, digest)
    # yielded, not returned: a returned result must carry every check, and a rule not judged has none
    yield MaterializeResult(
        metadata={**result_metadata(gold), "path": MetadataValue.path(str(gold.gold.path)), "digest": gold.gold.digest,
                  "mutant_answers_digest": gold.mutant_answers.digest if gold.mutant_answers else "",
                  "fingerprint": state.fingerprint, "generator_version": state.generator_version,
                  "questions_digest": digest, "dagster/row_count": len(loaded),
                  "latency": MetadataValue.json(gold.latency),
                  "not_judged": not_judged_metadata(STATE_RULES, gold.outcomes)},
        check_results=[AssetCheckResult(check_name="state_passes", passed=gold.passed,
                                        metadata={"failed_rules": MetadataValue.json(
                                            [r for r, o in gold.outcomes.items() if o["status"] == "failed"])}),
                       *rule_check_results(STATE_RULES, gold.outcomes)],
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


@audited_asset(
    "gold_audit",
    partitions_def=scale_partitions,
    deps=[AssetDep("gold_results", partition_mapping=BY_SCALE)],
    group_name=QUESTIONS_GROUP,
    code_version=gold_version(),
    check_specs=[
        AssetCheckSpec("audit_passes", asset="gold_audit", blocking=True, partitions_def=scale_partitions,
                       description="every blocking audit rule passes on these states and questions: the gate of "
                                   "scoring (a rule not judged is listed, never a failure and never a pass)"),
        *rule_check_specs("gold_audit", AUDIT_RULES, scale_partitions),
    ],
)
def gold_audit(context: AssetExecutionContext, heron: HeronServer, bench: BenchConfig) -> Iterator[MaterializeResult]:
    """The release gate for one scale: the rules over the whole question set and the cross-seed rules
    (answers vary across seeds, result shapes stay stable) over every state whose gold is materialized,
    plus the per-state rules its gold_results judged. The verdict is recorded by the states'
    fingerprints and the questions digest; predictions and scores refuse to run without a pass."""
    from heron_pipeline.bench import audit_states

    scale = context.partition_key
    loaded, digest = bench.question_set()
    audit = audit_states(heron.settings().artifacts, scale, audited_golds(context, scale, digest), loaded, digest,
                         server=heron.server())
    # yielded, not returned: a returned result must carry every check, and a rule not judged has none
    yield MaterializeResult(
        metadata={**result_metadata(audit), "seeds": MetadataValue.json(audit.seeds), "problems": len(audit.problems),
                  "by_rule": MetadataValue.json(audit.by_rule), "not_judged": MetadataValue.json(audit.not_judged),
                  "trap_liveness": MetadataValue.json(audit.trap_liveness or {}),
                  "report": MetadataValue.md(f"```\n{audit.report}\n```")},
        check_results=[
            AssetCheckResult(check_name="audit_passes", passed=audit.passed,
                             description=audit.summary_line(),
                             metadata={"problems": len(audit.problems), "failed_rules": MetadataValue.json(
                                 audit.failed_rules), "details": _problems_md(audit.problems)}),
            *rule_check_results(AUDIT_RULES, audit.outcomes),
        ],
    )
