"""Question instances, measured: what varies, how many texts a question takes, redraws and audit time.

Prints (1) the questions with slots and those without; (2) distinct natural texts per varying question
over ``--draws`` instance seeds; (3) the time to draw one instance set; (4) for each ``--audit`` instance
seed, the core's redraw loop over the real gold and audit steps on ``--scale`` × ``--seeds`` (states
built when missing): the verdict, the redraws per question and the wall time, against the public set's
audit (instance seed 0) in the same run as the baseline.

Run: .venv/bin/python benchmarks/bench_instances.py --scale tiny --audit 1,2,3,4,5
     .venv/bin/python benchmarks/bench_instances.py --scale small --audit 1 --draws 0
(on heron's configured server; `heron db up` first).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from heron_pipeline.bench import existing_state  # noqa: E402
from heron_pipeline.bench.inputs import instance_set  # noqa: E402
from heron_pipeline.bench.instances import audited_instances, state_audit  # noqa: E402
from heron_pipeline.config import load_settings  # noqa: E402
from heron_pipeline.database.server import Server  # noqa: E402
from heron_pipeline.questions import QUESTIONS_DIR  # noqa: E402


def texts_per_question(draws: int) -> None:
    public = {q.id: q for q in instance_set(QUESTIONS_DIR, 0).questions}
    seen: dict[str, set[str]] = {qid: {q.natural} for qid, q in public.items()}
    differs: dict[str, int] = {qid: 0 for qid in public}
    started = time.perf_counter()
    for seed in range(1, draws + 1):
        for q in instance_set(QUESTIONS_DIR, seed).questions:
            seen[q.id].add(q.natural)
            differs[q.id] += q.natural != public[q.id].natural
    per_draw = (time.perf_counter() - started) / max(draws, 1)
    varying = sorted(qid for qid, n in differs.items() if n)
    fixed = sorted(set(public) - set(varying))
    counts = [len(seen[qid]) for qid in varying]
    print(f"questions that vary: {len(varying)} of {len(public)}; fixed: {', '.join(fixed)}")
    print(f"a varying question's natural text differs from the public one in {min(differs[q] for q in varying)}"
          f"–{max(differs[q] for q in varying)} of {draws} draws (every draw: {sum(differs[q] == draws for q in varying)})")
    print(f"distinct natural texts per varying question over {draws} draws + the public one: min {min(counts)}, "
          f"median {statistics.median(counts):g}, max {max(counts)}")
    print(f"time to draw one instance set (100 questions, cached files): {per_draw * 1000:.0f} ms")


def audit_draws(scale: str, seeds: tuple[int, ...], instance_seeds: list[int]) -> None:
    server = Server(load_settings())
    server.up()
    artifacts = Path(tempfile.mkdtemp(prefix="heron-instances-"))  # no reuse of a recorded verdict
    states = {}
    for seed in seeds:
        if not server.database_exists(f"heron_{scale}_{seed}"):
            from heron_pipeline.seeding.build import build
            build(server, scale, seed)
        states[seed] = existing_state(server, artifacts, scale, seed)

    audit_once = state_audit(server, artifacts, scale, states)
    for instance_seed in [0, *instance_seeds]:
        said: list[str] = []
        started = time.perf_counter()
        drawn, audit, _ = audited_instances(QUESTIONS_DIR, instance_seed, audit_once, say=said.append)
        took = time.perf_counter() - started
        redraws = dict(sorted(drawn.attempts.items()))
        print(f"{scale} instance seed {instance_seed}: audit {'passed' if audit.passed else 'FAILED ' + str(audit.failed_rules)}"
              f" in {took:.1f} s; redraws {sum(redraws.values())} {redraws or ''}"
              + ("" if audit.passed else f"\n  problems: {[ (p['rule'], p.get('question_id')) for p in audit.problems]}"))


def copycat(scale: str, seeds: tuple[int, ...], instance_seeds: list[int]) -> None:
    """Multi-state EX of the public gold SQL (a copy of the answer key) scored against each draw's gold:
    the figure a submission that copied the repository would get on that draw."""
    from heron_pipeline.database.names import benchmark_database
    from heron_pipeline.results import execute_readonly
    from heron_pipeline.scoring import compare

    server = Server(load_settings())
    server.up()
    public = {q.id: q for q in instance_set(QUESTIONS_DIR, 0).questions}
    for instance_seed in instance_seeds:
        drawn = instance_set(QUESTIONS_DIR, instance_seed)
        right = {q.id: True for q in drawn.questions}
        for seed in seeds:
            with server.connect(benchmark_database(scale, seed), autocommit=False) as conn:
                for q in drawn.questions:
                    gold = list(execute_readonly(conn, q.gold_sql).rows)
                    copied = list(execute_readonly(conn, public[q.id].gold_sql).rows)
                    right[q.id] = right[q.id] and compare(q.gold_sql, gold, copied)
        fooled = sorted(qid for qid, ok in right.items() if ok and qid in drawn.varying)
        print(f"copycat (public gold SQL) on instance seed {instance_seed}, {scale} {seeds}: multi-state EX "
              f"{100 * sum(right.values()) / len(right):.1f} (public set: 100.0); varying questions it still gets "
              f"right: {len(fooled)} {fooled or ''}")


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--draws", type=int, default=100)
    parser.add_argument("--scale", default="tiny")
    parser.add_argument("--seeds", default="42,43,44")
    parser.add_argument("--audit", default="", help="instance seeds to audit, e.g. 1,2,3,4,5")
    parser.add_argument("--copycat", default="", help="instance seeds to score the public gold SQL on, e.g. 1,2,3")
    args = parser.parse_args()
    if args.draws:
        texts_per_question(args.draws)
    if args.audit:
        audit_draws(args.scale, tuple(int(s) for s in args.seeds.split(",")), [int(s) for s in args.audit.split(",")])
    if args.copycat:
        copycat(args.scale, tuple(int(s) for s in args.seeds.split(",")), [int(s) for s in args.copycat.split(",")])
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
