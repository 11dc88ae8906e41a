"""``heron bench``: the flags, the bench core's run, the standings printed as a table.

The chain itself — states, gold, audit, predictions, scores, standings, leaderboard files, run
manifest — is ``heron_pipeline.bench.run_bench``, the same steps the Dagster assets call one at a
time; this module turns flags into ``BenchOptions``, prints progress lines and the table, and
decides the exit code.
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Any

from heron_pipeline.cli import EXIT_FAIL, EXIT_OK, UsageError, _err
from heron_pipeline.config import Settings

if TYPE_CHECKING:
    from heron_pipeline.bench import BenchOptions

def bench_options(args: argparse.Namespace) -> "BenchOptions":
    """The run's options from the flags ``add_arguments`` declared (the core validates them)."""
    from heron_pipeline.bench import BenchOptions
    from heron_pipeline.bench.options import option_fields

    values = {}
    for f in option_fields():
        if f.spec.flag is None:
            continue
        try:
            values[f.name] = f.value_from_flag(getattr(args, _dest(f.spec.flag)))
        except ValueError as err:  # a flag's text that does not parse: bad input, one line, exit 2
            raise UsageError(str(err)) from None
    return BenchOptions(**values)


def _dest(flag: str) -> str:
    """argparse's attribute for ``flag`` (its default dest, so the help's metavars stay as they are)."""
    return flag.lstrip("-").replace("-", "_")


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
    from heron_pipeline.llm.settings import LLMSettings
    from heron_pipeline.bench import AuditGateError, run_bench
    from heron_pipeline.bench.options import LLM_TOOLS, REFERENCE_TOOLS
    from heron_pipeline.database.server import Server
    from heron_pipeline.predictions.progress import ConsoleProgress

    options = bench_options(args)
    llm = LLMSettings.from_environ()
    if not options.tools and not llm.configured:
        _err(f"skipping the LLM tools ({', '.join(LLM_TOOLS)}): no endpoint configured; set HERON_LLM_BASE_URL "
             f"and HERON_LLM_MODEL (and HERON_LLM_API_KEY) to run them")
    server = Server(settings)
    server.up()
    try:
        result = run_bench(server, settings.artifacts, options, llm=llm, cache_dir=llm.cache_dir, say=_err,
                           progress=ConsoleProgress())
    except AuditGateError as err:
        _err(f"error: {err}")
        return EXIT_FAIL
    if result.manifest is not None:
        _err(f"run manifest: {result.manifest.path}")
    standings = result.standings.load()
    print_standings(standings)
    _err("leaderboard: " + ", ".join(str(p) for p in result.leaderboard.values()))
    status = EXIT_OK
    for p in result.incomplete:
        counts = ", ".join(f"{k} {v}" for k, v in sorted((p.summary.get("errors_by_class") or {}).items()))
        _err(f"error: {p.tool} incomplete ({p.reason}); errors by class: {counts or 'none'}; no standings row")
        status = EXIT_FAIL
    failing = [t["tool"] for t in standings["tools"] if t["tool"] in REFERENCE_TOOLS
               and (t["multi_state_ex1"] < 100 or any(v < 100 for v in t["ex1_per_state"].values()))]
    if failing:
        _err(f"error: reference tool(s) {', '.join(failing)} below 100 % — the harness, a gold or an alt is wrong")
        status = EXIT_FAIL
    return status


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The flags of ``heron bench``, one per option declared with a flag in ``bench.options.BenchOptions``."""
    from heron_pipeline.bench.options import option_fields

    for f in option_fields():
        spec = f.spec
        if spec.flag is None:
            continue
        extra: dict[str, Any] = {} if spec.help is None else {"help": spec.help}
        if f.annotation == "bool":
            parser.add_argument(spec.flag, action="store_true", **extra)
            continue
        if spec.choices is not None:
            extra["choices"] = spec.choices
        elif f.annotation == "int":
            extra["type"] = int
        parser.add_argument(spec.flag, default=f.flag_default, **extra)
