"""``heron audit``: the bench core's audit of one scale, printed in full.

The same steps ``heron bench`` runs before it predicts anything — each state's gold and per-state
rules (``bench.compute_gold``), then every other rule of the audit table (``bench.audit_states``)
— so the verdict is recorded in the core's audit store, and a ``heron bench`` of the same states
and questions reuses it instead of auditing again. The report adds what the bench line leaves out:
the balance tables, per-tag trap liveness (also where ``trap-live`` is not judged) and every
problem. ``--mutants`` adds the near-miss mutant report, which is information, not a gate.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from heron_pipeline.cli_common import EXIT_FAIL, EXIT_OK, parse_seeds, say, seed_state
from heron_pipeline.config import Settings
from heron_pipeline.database.names import SCALES, benchmark_database
from heron_pipeline.database.server import Server



def ensure_states(server: Server, artifacts: Path, scale: str, seeds: list[int], *, seed_missing: bool) -> dict:
    """Seed -> the core's ``StateResult``, seeding the states that do not exist yet; an existing
    database is used as it is (never rebuilt here, so auditing cannot disturb a database someone else
    is reading) — and refused, naming the fix, when another generator version built it."""
    from heron_pipeline.bench import existing_state

    states = {}
    for seed in seeds:
        database = benchmark_database(scale, seed)
        if not server.database_exists(database):
            if not seed_missing:
                raise ValueError(f"{database} does not exist; run `heron seed --scale {scale} --seed {seed}`")
            say(f"{database} is missing: seeding it")
            seed_state(server, scale, seed, artifacts=artifacts)
        states[seed] = existing_state(server, artifacts, scale, seed)
    return states


def gold_line(state, gold, seconds: float, questions: int) -> None:
    """One progress line per state's gold (``bench.instances.state_audit``'s ``on_gold``)."""
    say(f"{state.database}: {questions} questions in {seconds:.1f} s "
        f"(gold median {gold.latency['median_ms']} ms, max {gold.latency['max_ms']} ms) -> {gold.gold.path}")


def print_report(audit, golds: list, questions: list) -> None:
    """Every rule's outcome, balance tables, trap liveness, cross-seed share, timings, then every problem."""
    from rich.console import Console
    from rich.table import Table

    from heron_pipeline.questions.audit import balance_of
    from heron_pipeline.questions.model import Retrieval, Shape

    console = Console(soft_wrap=True)
    rules = Table(title=f"audit at scale {audit.scale}, seeds {','.join(map(str, audit.seeds))}: {len(questions)} questions")
    rules.add_column("rule")
    rules.add_column("outcome")
    rules.add_column("problems", justify="right")
    rules.add_column("why not judged")
    style = {"passed": "green", "failed": "red", "not judged": "yellow"}
    for rule, outcome in audit.outcomes.items():
        rules.add_row(rule, outcome["status"], str(len(outcome["problems"])), outcome.get("reason") or "",
                      style=style[outcome["status"]])
    console.print(rules)

    b = balance_of(questions)
    mix = Table(title="shape × retrieval")
    mix.add_column("shape")
    for r in Retrieval:
        mix.add_column(r.value, justify="right")
    mix.add_column("total", justify="right")
    for s in Shape:
        mix.add_row(s.value, *(str(b.shape_by_retrieval[(s.value, r.value)]) for r in Retrieval), str(b.shapes[s.value]))
    mix.add_row("total", *(str(b.retrievals[r.value]) for r in Retrieval), str(len(questions)), style="bold")
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
    console.print(next((line for line in audit.report.splitlines() if line.startswith("trap liveness:")), ""),
                  highlight=False)

    if audit.varying_share is not None:
        console.print(f"answers differing across seeds: {audit.varying_share:.0%} of the non-probe questions")
    for g in golds:
        t = g.latency
        console.print(f"gold latency {g.state.label}: median {t['median_ms']} ms, max {t['max_ms']} ms, "
                      f"total {t['total_ms']} ms")

    source = {q.id: q.source for q in questions}
    for p in sorted(audit.problems, key=lambda p: (source.get(p["question_id"] or "", ""), p["question_id"] or "", p["rule"])):
        where = f"{source.get(p['question_id'], '')} {p['question_id']}" if p["question_id"] else "(whole set)"
        console.print(f"[red]{p['rule']}[/red] {where}: {p['message']}", highlight=False, markup=True)
    console.print("[green]PASS[/green]" if audit.passed else f"[red]FAIL[/red]: {len(audit.problems)} problems")


def run_mutants(server: Server, golds: list, questions: list) -> str:
    """Score every gold's near-miss mutants on every audited state; the first seed is the single state.

    Empty probes are left out: their mutants mostly stay empty by the very data rule they probe.
    The report is information, not a gate (the target is in docs/METHODOLOGY.md).
    """
    from heron_pipeline.bench.audit import gold_states, state_executor
    from heron_pipeline.catalog.ddl import load_catalog
    from heron_pipeline.mutants import evaluate
    from heron_pipeline.mutants.report import format_report

    catalog = load_catalog()
    states = gold_states(golds)
    labels = list(states)
    with state_executor(server, golds) as execute:
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
    from heron_pipeline.bench.instances import audited_instances, state_audit
    from heron_pipeline.questions import QuestionError

    started = time.perf_counter()
    try:
        seeds = parse_seeds(args.seeds)
        server = Server(settings)
        server.up()
        states = ensure_states(server, settings.artifacts, args.scale, seeds, seed_missing=not args.no_seed)
        audit_once = state_audit(server, settings.artifacts, args.scale, states, liveness=True, on_gold=gold_line)
        drawn, audit, golds = audited_instances(Path(args.questions), args.instance_seed, audit_once, say=say)
    except QuestionError as err:
        say(f"error: {err}")
        return EXIT_FAIL
    questions = list(drawn.questions)
    print_report(audit, golds, questions)
    if args.mutants:
        mutants_started = time.perf_counter()
        print(run_mutants(server, golds, questions))
        say(f"mutants took {time.perf_counter() - mutants_started:.1f} s")
    say(f"{audit.summary_line()} -> recorded as {audit.record.path}")
    say(f"audit took {time.perf_counter() - started:.1f} s")
    return EXIT_OK if audit.passed else EXIT_FAIL


def cmd_instances(args: argparse.Namespace, settings: Settings) -> int:
    """``heron instances``: one JSON object per line per question of a draw (no database needed)."""
    import json

    from heron_pipeline.artifacts import write_text_atomic
    from heron_pipeline.bench.inputs import instance_set
    from heron_pipeline.questions import QuestionError

    try:
        redraws = json.loads(args.redraws) if args.redraws else {}
        if not isinstance(redraws, dict) or not all(isinstance(v, int) and v >= 0 for v in redraws.values()):
            raise ValueError
    except ValueError:
        say(f"error: --redraws {args.redraws!r} must be a JSON object of question id → redraw count, e.g. "
            f"'{{\"q007\": 1}}' (the counters a `heron audit --instance-seed` run printed)")
        return EXIT_FAIL
    try:
        drawn = instance_set(Path(args.questions), args.instance_seed, redraws)
    except (QuestionError, ValueError) as err:
        say(f"error: {err}")
        return EXIT_FAIL
    text = "".join(json.dumps(line, ensure_ascii=False, sort_keys=True) + "\n" for line in drawn.lines())
    try:
        write_text_atomic(Path(args.out), text)
    except OSError as err:
        say(f"error: --out {args.out}: cannot write ({err.strerror}); give a writable file path")
        return EXIT_FAIL
    say(f"instance seed {args.instance_seed}: {len(drawn.questions)} questions, {len(drawn.varying)} with slots; "
        f"instance set {drawn.digest} -> {args.out}")
    return EXIT_OK


def instance_seed_arg(text: str) -> int:
    """``--instance-seed``'s value: an integer in 0..2^63-1."""
    if not text.strip().isdecimal() or int(text) >= 2**63:
        raise argparse.ArgumentTypeError(f"{text!r} is not an instance seed; give an integer in 0..2^63-1 "
                                         f"(0 is the public set)")
    return int(text)


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
    audit.add_argument("--instance-seed", type=instance_seed_arg, default=0,
                       help="audit the question draw of this instance seed (default 0: the public set); a failing "
                            "question with slots is redrawn, and every redraw is reported")
    audit.set_defaults(handler=cmd_audit)

    instances = subparsers.add_parser("instances", help="write the question draw of an instance seed as JSON lines")
    instances.add_argument("--instance-seed", type=instance_seed_arg, required=True,
                           help="the draw (0: the public set)")
    instances.add_argument("--out", required=True, help="the JSON-lines file to write")
    instances.add_argument("--questions", default=str(QUESTIONS_DIR), help="folder of question files")
    instances.add_argument("--redraws", default="",
                           help="redraw counters per question as JSON (what `heron audit --instance-seed` reported)")
    instances.set_defaults(handler=cmd_instances)
