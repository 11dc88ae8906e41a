"""The issue-21 row ``heron bench --scale small --seeds 42,43,44 --tools gold --ves``, scored one pair at
a time and concurrently, in the same run (and optionally against a baseline checkout: the "before").

Every side runs the bench core's steps in order — states (existing), gold + audit, predict, score,
standings + local leaderboard — in its own process against the same server and states, with its own
fresh artifact root (the states' recorded fingerprints copied in, so nothing is re-fingerprinted,
while gold and the audit are computed again on every side: the same work everywhere). Sides:

- ``baseline``: a checkout of heron before this change (``--baseline``): EX and VES interleaved,
  one state after the other; its scoring phase is reported as ``score`` (EX and VES together).
- ``workers=1``: this checkout, EX pass one tool × state pair at a time, then the VES pass.
- ``workers=N``: this checkout, EX pass N pairs at once, then the VES pass (alone, as before).

Sides run in turn (baseline first) ``--rounds`` times, so a busy neighbour slows all alike; the
load average is printed before each side. Each side also prints what it computed with the wall
times left out (every score record without exec_s / gold_time_s / pred_time_s, the standings
without latency / VES / provenance), and the script fails unless all sides computed the same.

Run (states built first with ``heron seed``; your own server):

    git worktree add /tmp/heron-before <commit before>   # optional
    HERON_DATA_DIR=… HERON_PORT=… .venv/bin/python benchmarks/bench_overlap.py \\
        --scale small --seeds 42,43,44 --workers 2 [--baseline /tmp/heron-before]

The last lines are the contract: per-phase seconds per side, and
``ratio workers=N/baseline=<x> workers=N/workers=1=<y> identical=<yes|no>``. ``--ex-rounds K`` adds
the EX pass alone (the only pass that runs differently), workers=1 and workers=N alternated K times
in one process on the same gold and predictions: the least noisy figure under a shared machine's load.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parents[1]

#: Score-record fields that are wall times on this machine (differ between any two runs).
#: exec_s: a baseline checkout from before score records dropped their execution wall time still has it
RECORD_WALL_TIME = ("exec_s", "gold_time_s", "pred_time_s")
#: Standings figures that follow this machine's clock: the wall times (as benchmarks/bench_dagster.py)
#: and, with --ves, the Grade, which weighs min(100, VES) and latency (scoring.grade).
STANDINGS_WALL_TIME = ("mean_latency_s", "ves", "r_ves", "grade")


def comparable_digest(doc: object) -> str:
    return hashlib.sha256(json.dumps(doc, sort_keys=True).encode()).hexdigest()


def what_was_computed(scores: list, standings_path: Path) -> dict:
    """Digests of what a side computed, wall times left out: per score artifact (tool, seed) and the standings."""
    out = {}
    for s in scores:
        if s.scores is None:
            continue
        lines = [json.loads(line) for line in s.scores.path.read_text().splitlines() if line.strip()]
        for line in lines:
            for key in RECORD_WALL_TIME:
                line.pop(key, None)
        out[f"scores/{s.tool}/{s.seed}"] = comparable_digest(lines)
    standings = json.loads(standings_path.read_text())
    standings.pop("provenance", None)
    for tool in standings.get("tools", []):
        for key in STANDINGS_WALL_TIME:
            tool.pop(key, None)
    out["standings"] = comparable_digest(standings)
    return out


def run_side(data_root: Path, scale: str, seeds: tuple[int, ...], tools: tuple[str, ...], workers: int) -> dict:
    """One side, in this process (whatever checkout is first on the path): phases, and what it computed."""
    from contextlib import contextmanager

    import heron_pipeline.bench.run as bench_run
    from heron_pipeline.bench import BenchOptions, audited_golds, existing_state, predict
    from heron_pipeline.bench.inputs import question_set
    from heron_pipeline.bench.standings import compute_scale_standings, write_local_leaderboard
    from heron_pipeline.config import load_settings
    from heron_pipeline.database.server import Server

    settings = load_settings()
    server = Server(settings)
    artifacts = data_root / "artifacts"
    shutil.rmtree(artifacts, ignore_errors=True)
    shutil.copytree(settings.artifacts / "states", artifacts / "states")  # recorded fingerprints only
    phases: dict[str, float] = {}

    @contextmanager
    def phase(name: str):
        started = time.perf_counter()
        yield
        phases[name] = phases.get(name, 0.0) + time.perf_counter() - started

    extra = {"score_workers": workers} if "score_workers" in BenchOptions.__dataclass_fields__ else {}
    options = BenchOptions(scale=scale, seeds=seeds, tools=tools, time_ves=True, seed_missing=False, **extra)
    questions, digest = question_set(options.questions_dir)
    started = time.perf_counter()
    with phase("states"):
        states = {seed: existing_state(server, artifacts, scale, seed) for seed in options.states}
    with phase("gold_audit"):
        audit, golds = audited_golds(server, artifacts, scale, states, questions, digest)
    if not audit.passed:
        raise SystemExit(f"the audit of {scale} failed: {audit.summary_line()}")
    with phase("predict"):
        made = [predict(server, artifacts, options, tool, questions, digest, audit, states[options.primary_seed])
                for tool in tools]
    pairs = [(m, golds[seed]) for m in made for seed in seeds]
    if hasattr(bench_run, "score_pairs"):  # this checkout: EX pass, then VES pass
        scores = bench_run.score_pairs(server, artifacts, pairs, questions, audit, time_ves=True, workers=workers,
                                       phase=phase)
    else:  # the baseline: what its run_bench did, EX and VES interleaved, one state after the other
        from heron_pipeline.bench import score

        with phase("score"):
            scores = [score(server, artifacts, m, g, questions, audit, time_ves=True) for m, g in pairs]
    with phase("standings"):
        standings = compute_scale_standings(artifacts, audit, made, scores, options.question_mode, seeds=seeds,
                                            questions=questions)
        write_local_leaderboard(artifacts, [standings])
    phases["total"] = time.perf_counter() - started
    computed = what_was_computed(scores, standings.standings.path)
    shutil.rmtree(artifacts, ignore_errors=True)
    return {"phases": phases, "computed": computed}


def ex_alternating(data_root: Path, scale: str, seeds: tuple[int, ...], tools: tuple[str, ...], workers: int,
                   rounds: int) -> dict[int, list[float]]:
    """The EX pass alone (the only pass this change runs differently), workers=1 and workers=N alternated
    ``rounds`` times on the same gold, predictions and states: {workers: [seconds per round]}."""
    from heron_pipeline.bench import BenchOptions, audited_golds, existing_state, predict
    from heron_pipeline.bench.inputs import question_set
    from heron_pipeline.bench.run import score_pairs
    from heron_pipeline.config import load_settings
    from heron_pipeline.database.server import Server

    settings = load_settings()
    server = Server(settings)
    artifacts = data_root / "artifacts"
    shutil.rmtree(artifacts, ignore_errors=True)
    shutil.copytree(settings.artifacts / "states", artifacts / "states")
    options = BenchOptions(scale=scale, seeds=seeds, tools=tools, seed_missing=False)
    questions, digest = question_set(options.questions_dir)
    states = {seed: existing_state(server, artifacts, scale, seed) for seed in options.states}
    audit, golds = audited_golds(server, artifacts, scale, states, questions, digest)
    made = [predict(server, artifacts, options, tool, questions, digest, audit, states[options.primary_seed])
            for tool in tools]
    pairs = [(m, golds[seed]) for m in made for seed in seeds]
    times: dict[int, list[float]] = {1: [], workers: []}
    for _ in range(rounds):
        for w in (1, workers):
            started = time.perf_counter()
            score_pairs(server, artifacts, pairs, questions, audit, time_ves=False, workers=w)
            times[w].append(time.perf_counter() - started)
    shutil.rmtree(data_root, ignore_errors=True)
    return times


def side_in_process(checkout: Path, name: str, args: argparse.Namespace, workers: int) -> dict:
    """Run one side in a fresh process with ``checkout`` first on the path."""
    data_root = Path(os.environ["HERON_DATA_DIR"]) / "bench-overlap" / name.replace("=", "-")
    env = dict(os.environ, PYTHONPATH=str(checkout))
    done = subprocess.run([sys.executable, __file__, "--side", str(data_root), "--scale", args.scale,
                           "--seeds", args.seeds, "--tools", args.tools, "--workers", str(workers)],
                          env=env, cwd=checkout, capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(f"side {name} failed ({done.returncode}): {done.stderr.strip()[-1500:]}")
    shutil.rmtree(data_root, ignore_errors=True)
    return json.loads(done.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scale", default="small")
    parser.add_argument("--seeds", default="42,43,44")
    parser.add_argument("--tools", default="gold")
    parser.add_argument("--workers", type=int, default=None, help="the concurrent side's workers (default: "
                                                                   "bench.options.SCORE_WORKERS)")
    parser.add_argument("--baseline", type=Path, default=None, help="a checkout of heron before this change")
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument("--ex-rounds", type=int, default=0, help="then the EX pass alone, workers=1 and "
                                                                 "workers=N alternated this many times")
    parser.add_argument("--side", type=Path, default=None, help=argparse.SUPPRESS)  # internal: one side
    args = parser.parse_args()
    seeds = tuple(int(s) for s in args.seeds.split(","))
    tools = tuple(t for t in args.tools.split(",") if t)
    if args.side is not None:
        print(json.dumps(run_side(args.side, args.scale, seeds, tools, args.workers)))
        return
    if "HERON_DATA_DIR" not in os.environ:
        raise SystemExit("set HERON_DATA_DIR and HERON_PORT (your own server, states built with heron seed)")
    sys.path.insert(0, str(HERE))
    from heron_pipeline.bench.options import SCORE_WORKERS

    workers = args.workers or SCORE_WORKERS
    sides = ([("baseline", args.baseline.resolve(), 1)] if args.baseline else []) + [
        ("workers=1", HERE, 1), (f"workers={workers}", HERE, workers)]
    results: dict[str, list[dict]] = {name: [] for name, _c, _w in sides}
    for round_ in range(args.rounds):
        for name, checkout, w in sides:
            load = os.getloadavg()
            got = side_in_process(checkout, name, args, w)
            results[name].append(got)
            phases = "  ".join(f"{k} {v:.1f}" for k, v in got["phases"].items())
            print(f"round {round_ + 1} {name:<10} load {load[0]:.1f}/{load[1]:.1f}/{load[2]:.1f}  {phases}",
                  flush=True)
    if args.ex_rounds:
        load = os.getloadavg()
        times = ex_alternating(Path(os.environ["HERON_DATA_DIR"]) / "bench-overlap" / "ex", args.scale, seeds, tools,
                               workers, args.ex_rounds)
        one, many = statistics.median(times[1]), statistics.median(times[workers])
        print(f"EX pass alone, {args.ex_rounds} alternated rounds (load {load[0]:.1f} at start): workers=1 "
              f"{' '.join(f'{t:.1f}' for t in times[1])} s, workers={workers} "
              f"{' '.join(f'{t:.1f}' for t in times[workers])} s; median ratio {many / one:.2f}")
    if args.rounds:
        medians = {name: statistics.median(r["phases"]["total"] for r in runs) for name, runs in results.items()}
        scoring = {name: statistics.median(r["phases"].get("score", 0) + r["phases"].get("ex", 0)
                                           + r["phases"].get("ves", 0) for r in runs) for name, runs in results.items()}
        computed = {json.dumps(r["computed"], sort_keys=True) for runs in results.values() for r in runs}
        print(f"{args.scale} {args.seeds} --tools {args.tools} --ves, median of {args.rounds} round(s):")
        for name in results:
            print(f"  {name:<10} total {medians[name]:.1f} s, scoring (EX + VES) {scoring[name]:.1f} s")
        concurrent, sequential = f"workers={workers}", "workers=1"
        ratios = [f"{concurrent}/{sequential}={medians[concurrent] / medians[sequential]:.2f}"]
        if "baseline" in results:
            ratios.insert(0, f"{concurrent}/baseline={medians[concurrent] / medians['baseline']:.2f}")
            ratios.append(f"scoring {concurrent}/baseline={scoring[concurrent] / scoring['baseline']:.2f}")
        ratios.append(f"scoring {concurrent}/{sequential}={scoring[concurrent] / scoring[sequential]:.2f}")
        identical = len(computed) == 1
        print("ratio " + " ".join(ratios) + f" identical={'yes' if identical else 'no'}")
        if not identical:
            runs = [(name, r["computed"]) for name, rs in results.items() for r in rs]
            keys = sorted({k for _, c in runs for k in c})
            differing = [k for k in keys if len({json.dumps(c.get(k)) for _, c in runs}) > 1]
            raise SystemExit("the sides computed different scores or standings (wall times left out): "
                             + ", ".join(differing))


if __name__ == "__main__":
    main()
