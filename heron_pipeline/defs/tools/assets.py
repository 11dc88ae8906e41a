"""Predictions, scores, standings and the local leaderboard as assets, one predictions/scores pair per tool.

Thin: every body is one call into the bench core (``heron_pipeline.bench``) with the upstream
results read from the materializations Dagster recorded (``defs.lineage``). Predictions (per scale)
sit downstream of `gold_audit`, so one backfill over scale × seed builds the states, audits them,
predicts, scores and publishes. The graph is the same wherever it is imported: every tool of the
registry has its assets. A tool that cannot run here (an LLM tool with no endpoint, `cli` without a
command) still records its predictions and scores — so a backfill, the automation and the standings'
`excluded` list go on as in `heron bench` — but their `runs_here` check says `skipped` and why, which
the asset list shows as a warning instead of a plain green materialization.
"""


from dagster import (AssetCheckResult, AssetCheckSeverity, AssetCheckSpec, AssetDep, AssetExecutionContext, AssetKey,
                     AssetsDefinition, AutomationCondition, MaterializeResult, MetadataValue, asset)

from heron_pipeline.bench.options import ALL_TOOLS, SCORED_TOOLS
from heron_pipeline.defs.lineage import MissingUpstream, result_metadata, upstream_result
from heron_pipeline.defs.partitions import scale_partitions, state_key, state_of_run, state_partitions
from heron_pipeline.defs.conditions import follow
from heron_pipeline.defs.questions.assets import BY_SCALE
from heron_pipeline.defs.resources import BenchConfig, HeronServer, LLMEndpoint
from heron_pipeline.defs.versions import leaderboard_version, predictions_version, scoring_version

PREDICTIONS_GROUP = "predictions"
SCORES_GROUP = "scores"
BOARD_GROUP = "standings"
#: Scores and standings follow new predictions on their own, never past a failed blocking check, and
#: never behind a running bench_job's back (``defs/conditions.py``).
FOLLOW = follow() & AutomationCondition.all_deps_blocking_checks_passed()
#: The check that tells a tool that ran from one recorded as skipped (or incomplete).
RUNS_HERE = "runs_here"
#: The leaderboard of every scale: a scale that was never built does not hold it back.
FOLLOW_BUILT = follow(wait_for_missing=False)


def asset_name(tool: str) -> str:
    """An asset-name-safe form of a tool's registry name (raw-llm → raw_llm)."""
    return tool.replace("-", "_")


def predictions_key(tool: str) -> AssetKey:
    return AssetKey(f"{asset_name(tool)}_predictions")


def scores_key(tool: str) -> AssetKey:
    return AssetKey(f"{asset_name(tool)}_scores")


def runs_here_spec(key: AssetKey, partitions_def) -> AssetCheckSpec:
    return AssetCheckSpec(RUNS_HERE, asset=key, blocking=False, partitions_def=partitions_def,
                          description="the tool ran here: fails as a warning, with the reason, when it was "
                                      "skipped (no LLM endpoint, no cli command) or is incomplete")


def ui_reasons() -> dict[str, str]:
    """The core's skip reasons (which name ``heron bench``'s flags) as the UI says them: the run-configuration
    fields of the launchpad, then the environment variable of the process that runs the code."""
    from heron_pipeline.predictions.make import NO_COMMAND, NO_ENDPOINT

    return {
        NO_COMMAND: "needs a command: set resources.bench.config.cli_command in the launchpad (or HERON_CLI_COMMAND "
                    "where the code location runs)",
        NO_ENDPOINT: "needs an LLM endpoint: set resources.llm.config.base_url and model (and api_key) in the "
                     "launchpad (or HERON_LLM_BASE_URL, HERON_LLM_MODEL where the code location runs)",
    }


def ui_reason(reason: str | None) -> str:
    """``reason`` with every core skip reason in it replaced by the UI's wording (``ui_reasons``)."""
    text = reason or ""
    for core, ui in ui_reasons().items():
        text = text.replace(core, ui)
    return text


def runs_here_result(status: str, reason: str | None, ran: tuple[str, ...]) -> AssetCheckResult:
    """Passed when ``status`` is one of ``ran``; otherwise a warning whose metadata says the status and why
    (in the UI's words: the launchpad's fields, not ``heron bench``'s flags)."""
    shown = ui_reason(reason)
    return AssetCheckResult(check_name=RUNS_HERE, passed=status in ran, severity=AssetCheckSeverity.WARN,
                            description=None if status in ran else f"{status}: {shown}",
                            metadata={"status": status, "reason": shown})


def predictions_asset(tool: str) -> AssetsDefinition:
    @asset(
        key=predictions_key(tool),
        partitions_def=scale_partitions,
        deps=[AssetKey("gold_audit"), AssetKey("questions"), AssetKey("schema_catalog")],
        group_name=PREDICTIONS_GROUP,
        code_version=predictions_version(tool),
        check_specs=[runs_here_spec(predictions_key(tool), scale_partitions)],
        description=f"The `{tool}` tool's predictions for every question of one scale, made once against the "
                    f"primary state and stored as a content-hashed JSON-lines artifact (its question mode is part "
                    f"of its path); the same SQL is then executed on every audited state. Refused unless the "
                    f"scale's audit passed.",
    )
    def _predictions(context: AssetExecutionContext, heron: HeronServer, bench: BenchConfig,
                     llm: LLMEndpoint) -> MaterializeResult:
        from heron_pipeline.bench import AuditResult, GoldResult, predict

        scale = context.partition_key
        settings = heron.settings()
        audit = AuditResult.from_json(upstream_result(context, "gold_audit", scale))
        primary = GoldResult.from_json(upstream_result(context, "gold_results",
                                                       str(state_key(scale, bench.primary_seed)))).state
        loaded, digest = bench.question_set()
        endpoint = llm.settings()
        made = predict(heron.server(), settings.artifacts, bench.options(scale, tuple(audit.seeds)), tool, loaded,
                       digest, audit, primary, llm=endpoint, cache_dir=getattr(endpoint, "cache_dir", None))
        if made.status != "complete":
            context.log.warning(f"{tool}: {made.status} — {ui_reason(made.reason)}")
        return MaterializeResult(metadata={
            **result_metadata(made), "status": made.status, "question_mode": made.question_mode,
            "dagster/row_count": made.records,
            **({"path": MetadataValue.path(str(made.predictions.path)), "digest": made.predictions.digest}
               if made.predictions else {}),
            "conditions": MetadataValue.json(made.conditions), "summary": MetadataValue.json(made.summary),
        }, check_results=[runs_here_result(made.status, made.reason, ("complete",))])

    return _predictions


def scores_asset(tool: str) -> AssetsDefinition:
    @asset(
        key=scores_key(tool),
        partitions_def=state_partitions,
        deps=[AssetDep(predictions_key(tool), partition_mapping=BY_SCALE), AssetKey("gold_results"),
              AssetDep("gold_audit", partition_mapping=BY_SCALE)],
        group_name=SCORES_GROUP,
        code_version=scoring_version(),
        automation_condition=FOLLOW,
        check_specs=[runs_here_spec(scores_key(tool), state_partitions)],
        description=f"The `{tool}` tool's predictions executed in the read-only sandbox on one (scale, seed) "
                    f"state and compared with that state's gold: one score record per question and sample "
                    f"(correct, Soft-F1, row F1, error class, EM, Set-Recall, the cause of a wrong answer), "
                    f"content-hashed; the metadata counts this state's wrong questions by cause.",
    )
    def _scores(context: AssetExecutionContext, heron: HeronServer, bench: BenchConfig) -> MaterializeResult:
        from heron_pipeline.bench import AuditResult, GoldResult, PredictionsResult, score

        scale, _seed = state_of_run(context.partition_key)
        settings = heron.settings()
        predictions = PredictionsResult.from_json(upstream_result(context, predictions_key(tool), scale))
        gold = GoldResult.from_json(upstream_result(context, "gold_results", str(context.partition_key)))
        audit = AuditResult.from_json(upstream_result(context, "gold_audit", scale))
        loaded, _digest = bench.question_set()
        result = score(heron.server(), settings.artifacts, predictions, gold, loaded, audit, time_ves=bench.time_ves)
        return MaterializeResult(metadata={
            **result_metadata(result), "status": result.status, "dagster/row_count": result.records,
            **({"path": MetadataValue.path(str(result.scores.path)), "digest": result.scores.digest,
                "ex1": result.ex1, "errors": result.errors, **cause_metadata(result.wrong_by_cause)}
               if result.scores else {"reason": result.reason or ""}),
            "predictions_digest": result.predictions_digest or "", "gold_digest": result.gold_digest,
            "mutant_answers_digest": result.mutant_answers.digest if result.mutant_answers else "",
            "fingerprint": result.fingerprint,
        }, check_results=[runs_here_result(result.status, result.reason, ("scored",))])

    return _scores


def tool_assets() -> list[AssetsDefinition]:
    return [*(predictions_asset(t) for t in ALL_TOOLS), *(scores_asset(t) for t in SCORED_TOOLS)]


def standings_rows(board: dict) -> dict[str, str]:
    """One readable line per tool ("<scale>/<mode>/<tool>" -> figures and provenance): plain text
    metadata, shown inline in the asset page's metadata table."""
    prov = board.get("provenance", {})
    states = ", ".join(f"{s['seed']}:{s['fingerprint'][:12]}" for s in prov.get("states", []))
    rows = {}
    for t in board["tools"]:
        per_state = " ".join(f"{s}:{v:.0f}" for s, v in t["ex1_per_state"].items())
        digest = prov.get("tools", {}).get(t["tool"], {}).get("predictions_digest", "")[:12]
        rows[f"{board['scale']}/{board.get('question_mode', 'full')}/{t['tool']}"] = (
            f"multi-state EX@1 {t['multi_state_ex1']:.1f} | EX@1 per state {per_state} | Grade {t['grade']:.1f} | "
            f"model {t['conditions'].get('model')} | predictions {digest} | states {states} | "
            f"questions {prov.get('questions_digest', '')[:12]}" + diagnosis_text(t))
    for key, line in retrieval_rows(board).items():
        rows[key] = line
    return rows


def cause_metadata(counts: dict[str, int] | None) -> dict[str, object]:
    """A scores asset's per-cause counts on its state, as the core computed them (the registry's
    ``wrong_by_cause``, ``ScoresResult.wrong_by_cause``): a readable line and the JSON."""
    if counts is None:
        return {}
    text = ", ".join(f"{cause} {count}" for cause, count in counts.items()) or "none"
    return {"wrong_by_cause": text, "wrong_by_cause_json": MetadataValue.json(counts)}


def diagnosis_text(tool: dict) -> str:
    """Why the tool's wrong questions are wrong (``wrong_by_cause``) and how well its SQL picks the
    gold tables (table recall / precision), as the standings carry them; empty for a board made
    before the diagnosis existed."""
    if "wrong_by_cause" not in tool:
        return ""
    causes = tool["wrong_by_cause"] or {}
    text = ", ".join(f"{cause} {count}" for cause, count in causes.items()) or "none"
    linking = ""
    if tool.get("table_recall") is not None:
        linking = f" | tables recall {_percent(tool['table_recall'])} precision {_percent(tool.get('table_precision'))}"
    return f" | wrong by cause: {text}{linking}"


#: The retrieval board's cut-offs in reading order (a stored board's keys come back sorted as text).
CUTOFFS = ("@5", "@10", "@20", "@all")


def _percent(value: float | None) -> str:
    return "—" if value is None else f"{value:.1f}"


def retrieval_rows(board: dict) -> dict[str, str]:
    """The retrieval board of one standings document ("<scale>/<mode>/retrieval/<tool>" -> Set-Recall
    at every cut-off, errors and questions): the rows the local leaderboard files carry for the
    retrievers (bm25, bm25-fk) and any SQL tool that reports the tables it retrieved."""
    mode = board.get("question_mode", "full")
    rows = {}
    for entry in board.get("retrieval") or []:
        recall = entry["set_recall"]
        rows[f"{board['scale']}/{mode}/retrieval/{entry['tool']}"] = (
            "Set-Recall " + " ".join(f"{k} {_percent(recall.get(k))}" for k in CUTOFFS)
            + f" | errors {entry['errors']} | questions {entry['questions']}")
    return rows


def standings_markdown(board: dict) -> str:
    """The standings as a Markdown table with each row's provenance (for the asset page)."""
    prov = board.get("provenance", {})
    lines = [f"**{board['scale']}**, seeds {', '.join(map(str, board['seeds']))} ({board['mode']}), question mode "
             f"`{board.get('question_mode', 'full')}`; questions `{prov.get('questions_digest', '')[:12]}`, "
             f"harness `{prov.get('harness_version', '')}`", "",
             "| tool | model | multi-state EX@1 | EX@1 per state | Grade | Soft-F1 | errors | predictions |",
             "|---|---|---|---|---|---|---|---|"]
    for t in board["tools"]:
        per_state = " ".join(f"{s}:{v:.0f}" for s, v in t["ex1_per_state"].items())
        digest = prov.get("tools", {}).get(t["tool"], {}).get("predictions_digest", "")[:12]
        lines.append(f"| {t['tool']} | {t['conditions'].get('model')} | {t['multi_state_ex1']:.1f} | {per_state} | "
                     f"{t['grade']:.1f} | {(t['soft_f1'] or 0):.1f} | {t['errors']} | `{digest}` |")
    lines += ["", "States: " + "; ".join(f"seed {s['seed']} fingerprint `{s['fingerprint'][:12]}` generator "
                                         f"{s['generator_version']}" for s in prov.get("states", []))]
    if board.get("retrieval"):
        lines += ["", "Retrieval board (Set-Recall, % of each question's gold tables in the tool's ranked list):", "",
                  "| tool | @5 | @10 | @20 | @all | errors |", "|---|---|---|---|---|---|"]
        for entry in board["retrieval"]:
            recall = entry["set_recall"]
            lines.append(f"| {entry['tool']} | " + " | ".join(_percent(recall.get(k)) for k in CUTOFFS)
                         + f" | {entry['errors']} |")
        lines.append("")
    if board.get("excluded"):
        lines.append("Excluded: " + "; ".join(f"{e['tool']} ({e['status']}: {e['reason']})" for e in board["excluded"]))
    return "\n".join(lines)


@asset(
    partitions_def=scale_partitions,
    deps=[AssetDep("gold_audit"), *(AssetDep(predictions_key(t)) for t in ALL_TOOLS),
          *(AssetDep(scores_key(t), partition_mapping=BY_SCALE) for t in SCORED_TOOLS)],
    group_name=BOARD_GROUP,
    code_version=scoring_version(),
    automation_condition=FOLLOW,
)
def standings(context: AssetExecutionContext, heron: HeronServer, bench: BenchConfig) -> MaterializeResult:
    """Every metric per tool on one scale over the audited states: multi-state EX@1 (the headline), EX@1
    per state, EX@k, VES/R-VES when timed, Soft-F1, row F1, Set-Recall@k, EM, errors, tokens, cost,
    latency, Grade, bootstrap CIs and breakdowns — with the provenance of every state and tool."""
    from heron_pipeline.bench import AuditResult, PredictionsResult, ScoresResult, compute_scale_standings

    scale = context.partition_key
    audit = AuditResult.from_json(upstream_result(context, "gold_audit", scale))
    predictions, scores = [], []
    for tool in ALL_TOOLS:
        try:
            made = PredictionsResult.from_json(upstream_result(context, predictions_key(tool), scale))
        except MissingUpstream:
            context.log.warning(f"{tool}: no predictions for {scale} yet; left out")
            continue
        if made.question_mode != bench.question_mode:
            context.log.warning(f"{tool}: its latest predictions are in question mode {made.question_mode}; left out")
            continue
        predictions.append(made)
        if made.complete and made.kind != "retrieval":
            scores += [ScoresResult.from_json(upstream_result(context, scores_key(tool), str(state_key(scale, seed))))
                       for seed in audit.seeds]
    loaded, _digest = bench.question_set()
    result = compute_scale_standings(heron.settings().artifacts, audit, predictions, scores, bench.question_mode,
                                     questions=loaded)
    board = result.load()
    return MaterializeResult(metadata={
        **result_metadata(result), "path": MetadataValue.path(str(result.standings.path)),
        "digest": result.standings.digest, "question_mode": bench.question_mode,
        "seeds": MetadataValue.json(board["seeds"]),
        "multi_state_ex1": MetadataValue.json({t["tool"]: t["multi_state_ex1"] for t in board["tools"]}),
        "retrieval_set_recall": MetadataValue.json({e["tool"]: e["set_recall"] for e in board.get("retrieval") or []}),
        "standings": MetadataValue.md(standings_markdown(board)),
        **{key: MetadataValue.text(line) for key, line in standings_rows(board).items()},
    })


@asset(deps=[standings], group_name=BOARD_GROUP, code_version=leaderboard_version(), automation_condition=FOLLOW_BUILT)
def leaderboard(context: AssetExecutionContext, heron: HeronServer) -> MaterializeResult:
    """This instance's own leaderboard — leaderboard.json / .csv / .md / .svg in the local results folder —
    from the latest standings of every scale and question mode, with the conditions (scale, seeds,
    model, temperature, n, single- or multi-state, question mode) and the provenance on every row.
    The published leaderboard is built from verified submissions, never from here."""
    from dagster import AssetKey as Key
    from dagster import AssetRecordsFilter

    from heron_pipeline.bench import StandingsResult, publish_local

    latest: dict[tuple[str, str], StandingsResult] = {}
    for scale in scale_partitions.get_partition_keys():
        found = context.instance.fetch_materializations(
            AssetRecordsFilter(asset_key=Key("standings"), asset_partitions=[scale]), limit=20)
        for record in found.records:  # newest first: keep the first of each question mode
            entry = record.asset_materialization.metadata.get("result")
            if entry is not None:
                result = StandingsResult.from_json(entry.value)
                latest.setdefault((result.scale, result.question_mode), result)
    if not latest:
        raise MissingUpstream("no standings to publish: materialize the standings of a scale first")
    files = publish_local(heron.settings().artifacts, list(latest.values()))
    boards = [r.load() for _k, r in sorted(latest.items())]
    return MaterializeResult(metadata={
        **{suffix: MetadataValue.path(str(p)) for suffix, p in files.items()},
        "boards": MetadataValue.json([f"{s}/{m}" for s, m in sorted(latest)]),
        "standings": MetadataValue.md("\n\n".join(standings_markdown(b) for b in boards)),
        **{key: MetadataValue.text(line) for b in boards for key, line in standings_rows(b).items()},
    })
