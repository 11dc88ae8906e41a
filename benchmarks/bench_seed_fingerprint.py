"""Time ``heron seed --force`` end to end, this checkout against a baseline checkout, alternated.

The fingerprint used to be a second pass over every row after the build; now the build hashes
each table's rows as soon as the table is loaded (database/fingerprint.py, RowDigestsAsLoaded).
Both checkouts build the same state on the same server, runs alternating (baseline first), so a
busy neighbour slows both sides alike; the script prints each run's wall time, its build line and
fingerprint, the medians and their ratio. It fails when the two fingerprints differ: the speed-up
must not change a byte of the definition.

The baseline is any checkout of heron (e.g. a git worktree of main before this change):

    git worktree add /tmp/heron-before <commit>
    HERON_DATA_DIR=/tmp/me-pg HERON_PORT=55611 .venv/bin/heron db up
    HERON_DATA_DIR=/tmp/me-pg HERON_PORT=55611 .venv/bin/python benchmarks/bench_seed_fingerprint.py \\
        --baseline /tmp/heron-before --scale small --seed 42 --pairs 3

Wall time is the whole command (imports, plan, build, fingerprint), as a user sees it.
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parents[1]


def seed_once(checkout: Path, scale: str, seed: int) -> tuple[float, str, str]:
    """(wall seconds, the build line, the fingerprint) of one ``heron seed --force`` run of ``checkout``."""
    env = dict(os.environ, PYTHONPATH=str(checkout))
    started = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "heron_pipeline.cli", "seed", "--scale", scale, "--seed", str(seed),
                           "--force"], env=env, cwd=checkout, capture_output=True, text=True)
    seconds = time.perf_counter() - started
    if done.returncode != 0:
        raise SystemExit(f"{checkout}: heron seed failed ({done.returncode}): {done.stderr.strip()[-500:]}")
    out = done.stdout + done.stderr
    built = next((line for line in out.splitlines() if line.startswith("built ")), "?")
    found = re.search(r"fingerprint ([0-9a-f]{64})", out)
    return seconds, built, found.group(1) if found else "?"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--baseline", type=Path, required=True, help="a checkout of heron to compare against")
    parser.add_argument("--scale", default="small")
    parser.add_argument("--seed", type=int, default=42)
    parser.add_argument("--pairs", type=int, default=3)
    args = parser.parse_args()
    if "HERON_DATA_DIR" not in os.environ and "HERON_DSN" not in os.environ:
        # Each checkout would otherwise use its own .heron folder, i.e. another server.
        raise SystemExit("set HERON_DATA_DIR (and HERON_PORT) or HERON_DSN so both checkouts use one server")
    times: dict[str, list[float]] = {"baseline": [], "this": []}
    prints: dict[str, set[str]] = {"baseline": set(), "this": set()}
    for pair in range(args.pairs):
        for side, checkout in (("baseline", args.baseline.resolve()), ("this", HERE)):
            seconds, built, fingerprint = seed_once(checkout, args.scale, args.seed)
            times[side].append(seconds)
            prints[side].add(fingerprint)
            print(f"pair {pair + 1} {side:8s} {seconds:6.1f} s  {built}", flush=True)
    base, this = statistics.median(times["baseline"]), statistics.median(times["this"])
    print(f"heron seed --scale {args.scale} --seed {args.seed} --force, median of {args.pairs}: "
          f"baseline {base:.1f} s, this {this:.1f} s, ratio {this / base:.2f}x")
    print(f"fingerprints: baseline {sorted(prints['baseline'])}, this {sorted(prints['this'])}")
    if prints["baseline"] != prints["this"] or len(prints["this"]) != 1:
        raise SystemExit("the fingerprints differ")


if __name__ == "__main__":
    main()
