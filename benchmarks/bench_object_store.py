"""What synchronising an artifact root with an S3-compatible store costs, against copying it locally.

Usage: python benchmarks/bench_object_store.py ARTIFACT_ROOT [--repeat 5]

ARTIFACT_ROOT is the artifact folder of a finished `heron bench` run (e.g. after
`HERON_ARTIFACT_DIR=/tmp/a heron bench --scale tiny --seeds 42,43,44`). In one process, each round:

- baseline: every file of the root written into a fresh local folder with `artifacts.atomic.write_atomic`
  (what the same run costs to write on a local root: one atomic write per file);
- push: the root pushed into a fresh prefix of a real S3-compatible server (moto's server mode,
  `ThreadedMotoServer` on 127.0.0.1, started here);
- pull: that prefix pulled into a fresh working copy (each content-addressed object checked);
- no-op: pull then push again with nothing changed (what every command pays on a synchronised root).

Prints the median of each and its ratio to the baseline. The machine is shared: compare the ratios,
not the seconds.
"""

from __future__ import annotations

import argparse
import os
import shutil
import socket
import statistics
import sys
import tempfile
import time
import uuid
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from heron_pipeline.artifacts.atomic import write_atomic  # noqa: E402
from heron_pipeline.artifacts.store import ObjectStore, ObjectStoreURL, local_files, pull, push  # noqa: E402


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("root", type=Path)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    files = local_files(args.root)
    size = sum(s for s, _ in files.values())
    print(f"{args.root}: {len(files)} files, {size:,} bytes")

    import logging

    import boto3
    from moto.server import ThreadedMotoServer

    logging.getLogger("werkzeug").setLevel(logging.ERROR)
    os.environ.update(AWS_ACCESS_KEY_ID="bench", AWS_SECRET_ACCESS_KEY="bench", AWS_DEFAULT_REGION="us-east-1")
    server = ThreadedMotoServer(ip_address="127.0.0.1", port=_free_port(), verbose=False)
    server.start()
    host, port = server.get_host_and_port()
    endpoint = f"http://{host}:{port}"
    boto3.client("s3", endpoint_url=endpoint).create_bucket(Bucket="bench")
    times: dict[str, list[float]] = {"baseline local write": [], "push": [], "pull": [], "no-op pull + push": []}
    scratch = Path(tempfile.mkdtemp(prefix="heron-bench-store-"))
    try:
        for round_ in range(args.repeat):
            target = scratch / f"local-{round_}"
            started = time.perf_counter()
            for relative in files:
                write_atomic(target / relative, (args.root / relative).read_bytes())
            times["baseline local write"].append(time.perf_counter() - started)

            store = ObjectStore(ObjectStoreURL.parse(f"s3://bench/{uuid.uuid4().hex}", endpoint))
            started = time.perf_counter()
            pushed = push(args.root, store)
            times["push"].append(time.perf_counter() - started)
            assert pushed.moved == len(files), pushed

            copy = scratch / f"copy-{round_}"
            started = time.perf_counter()
            pulled = pull(store, copy)
            times["pull"].append(time.perf_counter() - started)
            assert pulled.moved == len(files), pulled

            started = time.perf_counter()
            again = pull(store, copy)
            noop = push(copy, store, local_files(copy))
            times["no-op pull + push"].append(time.perf_counter() - started)
            assert again.moved == 0 and noop.moved == 0, (again, noop)
    finally:
        server.stop()
        shutil.rmtree(scratch, ignore_errors=True)
    base = statistics.median(times["baseline local write"])
    for name, values in times.items():
        median = statistics.median(values)
        print(f"{name:22s} median {median * 1000:8.1f} ms  ×{median / base:6.1f} the baseline  "
              f"(min {min(values) * 1000:.1f}, max {max(values) * 1000:.1f}; {len(values)} rounds)")


if __name__ == "__main__":
    main()
