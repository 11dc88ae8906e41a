"""``heron bench``: the flags, the bench core's run, the standings printed as a table.

The chain itself — states, gold, audit, predictions, scores, standings, leaderboard files, run
manifest — is ``heron_pipeline.bench.run_bench``, the same steps the Dagster assets call one at a
time; this module turns flags into ``BenchOptions``, prints progress lines and the table, and
decides the exit code.
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Any

from heron_pipeline.cli_common import EXIT_FAIL, EXIT_OK, UsageError, add_option_flag, say
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


def seeds_from_settings(args: argparse.Namespace, options: "BenchOptions", settings: Settings) -> "BenchOptions":
    """``options`` with the configured seeds (``seeds`` in heron.toml, ``HERON_SEEDS``) when ``--seeds``
    was not given: the setting the Dagster face reads is the CLI's default too, said in one line."""
    import dataclasses

    from heron_pipeline.bench.options import option_fields

    (field,) = [f for f in option_fields() if f.name == "seeds"]
    given = args.seeds is not field.flag_default  # argparse hands the default object itself back
    if given or settings.seeds == options.seeds:
        return options
    say(f"seeds {','.join(map(str, settings.seeds))} (the configured seeds; --seeds overrides)")
    return dataclasses.replace(options, seeds=settings.seeds)


def _dest(flag: str) -> str:
    """argparse's attribute for ``flag`` (its default dest, so the help's metavars stay as they are)."""
    return flag.lstrip("-").replace("-", "_")


#: The width the default table fits in: a 120-column terminal shows it without wrapping, and a pipe or
#: a log (where rich assumes 80 columns) gets it at this width rather than squeezed.
HEADLINE_WIDTH = 120


def print_standings(standings: dict[str, Any], *, all_columns: bool = False) -> None:
    """The standings as a rich table on stdout: the conditions (model, temperature, n) and the headline
    figures the metric registry marks (``Metric.headline``), or every metric's CLI cells with
    ``all_columns``. Numbers are never squeezed: the full table is printed at whatever width it needs."""
    from rich.console import Console
    from rich.table import Table

    from heron_pipeline.metrics import cli_cells
    from heron_pipeline.metrics.cells import cli_text

    cells = cli_cells(headline_only=not all_columns)
    seeds = ", ".join(str(s) for s in standings["seeds"])
    table = Table(title=f"heron standings — scale {standings['scale']}, seeds {seeds} ({standings['mode']})")
    for column in ("tool", "model"):  # names may fold onto a second line in a narrow terminal; numbers never
        table.add_column(column, justify="left", overflow="fold")
    for column in ("temp", "n", *(cell.title(standings) for cell in cells)):
        table.add_column(column, justify="right", no_wrap=True)
    for t in standings["tools"]:
        c = t["conditions"]
        table.add_row(t["tool"], str(c.get("model") or "—"), cli_text(c.get("temperature")), str(c["n"]),
                      *(cell.render(t) for cell in cells))
    width = Console().width
    Console(width=max(width, 1000 if all_columns else HEADLINE_WIDTH)).print(table)
    if not all_columns:
        more = len(cli_cells()) - len(cells)
        say(f"headline figures shown; {more} more columns with `heron bench --all-columns` and in the leaderboard files")


def cmd_bench(args: argparse.Namespace, settings: Settings) -> int:
    from heron_pipeline.llm.settings import LLMSettings
    from heron_pipeline.bench import AuditGateError, run_bench
    from heron_pipeline.bench.options import LLM_TOOLS, REFERENCE_TOOLS
    from heron_pipeline.database.server import Server
    from heron_pipeline.predictions.progress import ConsoleProgress

    options = bench_options(args)
    options = seeds_from_settings(args, options, settings)
    llm = LLMSettings.from_environ()
    if not options.tools and not llm.configured:
        say(f"skipping the LLM tools ({', '.join(LLM_TOOLS)}): no endpoint configured; set HERON_LLM_BASE_URL "
             f"and HERON_LLM_MODEL (and HERON_LLM_API_KEY) to run them")
    server = Server(settings)
    server.up()
    try:
        result = run_bench(server, settings.artifacts, options, llm=llm, cache_dir=llm.cache_dir, say=say,
                           progress=ConsoleProgress())
    except AuditGateError as err:
        say(f"error: {err}")
        return EXIT_FAIL
    if result.manifest is not None:
        say(f"run manifest: {result.manifest.path}")
    standings = result.standings.load()
    print_standings(standings, all_columns=args.all_columns)
    say("leaderboard: " + ", ".join(str(p) for p in result.leaderboard.values()))
    status = EXIT_OK
    for p in result.incomplete:
        counts = ", ".join(f"{k} {v}" for k, v in sorted((p.summary.get("errors_by_class") or {}).items()))
        say(f"error: {p.tool} incomplete ({p.reason}); errors by class: {counts or 'none'}; no standings row")
        status = EXIT_FAIL
    failing = [t["tool"] for t in standings["tools"] if t["tool"] in REFERENCE_TOOLS
               and (t["multi_state_ex1"] < 100 or any(v < 100 for v in t["ex1_per_state"].values()))]
    if failing:
        say(f"error: reference tool(s) {', '.join(failing)} below 100 % — the harness, a gold or an alt is wrong")
        status = EXIT_FAIL
    return status


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The flags of ``heron bench``, one per option declared with a flag in ``bench.options.BenchOptions``,
    and ``--all-columns`` (how the table is printed, not what is run)."""
    from heron_pipeline.bench.options import option_fields

    for f in option_fields():
        if f.spec.flag is not None:
            add_option_flag(parser, f.name)
    parser.add_argument("--all-columns", action="store_true",
                        help="print every column of the standings (default: the headline figures; every column "
                             "is also in the leaderboard files)")
