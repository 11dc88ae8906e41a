"""``heron bench``: the whole chain on one scale, printed as a standings table.

Seed the states that are missing → gold results per state → predictions per tool (once, against
the primary state) → scores per tool × state (every prediction executed in the sandbox) → standings
(DuckDB over the score artifacts) → leaderboard files in the local results folder. Each step is the
same core function the Dagster assets call; this module only sequences them and reports.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path
from typing import Any

from heron_pipeline.cli import EXIT_FAIL, EXIT_OK, _err, parse_seeds
from heron_pipeline.config import PROJECT_ROOT, Settings

REFERENCE_TOOLS = ("gold", "alt")


def default_tools() -> list[str]:
    """gold and alt, plus llm when an endpoint is configured (HERON_LLM_MODEL and HERON_LLM_BASE_URL)."""
    from heron_pipeline.adapters.llm import LLMSettings

    return [*REFERENCE_TOOLS, *(["llm"] if LLMSettings.from_environ().configured else [])]


def run_bench(settings: Settings, scale: str, seeds: list[int], tools: list[str], *, n: int = 1,
              primary_seed: int = 42, questions_dir: Path = PROJECT_ROOT / "questions", time_ves: bool = False,
              seed_missing: bool = True) -> dict[str, Any]:
    """Run the chain and return the standings (also written as artifacts and leaderboard files)."""
    from heron_pipeline.adapters import PredictionContext, create_adapter
    from heron_pipeline.catalog import load_catalog
    from heron_pipeline.database.server import Server
    from heron_pipeline.harness.gold import build_gold_artifact, gold_rows_from_artifact
    from heron_pipeline.harness.score import score_state
    from heron_pipeline.harness.standings import compute_standings, conditions_of, standings_json
    from heron_pipeline.harness.state import state_run
    from heron_pipeline.harness.store import latest_score_paths, store_scores, store_standings
    from heron_pipeline.leaderboard import local_results_dir, write_leaderboard
    from heron_pipeline.predictions.make import make_predictions, store_predictions
    from heron_pipeline.questions.model import load_questions

    server = Server(settings)
    server.up()
    if seed_missing:
        from heron_pipeline.cli import seed_state

        for seed in sorted({*seeds, primary_seed}):
            seed_state(server, scale, seed)
    questions = load_questions(questions_dir)
    if not questions:
        raise ValueError(f"no questions in {questions_dir}")
    artifacts = settings.artifacts
    timings: dict[str, float] = {}

    started = time.perf_counter()
    gold: dict[int, dict[str, list[tuple]]] = {}
    for seed in seeds:
        path, _digest = build_gold_artifact(server, artifacts, scale, seed, questions)
        gold[seed] = gold_rows_from_artifact(path, questions)
    timings["gold"] = time.perf_counter() - started

    catalog = load_catalog()
    conditions = {}
    for tool in tools:
        started = time.perf_counter()
        adapter = create_adapter(tool, **({"cache_dir": artifacts / "llm_cache"} if tool == "llm" else {}))
        context = PredictionContext(scale=scale, n=n, catalog=catalog,
                                    primary_dsn=server.benchmark_dsn(scale, primary_seed))
        records = make_predictions(adapter, questions, context)
        path, digest = store_predictions(artifacts, tool, scale, records)
        conditions[tool] = conditions_of(adapter)
        _err(f"predictions/{tool}/{scale}: {len(records)} records → {path.name[:16]}… "
             f"({time.perf_counter() - started:.1f} s)")
        for seed in seeds:
            started = time.perf_counter()
            run = state_run(server, scale, seed)
            scores = score_state(tool, questions, records, gold[seed], run, time_ves=time_ves)
            path, _ = store_scores(artifacts, tool, scale, seed, scores)
            right = sum(s.correct for s in scores if s.sample == 0)
            _err(f"scores/{tool}/{scale}_{seed}: {right}/{len(questions)} correct "
                 f"({time.perf_counter() - started:.1f} s) → {path.name[:16]}…")

    standings = compute_standings(latest_score_paths(artifacts, scale, tools, seeds), scale, conditions)
    path, digest = store_standings(artifacts, scale, standings_json(standings))
    files = write_leaderboard([standings], local_results_dir(artifacts))
    _err(f"standings/{scale}: {path}")
    _err("leaderboard: " + ", ".join(str(p) for p in files.values()))
    return standings


def print_standings(standings: dict[str, Any]) -> None:
    """The standings as a rich table on stdout."""
    from rich.console import Console
    from rich.table import Table

    def f(value: Any, digits: int = 1) -> str:
        return "—" if value is None else f"{value:.{digits}f}" if isinstance(value, float) else str(value)

    seeds = ", ".join(str(s) for s in standings["seeds"])
    table = Table(title=f"heron standings — scale {standings['scale']}, seeds {seeds} ({standings['mode']})")
    for column in ("tool", "model", "temp", "n", "Grade", "multi-state EX@1", "95 % CI", "EX@1 per state", "EX@k",
                   "VES", "Soft-F1", "row F1", "Recall@all", "EM", "errors", "tok/q", "cost $", "lat s"):
        table.add_column(column, justify="left" if column in ("tool", "model") else "right")
    for t in standings["tools"]:
        c = t["conditions"]
        low, high = t["multi_state_ex1_ci"]
        table.add_row(
            t["tool"], str(c.get("model")), f(c.get("temperature")), str(c["n"]), f(t["grade"]),
            f(t["multi_state_ex1"]), f"[{low:.1f}, {high:.1f}]",
            " ".join(f"{s}:{v:.0f}" for s, v in t["ex1_per_state"].items()), f(t[f"ex_at_{c['n']}"]),
            f(t["ves"]), f(t["soft_f1"]), f(t["row_f1"]), f(t["set_recall"]["@all"]), f(t["exact_match"]), str(t["errors"]),
            f(t["tokens_per_question"]), f(t["cost_usd"], 4), f(t["mean_latency_s"], 3))
    console = Console()
    Console(width=max(console.width, 200)).print(table)  # never squeeze the numbers out


def cmd_bench(args: argparse.Namespace, settings: Settings) -> int:
    seeds = parse_seeds(args.seeds)
    tools = [t.strip() for t in args.tools.split(",") if t.strip()] if args.tools else default_tools()
    standings = run_bench(settings, args.scale, seeds, tools, n=args.n, primary_seed=args.primary_seed,
                          questions_dir=Path(args.questions), time_ves=args.ves)
    print_standings(standings)
    failing = [t["tool"] for t in standings["tools"] if t["tool"] in REFERENCE_TOOLS
               and (t["multi_state_ex1"] < 100 or any(v < 100 for v in t["ex1_per_state"].values()))]
    if failing:
        _err(f"error: reference tool(s) {', '.join(failing)} below 100 % — the harness, a gold or an alt is wrong")
        return EXIT_FAIL
    return EXIT_OK


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of ``heron bench`` beyond --scale and --seeds."""
    parser.add_argument("--tools", default="", help="comma-separated adapters (default: gold,alt and llm if configured)")
    parser.add_argument("--n", type=int, default=1, help="samples per question (pass@k needs n ≥ k)")
    parser.add_argument("--primary-seed", type=int, default=42, help="the state tools may look at while predicting")
    parser.add_argument("--questions", default=str(PROJECT_ROOT / "questions"), help="the question files' folder")
    parser.add_argument("--ves", action="store_true", help="also time gold and prediction for VES / R-VES")
