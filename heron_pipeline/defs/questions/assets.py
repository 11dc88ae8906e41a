"""The questions, their gold answers per state, and the audit per scale.

`questions` changes only when a question file does (its code version is the files' digest);
`gold_results` runs every question on one (scale, seed) state, stores the answers as one
immutable artifact and blocks downstream work when a per-state rule fails; `gold_audit` applies
the cross-seed and whole-set rules over every seed materialized for a scale. All rule logic lives
in `heron_pipeline.questions`; this module only wires it to Dagster.
"""

from dagster import (AssetCheckResult, AssetCheckSpec, AssetDep, AssetExecutionContext, AssetKey, AssetRecordsFilter,
                     MaterializeResult, MetadataValue, MultiPartitionKey, MultiToSingleDimensionPartitionMapping, asset)

from heron_pipeline.database.fingerprint import fingerprint_database
from heron_pipeline.database.names import benchmark_database
from heron_pipeline.defs.partitions import scale_partitions, state_of, state_partitions
from heron_pipeline.defs.resources import HeronServer
from heron_pipeline.questions import QUESTIONS_DIR, load_questions, questions_digest
from heron_pipeline.questions import audit as rules
from heron_pipeline.questions.gold import (Execution, QuestionRun, latency_summary, read_gold_artifact, run_state,
                                           write_gold_artifact)

QUESTIONS_CODE_VERSION = questions_digest(QUESTIONS_DIR)

#: Per-state checks on gold_results: (check name, rule functions, description).
STATE_CHECKS = (
    ("gold_executes", (rules.check_executes,), "every gold and alt query runs without error on this state"),
    ("gold_non_empty", (rules.check_non_empty,), "non-empty, except empty probes, which are empty"),
    ("alt_agrees", (rules.check_alt_agrees,), "the alt SQL returns the gold's answer"),
    ("gold_deterministic", (rules.check_repeatable, rules.check_ties),
     "two runs agree; ties only on output sort keys; no LIMIT cuts a tie"),
)


def _problem_metadata(problems: list[rules.Problem]) -> dict:
    return {"problems": len(problems),
            "details": MetadataValue.md("\n".join(f"- `{p.question_id}` {p.message}" for p in problems[:200]) or "none")}


@asset(code_version=QUESTIONS_CODE_VERSION, group_name="questions")
def questions(context: AssetExecutionContext) -> MaterializeResult:
    """The 100 benchmark questions (English, gold SQL, tags) loaded strictly from `questions/*.yaml`.
    Its code version is the sha256 of the question files, so the gold answers are recomputed
    exactly when a question changes."""
    loaded = load_questions(QUESTIONS_DIR)
    balance = rules.balance_of(loaded)
    static = rules.static_problems(loaded)
    return MaterializeResult(metadata={
        "questions": len(loaded),
        "digest": QUESTIONS_CODE_VERSION,
        "shapes": MetadataValue.json(balance.shapes),
        "retrieval": MetadataValue.json(balance.retrievals),
        "traps": MetadataValue.json(balance.traps),
        "empty_probes": balance.probes,
        "static_problems": len(static),
    })


@asset(
    partitions_def=state_partitions,
    deps=[AssetKey("questions"), AssetKey("database")],
    group_name="questions",
    code_version=QUESTIONS_CODE_VERSION,
    check_specs=[AssetCheckSpec(name, asset="gold_results", description=text, blocking=True,
                                partitions_def=state_partitions) for name, _, text in STATE_CHECKS]
    + [AssetCheckSpec("gold_latency", asset="gold_results", blocking=True, partitions_def=state_partitions,
                      description="median gold latency <= 100 ms, every gold <= 2 s (tiny and small)")],
)
def gold_results(context: AssetExecutionContext, heron: HeronServer) -> MaterializeResult:
    """Every question's gold answer on one (scale, seed) state, stored as one immutable JSON
    artifact named by its sha256 (`gold/<scale>_<seed>/<sha256>.json` under the artifact folder):
    question id -> typed, lossless result and latency. The comparator and the scores read it."""
    scale, seed = state_of(context.partition_key)
    server = heron.server()
    settings = heron.settings()
    loaded = load_questions(QUESTIONS_DIR)
    with server.connect(benchmark_database(scale, seed)) as conn:
        runs = run_state(conn, loaded)
    path, digest = write_gold_artifact(settings.artifacts, scale, seed, runs)
    state = f"{scale}_{seed}"
    checks = []
    for name, functions, _ in STATE_CHECKS:
        problems = rules.check_state(loaded, runs, state, checks=functions)
        checks.append(AssetCheckResult(check_name=name, passed=not problems, metadata=_problem_metadata(problems)))
    latency = rules.check_latency(runs, state) if scale in rules.LATENCY_SCALES else []
    checks.append(AssetCheckResult(check_name="gold_latency", passed=not latency,
                                   metadata={**_problem_metadata(latency), **latency_summary(runs)}))
    return MaterializeResult(
        metadata={
            "path": str(path),
            "digest": digest,
            "fingerprint": _state_fingerprint(context, server, scale, seed),
            "questions": len(runs),
            "failed": sum(not r.gold.ok for r in runs.values()),
            "latency": MetadataValue.json(latency_summary(runs)),
        },
        check_results=checks,
    )


def _state_fingerprint(context: AssetExecutionContext, server, scale: str, seed: int) -> str:
    """The fingerprint the `database` materialization of this state recorded; computed only when the
    state was built outside Dagster (hashing every row takes minutes at bench scale, and the
    database asset already did it when it renamed the state into place)."""
    found = context.instance.fetch_materializations(
        AssetRecordsFilter(asset_key=AssetKey("database"), asset_partitions=[context.partition_key]), limit=1)
    if found.records:
        recorded = found.records[0].asset_materialization.metadata.get("fingerprint")
        if recorded is not None:
            return recorded.value
    return fingerprint_database(server.benchmark_dsn(scale, seed)).digest


def _stored_states(context: AssetExecutionContext, scale: str) -> dict[str, str]:
    """State label -> artifact path of the latest gold_results of every seed of `scale`."""
    paths = {}
    for seed in sorted(context.instance.get_dynamic_partitions("seed"), key=int):
        key = MultiPartitionKey({"scale": scale, "seed": seed})
        found = context.instance.fetch_materializations(
            AssetRecordsFilter(asset_key=AssetKey("gold_results"), asset_partitions=[str(key)]), limit=1)
        if found.records:
            paths[f"{scale}_{seed}"] = found.records[0].asset_materialization.metadata["path"].value
    return paths


@asset(
    partitions_def=scale_partitions,
    deps=[AssetDep("gold_results", partition_mapping=MultiToSingleDimensionPartitionMapping("scale"))],
    group_name="questions",
    code_version=QUESTIONS_CODE_VERSION,
    check_specs=[AssetCheckSpec("audit_passes", asset="gold_audit", blocking=True, partitions_def=scale_partitions,
                                description="no problem in the cross-seed and whole-set audit rules")],
)
def gold_audit(context: AssetExecutionContext) -> MaterializeResult:
    """The release gate for one scale: the rules that need every seed at once (answers vary across
    seeds, result shapes are stable) and the rules over the whole set (gold_tables, literals,
    volatile functions, duplicates, balance), over the gold artifacts of every seeded state."""
    scale = context.partition_key
    loaded = load_questions(QUESTIONS_DIR)
    paths = _stored_states(context, scale)
    states = {}
    for label, path in paths.items():
        states[label] = {qid: QuestionRun(gold=Execution(result, error, (ms or 0.0) / 1000))
                         for qid, (result, ms, error) in read_gold_artifact(path).items()}
    problems = (rules.static_problems(loaded) + rules.check_shape_stable(loaded, states)
                + rules.check_varies(loaded, states) + rules.check_balance(loaded))
    constant, judged = rules.constant_answers(loaded, states)
    report = rules.AuditReport(scale=scale, problems=problems, balance=rules.balance_of(loaded), constant=constant,
                               judged=judged, latency_ms={}, questions=len(loaded))
    return MaterializeResult(
        metadata={
            "states": MetadataValue.json(paths),
            "problems": len(problems),
            "by_rule": MetadataValue.json(report.by_rule()),
            "varying_share": round(report.varying_share, 4),
            "same_on_every_seed": MetadataValue.json(constant),
            "report": MetadataValue.md(f"```\n{rules.format_report(report, loaded)}\n```"),
        },
        check_results=[AssetCheckResult(check_name="audit_passes", passed=not problems,
                                        metadata=_problem_metadata(problems))],
    )
