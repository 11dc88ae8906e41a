"""``heron audit``: run every question on every audited state and apply every audit rule.

The command is a pipeline of small steps — load the questions, make sure the states exist, run
the golds (storing each state's gold artifact), audit, print — so that a later option (mutants,
say) is one more step function and one more line in ``cmd_audit``.
"""

from __future__ import annotations

import argparse
import contextlib
import time
from pathlib import Path

from heron_pipeline.cli_common import EXIT_FAIL, EXIT_OK, parse_seeds, say, seed_state
from heron_pipeline.config import Settings
from heron_pipeline.database.names import SCALES, benchmark_database
from heron_pipeline.database.server import Server



def ensure_states(server: Server, scale: str, seeds: list[int], *, seed_missing: bool) -> None:
    """Seed the states that do not exist yet; an existing database is used as it is (never rebuilt
    here, so auditing cannot disturb a database someone else is reading)."""
    for seed in seeds:
        database = benchmark_database(scale, seed)
        if server.database_exists(database):
            continue
        if not seed_missing:
            raise ValueError(f"{database} does not exist; run `heron seed --scale {scale} --seed {seed}`")
        say(f"{database} is missing: seeding it")
        seed_state(server, scale, seed)


def run_golds(server: Server, settings: Settings, scale: str, seeds: list[int], questions: list) -> dict:
    """Run every question on every state, store each state's gold artifact; state label -> runs."""
    from heron_pipeline.questions.gold import latency_summary, run_state, write_gold_artifact

    states = {}
    for seed in seeds:
        started = time.perf_counter()
        database = benchmark_database(scale, seed)
        with server.connect(database) as conn:
            runs = run_state(conn, questions)
        path, _digest = write_gold_artifact(settings.artifacts, scale, seed, runs)
        t = latency_summary(runs)
        say(f"{database}: {len(runs)} questions in {time.perf_counter() - started:.1f} s "
             f"(gold median {t['median_ms']} ms, max {t['max_ms']} ms) -> {path}")
        states[f"{scale}_{seed}"] = runs
    return states


def print_report(report, questions: list) -> None:
    """Per-rule summary, balance tables, cross-seed share, timings, then every problem."""
    from rich.console import Console
    from rich.table import Table

    from heron_pipeline.questions.model import Retrieval, Shape

    console = Console(soft_wrap=True)
    rules = Table(title=f"audit at scale {report.scale}: {report.questions} questions")
    rules.add_column("rule")
    rules.add_column("problems", justify="right")
    for rule, n in report.by_rule().items():
        rules.add_row(rule, str(n), style="red" if n else "green")
    console.print(rules)

    b = report.balance
    mix = Table(title="shape × retrieval")
    mix.add_column("shape")
    for r in Retrieval:
        mix.add_column(r.value, justify="right")
    mix.add_column("total", justify="right")
    for s in Shape:
        mix.add_row(s.value, *(str(b.shape_by_retrieval[(s.value, r.value)]) for r in Retrieval), str(b.shapes[s.value]))
    mix.add_row("total", *(str(b.retrievals[r.value]) for r in Retrieval), str(report.questions), style="bold")
    console.print(mix)
    traps = Table(title="traps and other counts")
    traps.add_column("what")
    traps.add_column("questions", justify="right")
    for trap, n in b.traps.items():
        traps.add_row(trap, str(n))
    traps.add_row("analytical with window/CTE", str(b.window_or_cte))
    traps.add_row("three or more domains", str(b.three_domains))
    traps.add_row("empty probes", str(b.probes))
    console.print(traps)
    if report.liveness is not None:
        judged = "" if report.traps_judged else " — reported, not judged at this scale"
        live = Table(title=f"trap liveness (tagged questions, proved live by a killed mutant){judged}")
        live.add_column("trap")
        live.add_column("tagged", justify="right")
        live.add_column("live", justify="right")
        for trap, n in report.liveness.items():
            live.add_row(trap, str(n["tagged"]), str(n["live"]), style="red" if n["live"] < n["tagged"] else None)
        console.print(live)

    console.print(f"answers differing across seeds: {report.varying_share:.0%} of {report.judged} non-probe questions"
                  + (f"; same on every seed: {', '.join(report.constant)}" if report.constant else ""))
    for state, t in report.latency_ms.items():
        console.print(f"gold latency {state}: median {t['median_ms']} ms, max {t['max_ms']} ms, total {t['total_ms']} ms")

    source = {q.id: q.source for q in questions}
    for p in sorted(report.problems, key=lambda p: (source.get(p.question_id or "", ""), p.question_id or "", p.rule)):
        where = f"{source.get(p.question_id, '')} {p.question_id}" if p.question_id else "(whole set)"
        console.print(f"[red]{p.rule}[/red] {where}: {p.message}", highlight=False, markup=True)
    console.print("[green]PASS[/green]" if report.ok else f"[red]FAIL[/red]: {len(report.problems)} problems")


@contextlib.contextmanager
def state_executor(server: Server, scale: str, seeds: list[int]):
    """A read-only mutant executor over one connection per audited state (closed on exit)."""
    from heron_pipeline.mutants.run import database_executor

    with contextlib.ExitStack() as stack:
        yield database_executor({f"{scale}_{seed}": stack.enter_context(server.connect(benchmark_database(scale, seed)))
                                 for seed in seeds})


def prove_traps(server: Server, scale: str, seeds: list[int], questions: list, states: dict,
                artifacts: Path | None = None) -> dict:
    """Trap proofs for the ``trap-live`` rule (``mutants.liveness.prove_questions``) on the audited
    states; with ``artifacts``, also stored as ``trap_proofs/<scale>.json`` for the leaderboard."""
    from heron_pipeline.catalog.ddl import load_catalog
    from heron_pipeline.mutants.liveness import prove_questions, write_proofs

    started = time.perf_counter()
    with state_executor(server, scale, seeds) as execute:
        proofs = prove_questions(questions, states, execute, load_catalog())
    where = ""
    if artifacts is not None:
        where = f" -> {write_proofs(artifacts, scale, [f'{scale}_{seed}' for seed in seeds], proofs)}"
    say(f"trap proofs: {sum(len(p) for p in proofs.values())} tags in {time.perf_counter() - started:.1f} s{where}")
    return proofs


def run_mutants(server: Server, scale: str, seeds: list[int], questions: list, states: dict) -> str:
    """Score every gold's near-miss mutants on every audited state; the first seed is the single state.

    Empty probes are left out: their mutants mostly stay empty by the very data rule they probe.
    The report is information, not a gate (the target is in docs/METHODOLOGY.md).
    """
    from heron_pipeline.catalog.ddl import load_catalog
    from heron_pipeline.mutants import evaluate
    from heron_pipeline.mutants.report import format_report

    catalog = load_catalog()
    labels = [f"{scale}_{seed}" for seed in seeds]
    with state_executor(server, scale, seeds) as execute:
        outcomes = []
        for q in questions:
            if q.empty_probe:
                continue
            runs = {label: states[label].get(q.id) for label in labels}
            if any(run is None or not run.gold.ok for run in runs.values()):
                continue  # the audit already lists the failing gold
            gold_rows = {label: run.gold.result.rows for label, run in runs.items()}
            outcomes += evaluate(q.id, q.gold_sql, gold_rows, execute, primary=labels[0], catalog=catalog)
    probes = [q.id for q in questions if q.empty_probe]
    return format_report(outcomes, labels, labels[0]) + (f"\n(empty probes left out: {', '.join(probes)})"
                                                         if probes else "")


def cmd_audit(args: argparse.Namespace, settings: Settings) -> int:
    from heron_pipeline.questions import QuestionError, load_questions
    from heron_pipeline.questions.audit import run_audit

    started = time.perf_counter()
    try:
        questions = load_questions(Path(args.questions))
    except QuestionError as err:
        say(f"error: {err}")
        return EXIT_FAIL
    if not questions:
        say(f"error: no questions in {args.questions}")
        return EXIT_FAIL
    seeds = parse_seeds(args.seeds)
    server = Server(settings)
    server.up()
    ensure_states(server, args.scale, seeds, seed_missing=not args.no_seed)
    states = run_golds(server, settings, args.scale, seeds, questions)
    proofs = prove_traps(server, args.scale, seeds, questions, states, settings.artifacts)
    report = run_audit(questions, states, scale=args.scale, trap_proofs=proofs)
    print_report(report, questions)
    if args.mutants:
        mutants_started = time.perf_counter()
        print(run_mutants(server, args.scale, seeds, questions, states))
        say(f"mutants took {time.perf_counter() - mutants_started:.1f} s")
    say(f"audit took {time.perf_counter() - started:.1f} s")
    return EXIT_OK if report.ok else EXIT_FAIL


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add ``heron audit`` to the ``heron`` parser."""
    from heron_pipeline.questions import QUESTIONS_DIR

    audit = subparsers.add_parser("audit", help="run the gold (and alt) SQL on every state and check every audit rule")
    audit.add_argument("--scale", choices=SCALES, default="tiny")
    audit.add_argument("--seeds", default="42,43,44")
    audit.add_argument("--questions", default=str(QUESTIONS_DIR), help="folder of question files")
    audit.add_argument("--no-seed", action="store_true", help="fail instead of seeding a missing state")
    audit.add_argument("--mutants", action="store_true",
                       help="also score near-miss mutants of every gold: kill rates single- vs multi-state")
    audit.set_defaults(handler=cmd_audit)
