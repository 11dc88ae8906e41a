"""Dagster's two-step build of one state (``load_state_tables``, then ``finish_state``), and what its
fingerprint costs against the standalone pass the finish step used to run, in the same run.

The finish step now fingerprints with the row digests the load step took while it loaded (stored
under the build database's OID); before, it hashed every row again after the rename. This script
runs both steps as Dagster does (in this process, one after the other), then times the standalone
pass (``fingerprint_database`` without digests, what the finish step ran before) on the same
finished database, and checks that both give the same fingerprint.

    HERON_DATA_DIR=… HERON_PORT=… .venv/bin/python benchmarks/bench_two_step_build.py --scale small --seed 42
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


def main() -> None:
    from heron_pipeline.bench.states import finish_state, load_state_tables
    from heron_pipeline.config import load_settings
    from heron_pipeline.database.fingerprint import fingerprint_database
    from heron_pipeline.database.server import Server

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scale", default="small")
    parser.add_argument("--seed", type=int, default=42)
    args = parser.parse_args()
    server = Server(load_settings())
    with tempfile.TemporaryDirectory() as artifacts_root:
        artifacts = Path(artifacts_root)
        started = time.perf_counter()
        rows = load_state_tables(server, artifacts, args.scale, args.seed)
        load = time.perf_counter() - started
        started = time.perf_counter()
        state, build = finish_state(server, artifacts, args.scale, args.seed)
        finish = time.perf_counter() - started
    started = time.perf_counter()
    standalone = fingerprint_database(server.benchmark_dsn(args.scale, args.seed))
    standalone_s = time.perf_counter() - started
    fingerprint_s = build["seconds"]["fingerprint"]
    print(f"load step {load:.1f} s ({sum(rows.values()):,} rows), finish step {finish:.1f} s "
          f"(phases {build['seconds']}), row digests reused {build['row_digests_reused']} of {len(rows)}")
    print(f"fingerprint in the finish step {fingerprint_s:.2f} s, standalone pass (before) {standalone_s:.2f} s, "
          f"ratio {fingerprint_s / standalone_s:.3f}, saved {standalone_s - fingerprint_s:.1f} s")
    print(f"fingerprint {state.fingerprint} same as standalone: {state.fingerprint == standalone.digest}")
    if state.fingerprint != standalone.digest:
        raise SystemExit("FINGERPRINTS DIFFER")


if __name__ == "__main__":
    main()
